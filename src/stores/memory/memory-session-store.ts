// Session store held in process memory: the default when nothing is configured (SPEC
// "Deployment facts": persistence is in memory by default). Everything is lost on exit.
import { AppError } from '../../core/index.js';
import type { SessionRecord, SessionStore, WorkflowRecord } from '../../engine/index.js';
import { compareSessions, compareWorkflows } from '../shared/record-order.js';
import { VersionPool, shareWorkflow } from '../shared/version-pool.js';

/** Runs `work` now and hands its result or its exception over as a settled promise. */
function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(work());
  });
}

export class MemorySessionStore implements SessionStore {
  readonly kind = 'memory';
  readonly #sessions = new Map<string, SessionRecord>();
  /** Workflows by session id, then by workflow id; a session's entry lives as long as it does. */
  readonly #workflows = new Map<string, Map<string, WorkflowRecord>>();
  readonly #versions = new VersionPool();

  open(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  listSessions(): Promise<SessionRecord[]> {
    return settle(() => [...this.#sessions.values()].sort(compareSessions).map(copy));
  }

  getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return settle(() => copyIfPresent(this.#sessions.get(sessionId)));
  }

  putSession(session: SessionRecord): Promise<void> {
    return settle(() => {
      const stored = copy(session);
      this.#sessions.set(stored.sessionId, stored);
      if (!this.#workflows.has(stored.sessionId)) this.#workflows.set(stored.sessionId, new Map());
    });
  }

  deleteSession(sessionId: string): Promise<boolean> {
    return settle(() => {
      this.#workflows.delete(sessionId);
      return this.#sessions.delete(sessionId);
    });
  }

  listWorkflows(sessionId: string): Promise<WorkflowRecord[]> {
    return settle(() =>
      [...(this.#workflows.get(sessionId)?.values() ?? [])]
        .sort(compareWorkflows)
        .map(shareWorkflow),
    );
  }

  getWorkflow(sessionId: string, workflowId: string): Promise<WorkflowRecord | undefined> {
    return settle(() => {
      const workflow = this.#workflows.get(sessionId)?.get(workflowId);
      return workflow && shareWorkflow(workflow);
    });
  }

  putWorkflow(workflow: WorkflowRecord): Promise<void> {
    return settle(() => {
      const workflows = this.#workflows.get(workflow.sessionId);
      if (!workflows) {
        throw new AppError('STORE_FAILED', {
          params: { detail: `session '${workflow.sessionId}' does not exist` },
        });
      }
      const stored = this.#versions.ownWorkflow(workflow);
      workflows.set(stored.workflowId, stored);
    });
  }

  deleteWorkflow(sessionId: string, workflowId: string): Promise<boolean> {
    return settle(() => this.#workflows.get(sessionId)?.delete(workflowId) ?? false);
  }
}

/**
 * A session record holds strings only, so a shallow copy is a whole one: callers never share
 * the stored object, without the cost of a structured clone on every start.
 */
function copy(record: SessionRecord): SessionRecord {
  return { ...record };
}

function copyIfPresent(record: SessionRecord | undefined): SessionRecord | undefined {
  return record === undefined ? undefined : copy(record);
}
