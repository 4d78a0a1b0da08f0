// Saved versions never change, so a store keeps one deeply frozen copy of each and shares it
// between reads, instead of copying all 20 versions of a workflow on every read and write.
import { AppError } from '../../core/index.js';
import type {
  NodePosition,
  WorkflowLayout,
  WorkflowRecord,
  WorkflowVersionRecord,
} from '../../engine/index.js';
import { checkVersionRecord, checkWorkflowShell } from './check-record.js';

export class VersionPool {
  /** Every pooled version with its JSON text, which is also what a file holds. */
  readonly #json = new WeakMap<WorkflowVersionRecord, string>();

  /**
   * The pool's immutable copy of `version`, or `version` itself when it is pooled already.
   * The copy goes through JSON, so it holds exactly what a file would hold.
   */
  own(version: WorkflowVersionRecord): WorkflowVersionRecord {
    if (this.#json.has(version)) return version;
    let text: string;
    try {
      text = JSON.stringify(version);
    } catch (error) {
      throw new AppError('STORE_FAILED', {
        params: { detail: `the version cannot be stored as JSON: ${String(error)}` },
        cause: error,
      });
    }
    const checked = checkVersionRecord(JSON.parse(text) as unknown);
    if (!checked.ok) {
      throw new AppError('STORE_FAILED', {
        params: { detail: `the version cannot be stored: ${checked.problem}` },
      });
    }
    deepFreeze(checked.value);
    this.#json.set(checked.value, text);
    return checked.value;
  }

  /** A copy of `workflow` whose versions are pooled. */
  ownWorkflow(workflow: WorkflowRecord): WorkflowRecord {
    const checked = checkWorkflowShell(workflow);
    if (!checked.ok) {
      throw new AppError('STORE_FAILED', {
        params: { detail: `the workflow cannot be stored: ${checked.problem}` },
      });
    }
    return {
      sessionId: workflow.sessionId,
      workflowId: workflow.workflowId,
      createdAt: workflow.createdAt,
      versions: workflow.versions.map((version) => this.own(version)),
      ...(workflow.active === true ? { active: true } : {}),
      ...(workflow.layout === undefined ? {} : { layout: ownLayout(workflow.layout) }),
    };
  }

  /** `JSON.stringify(workflow)` of a pooled workflow, built from each version's cached text. */
  workflowJson(workflow: WorkflowRecord): string {
    const versions = workflow.versions.map(
      (version) => this.#json.get(version) ?? JSON.stringify(version),
    );
    return (
      `{"sessionId":${JSON.stringify(workflow.sessionId)},` +
      `"workflowId":${JSON.stringify(workflow.workflowId)},` +
      `"createdAt":${JSON.stringify(workflow.createdAt)},` +
      `"versions":[${versions.join(',')}]` +
      (workflow.active === true ? ',"active":true' : '') +
      (workflow.layout === undefined ? '' : `,"layout":${JSON.stringify(workflow.layout)}`) +
      '}'
    );
  }
}

/**
 * A frozen copy of the positions with exactly `x` and `y`, so a record handed out can share it
 * and a caller's later change of what it passed in changes nothing stored.
 */
function ownLayout(layout: WorkflowLayout): WorkflowLayout {
  // fromEntries defines each key, so even a node called `__proto__` stays an entry.
  return Object.freeze(
    Object.fromEntries(
      Object.entries(layout).map(([nodeId, { x, y }]): [string, NodePosition] => [
        nodeId,
        Object.freeze({ x, y }),
      ]),
    ),
  );
}

/** What a caller gets: its own record and version list, sharing the frozen versions. */
export function shareWorkflow(workflow: WorkflowRecord): WorkflowRecord {
  return { ...workflow, versions: [...workflow.versions] };
}

export function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
