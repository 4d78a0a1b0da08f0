// Always-on workflows (docs/always-on.md): the leading server keeps one run of each active
// workflow going. It starts one when it leads (at start-up, after a crash with the durable
// stores, at a takeover), and again whenever that run ends; a run that ends soon after it
// started is started again after a growing pause, so a workflow that fails at once does not
// spin. Its runs have no run deadline.
import { isAppError } from '../core/index.js';
import type { Subscription } from '../events/index.js';
import { END_STATUS_EVENTS, isTerminalExecutionStatus } from '../executions/index.js';
import type { ExecutionService } from './execution-service.js';
import type { SessionService, WorkflowRef } from './session-service.js';

/** A run that lasts this long counts as healthy: the next one starts at once. */
const HEALTHY_RUN_MS = 10_000;
const FIRST_PAUSE_MS = 1_000;
const LONGEST_PAUSE_MS = 60_000;

export interface AlwaysOnDeps {
  readonly sessions: SessionService;
  readonly executions: ExecutionService;
  readonly now: () => number;
  readonly warn: (fields: Record<string, unknown>, message: string) => void;
}

/** What the API answers about a workflow's activation. */
export interface Activation {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly active: boolean;
  /** The run kept going; null while none runs (between runs, or inactive). */
  readonly executionId: string | null;
}

interface Kept extends WorkflowRef {
  executionId: string | null;
  startedAt: number;
  /** Runs in a row that ended before they were healthy. */
  shortRuns: number;
  watch: Subscription | undefined;
  pause: NodeJS.Timeout | undefined;
  /** A start is under way. */
  starting: boolean;
}

export class AlwaysOn {
  readonly #deps: AlwaysOnDeps;
  readonly #kept = new Map<string, Kept>();
  /** Whether this server keeps runs going: while it leads. */
  #keeping = false;

  constructor(deps: AlwaysOnDeps) {
    this.#deps = deps;
  }

  /** The server leads: keeps every active workflow going. */
  async lead(): Promise<void> {
    this.#keeping = true;
    const workflows = await this.#deps.sessions.activeWorkflows();
    await Promise.all(workflows.map((workflow) => this.#keep(workflow)));
  }

  /** The server stops or no longer leads: no run is started again from here on. */
  close(): void {
    this.#keeping = false;
    for (const kept of this.#kept.values()) this.#forget(kept);
  }

  async activate(sessionId: string, workflowId: string): Promise<Activation> {
    await this.#deps.sessions.setActive(sessionId, workflowId, true);
    const kept = await this.#keep({ sessionId, workflowId });
    return this.#answer(sessionId, workflowId, kept);
  }

  /** Stops keeping the workflow going and stops its run, audited as stopped by `actor`. */
  async deactivate(
    sessionId: string,
    workflowId: string,
    actor: string | null,
  ): Promise<Activation> {
    await this.#deps.sessions.setActive(sessionId, workflowId, false);
    const kept = this.#kept.get(keyOf(sessionId, workflowId));
    if (kept !== undefined) {
      this.#forget(kept);
      if (kept.executionId !== null) this.#stop(kept.executionId, actor);
    }
    return { sessionId, workflowId, active: false, executionId: null };
  }

  /** Whether the workflow is kept going here, and its run. */
  activation(sessionId: string, workflowId: string): Activation {
    return this.#answer(sessionId, workflowId, this.#kept.get(keyOf(sessionId, workflowId)));
  }

  #answer(sessionId: string, workflowId: string, kept: Kept | undefined): Activation {
    return {
      sessionId,
      workflowId,
      active: kept !== undefined,
      executionId: kept?.executionId ?? null,
    };
  }

  /** Keeps the workflow going; resolves once its run is started or followed. */
  async #keep(workflow: WorkflowRef): Promise<Kept> {
    const key = keyOf(workflow.sessionId, workflow.workflowId);
    let kept = this.#kept.get(key);
    if (kept === undefined) {
      kept = {
        ...workflow,
        executionId: null,
        startedAt: 0,
        shortRuns: 0,
        watch: undefined,
        pause: undefined,
        starting: false,
      };
      this.#kept.set(key, kept);
    }
    const idle = kept.executionId === null && kept.pause === undefined && !kept.starting;
    if (this.#keeping && idle) await this.#run(kept);
    return kept;
  }

  /** Starts the workflow's run, or follows the one under way (say, resumed after a crash). */
  async #run(kept: Kept): Promise<void> {
    kept.pause = undefined;
    if (!this.#isKept(kept)) return;
    const { executions } = this.#deps;
    kept.starting = true;
    try {
      const run =
        executions.underWay(kept.sessionId, kept.workflowId) ??
        (await executions.start(
          { sessionId: kept.sessionId, workflowId: kept.workflowId },
          { alwaysOn: true },
        ));
      kept.starting = false;
      if (!this.#isKept(kept)) {
        // Deactivated while it started.
        this.#stop(run.executionId, null);
        return;
      }
      this.#follow(kept, run.executionId);
    } catch (error) {
      kept.starting = false;
      if (isAppError(error) && GONE.has(error.code)) {
        // Deleted with its session or on its own: nothing left to keep.
        this.#forget(kept);
        return;
      }
      this.#deps.warn(
        { sessionId: kept.sessionId, workflowId: kept.workflowId, err: error },
        'The run of an always-on workflow could not start; trying again',
      );
      this.#again(kept, true);
    }
  }

  #follow(kept: Kept, executionId: string): void {
    kept.executionId = executionId;
    kept.startedAt = this.#deps.now();
    kept.watch?.close();
    const ended = (): void => {
      kept.watch?.close();
      kept.watch = undefined;
      kept.executionId = null;
      this.#again(kept, this.#deps.now() - kept.startedAt < HEALTHY_RUN_MS);
    };
    kept.watch = this.#deps.executions.watch(executionId, (event) => {
      if (RUN_ENDS.has(event.kind)) ended();
    });
    // It may have ended before the watch began.
    if (isTerminalExecutionStatus(this.#deps.executions.read(executionId).status)) ended();
  }

  /** The next run: at once after a healthy one, else after a pause that doubles. */
  #again(kept: Kept, short: boolean): void {
    if (!this.#isKept(kept)) return;
    kept.shortRuns = short ? kept.shortRuns + 1 : 0;
    const pauseMs =
      kept.shortRuns === 0
        ? 0
        : Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (kept.shortRuns - 1));
    kept.pause = setTimeout(() => void this.#run(kept), pauseMs);
    kept.pause.unref();
  }

  #isKept(kept: Kept): boolean {
    return this.#keeping && this.#kept.get(keyOf(kept.sessionId, kept.workflowId)) === kept;
  }

  #forget(kept: Kept): void {
    kept.watch?.close();
    kept.watch = undefined;
    clearTimeout(kept.pause);
    kept.pause = undefined;
    this.#kept.delete(keyOf(kept.sessionId, kept.workflowId));
  }

  #stop(executionId: string, actor: string | null): void {
    try {
      this.#deps.executions.stop(executionId, actor);
    } catch (error) {
      // Ended meanwhile: nothing to stop.
      if (!isAppError(error)) throw error;
    }
  }
}

const RUN_ENDS: ReadonlySet<string> = new Set(Object.values(END_STATUS_EVENTS));

const GONE: ReadonlySet<string> = new Set(['SESSION_NOT_FOUND', 'WORKFLOW_NOT_FOUND']);

function keyOf(sessionId: string, workflowId: string): string {
  return `${sessionId}\u0000${workflowId}`;
}
