// Prepared workflows (ARCHITECTURE "A run is a set of node tasks"): one plan per workflow
// version, dropped once unused for `workflow.cache.ttl.ms` (SPEC Limits).
import { createHash } from 'node:crypto';
import { AppError } from '../core/index.js';
import type { Clock } from '../core/index.js';
import { prepareWorkflow } from '../engine/index.js';
import type {
  PluginCatalog,
  SessionStore,
  WorkflowPlan,
  WorkflowRecord,
  WorkflowVersionRecord,
} from '../engine/index.js';

export interface PlanCacheOptions {
  readonly store: SessionStore;
  readonly catalog: PluginCatalog;
  readonly clock: Clock;
  readonly workers: boolean;
  /** How long a prepared workflow stays cached while unused. */
  readonly ttlMs: number;
}

interface CachedPlan {
  readonly plan: WorkflowPlan;
  lastUsed: number;
}

/** A stable digest of a workflow definition. */
export function definitionHash(definition: unknown): string {
  return createHash('sha256').update(JSON.stringify(definition)).digest('hex');
}

export class PlanCache {
  readonly #options: PlanCacheOptions;
  /**
   * By session, workflow and version: looked up with the strings a request brought, whose hashes
   * V8 keeps, rather than with a key joined from them for every start.
   */
  readonly #plans = new Map<string, Map<string, Map<number, CachedPlan>>>();
  readonly #hashes = new WeakMap<WorkflowPlan, string>();
  #lastSweep = 0;

  constructor(options: PlanCacheOptions) {
    this.#options = options;
  }

  /** Prepared workflows in the cache. */
  get size(): number {
    let size = 0;
    for (const workflows of this.#plans.values()) {
      for (const versions of workflows.values()) size += versions.size;
    }
    return size;
  }

  /** The plan of the workflow's current version; 404 for an unknown session or workflow. */
  async current(
    sessionId: string,
    workflowId: string,
  ): Promise<{ plan: WorkflowPlan; version: number }> {
    const { store } = this.#options;
    // A workflow is kept only inside its session: the session is read only to say which of
    // the two is missing.
    const workflow = await store.getWorkflow(sessionId, workflowId);
    if (workflow === undefined && !(await store.getSession(sessionId))) {
      throw new AppError('SESSION_NOT_FOUND', { params: { sessionId } });
    }
    return this.#currentOf(sessionId, workflowId, workflow);
  }

  /** The plan of the workflow's current version, the session not checked first. */
  async latest(
    sessionId: string,
    workflowId: string,
  ): Promise<{ plan: WorkflowPlan; version: number }> {
    const workflow = await this.#options.store.getWorkflow(sessionId, workflowId);
    return this.#currentOf(sessionId, workflowId, workflow);
  }

  #currentOf(
    sessionId: string,
    workflowId: string,
    workflow: WorkflowRecord | undefined,
  ): { plan: WorkflowPlan; version: number } {
    const current = workflow?.versions.at(-1);
    if (current === undefined) {
      throw new AppError('WORKFLOW_NOT_FOUND', { params: { sessionId, workflowId } });
    }
    return { plan: this.#prepared(sessionId, workflowId, current), version: current.version };
  }

  /**
   * The plan of one saved version, as a restart of a run of an earlier server process needs;
   * undefined once the workflow or that version is gone (20 versions are kept).
   */
  async version(
    sessionId: string,
    workflowId: string,
    version: number,
  ): Promise<WorkflowPlan | undefined> {
    const workflow = await this.#options.store.getWorkflow(sessionId, workflowId);
    const saved = workflow?.versions.find((candidate) => candidate.version === version);
    return saved === undefined ? undefined : this.#prepared(sessionId, workflowId, saved);
  }

  #prepared(sessionId: string, workflowId: string, saved: WorkflowVersionRecord): WorkflowPlan {
    const now = this.#options.clock.now();
    this.#sweep(now);
    let workflows = this.#plans.get(sessionId);
    if (workflows === undefined)
      this.#plans.set(sessionId, (workflows = new Map<string, Map<number, CachedPlan>>()));
    let versions = workflows.get(workflowId);
    if (versions === undefined)
      workflows.set(workflowId, (versions = new Map<number, CachedPlan>()));
    const cached = versions.get(saved.version);
    if (cached !== undefined) {
      cached.lastUsed = now;
      return cached.plan;
    }
    const plan = prepareWorkflow(saved.definition, this.#options.catalog, {
      workers: this.#options.workers,
    });
    versions.set(saved.version, { plan, lastUsed: now });
    return plan;
  }

  /** A digest of the definition a plan was made from: recover refuses a changed workflow. */
  hashOf(plan: WorkflowPlan): string {
    let hash = this.#hashes.get(plan);
    if (hash === undefined) {
      hash = definitionHash(plan.definition);
      this.#hashes.set(plan, hash);
    }
    return hash;
  }

  /** Drops the plans unused for the time to live, at most once a minute. */
  #sweep(now: number): void {
    const ttl = this.#options.ttlMs;
    if (now - this.#lastSweep <= Math.min(60_000, ttl)) return;
    this.#lastSweep = now;
    for (const [sessionId, workflows] of this.#plans) {
      for (const [workflowId, versions] of workflows) {
        for (const [version, cached] of versions) {
          if (now - cached.lastUsed > ttl) versions.delete(version);
        }
        if (versions.size === 0) workflows.delete(workflowId);
      }
      if (workflows.size === 0) this.#plans.delete(sessionId);
    }
  }
}
