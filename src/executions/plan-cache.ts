// Prepared workflows (ARCHITECTURE "A run is a set of node tasks"): one plan per workflow
// version, dropped once unused for `workflow.cache.ttl.ms` (SPEC Limits).
import { createHash } from 'node:crypto';
import { AppError } from '../core/index.js';
import type { Clock } from '../core/index.js';
import { prepareWorkflow } from '../engine/index.js';
import type { PluginCatalog, SessionStore, WorkflowPlan } from '../engine/index.js';

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
    const plan = this.#plan(`${sessionId}\u0000${workflowId}\u0000${current.version}`, () =>
      prepareWorkflow(current.definition, this.#options.catalog, {
        workers: this.#options.workers,
      }),
    );
    return { plan, version: current.version };
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
