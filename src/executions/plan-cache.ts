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
  readonly #plans = new Map<string, CachedPlan>();
  readonly #hashes = new WeakMap<WorkflowPlan, string>();
  #lastSweep = 0;

  constructor(options: PlanCacheOptions) {
    this.#options = options;
  }

  /** Prepared workflows in the cache. */
  get size(): number {
    return this.#plans.size;
  }

  /** The plan of the workflow's current version; 404 for an unknown session or workflow. */
  async current(
    sessionId: string,
    workflowId: string,
  ): Promise<{ plan: WorkflowPlan; version: number }> {
    const { store } = this.#options;
    if (!(await store.getSession(sessionId))) {
      throw new AppError('SESSION_NOT_FOUND', { params: { sessionId } });
    }
    return this.latest(sessionId, workflowId);
  }

  /** The plan of the workflow's current version, the session not checked first. */
  async latest(
    sessionId: string,
    workflowId: string,
  ): Promise<{ plan: WorkflowPlan; version: number }> {
    const workflow = await this.#options.store.getWorkflow(sessionId, workflowId);
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
    return this.#plan(`${sessionId}\u0000${workflowId}\u0000${saved.version}`, () =>
      prepareWorkflow(saved.definition, this.#options.catalog, {
        workers: this.#options.workers,
      }),
    );
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

  #plan(key: string, prepare: () => WorkflowPlan): WorkflowPlan {
    const now = this.#options.clock.now();
    const ttl = this.#options.ttlMs;
    if (now - this.#lastSweep > Math.min(60_000, ttl)) {
      this.#lastSweep = now;
      for (const [cachedKey, cached] of this.#plans) {
        if (now - cached.lastUsed > ttl) this.#plans.delete(cachedKey);
      }
    }
    const cached = this.#plans.get(key);
    if (cached) {
      cached.lastUsed = now;
      return cached.plan;
    }
    const plan = prepare();
    this.#plans.set(key, { plan, lastUsed: now });
    return plan;
  }
}
