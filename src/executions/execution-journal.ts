// The execution log (SPEC "Deployment facts", "Limits"): run and node starts and ends,
// control commands and scheduler limit changes. With a durable store it is what survives a
// restart: on boot, runs with a start and no end become ABORTED, the newest runs are restored
// into history, older ones are dropped with their checkpoints, and the newest limit change is
// applied again. Without one, the execution registry is the in-memory log.
import type {
  ControlEvent,
  ExecutionLogEvent,
  ExecutionLogStore,
  LimitsEvent,
  NodeEndedEvent,
  NodeStartedEvent,
  RunAcceptedEvent,
  RunEndedEvent,
  RunOutputsEvent,
  RunStartedEvent,
} from '../stores/index.js';

/** What the log knows of one run. */
export interface RunHistory {
  readonly accepted: RunAcceptedEvent;
  started: RunStartedEvent | undefined;
  ended: RunEndedEvent | undefined;
  /** Per node, its latest event (a start, then an end). */
  readonly nodes: Map<string, NodeStartedEvent | NodeEndedEvent>;
  /**
   * What the run kept of its results and log lines, as read at boot, until boot recovery hands
   * them to the execution registry; from then on the registry holds them within SPEC's bounds.
   */
  outputs: RunOutputsEvent | undefined;
  /** The run recover started from this one, if any. */
  resumedBy: string | null;
  readonly controls: ControlEvent[];
}

export interface BootRecovery {
  /** Runs kept, oldest first, with the interrupted ones now ended ABORTED. */
  readonly runs: readonly RunHistory[];
  /** Runs that had a start and no end. */
  readonly aborted: readonly string[];
  /** The newest recorded limit change, to apply again. */
  readonly limits: Readonly<Record<string, unknown>> | undefined;
}

export interface ExecutionJournalOptions {
  /** Absent: no durable log; the journal records nothing. */
  readonly store: ExecutionLogStore | undefined;
  /** SPEC `svc.execution-log.retained-runs`. */
  readonly retainedRuns: number;
  /** SPEC `svc.execution-log.compact-after`: events between two trims. */
  readonly compactAfter: number;
  readonly now: () => number;
  /** A run left the log: its checkpoints go with it. */
  readonly onDrop: (executionId: string) => void;
  /**
   * What an ended run keeps now of its results and log lines, for a compaction: after SPEC's
   * bounds and retention, so the log never holds more than the server shows.
   */
  readonly outputsOf?: (
    executionId: string,
  ) => Omit<RunOutputsEvent, 'type' | 'at' | 'executionId'> | undefined;
  /**
   * A compaction failed (the database was away, the disk full). The log keeps every event
   * appended so far, uncompacted, and the next compaction tries again.
   */
  readonly onCompactionFailed?: (error: unknown) => void;
}

export const ABORTED_MESSAGE = 'The server stopped while the run was going';

/** Control commands about no execution (scheduler limit changes) that the log keeps. */
const OTHER_CONTROLS = 1_000;

export class ExecutionJournal {
  readonly #options: ExecutionJournalOptions;
  readonly #store: ExecutionLogStore | undefined;
  /** In acceptance order, oldest first. */
  readonly #runs = new Map<string, RunHistory>();
  #limits: LimitsEvent | undefined;
  /** Control commands about no execution, oldest first, the newest `OTHER_CONTROLS`. */
  #otherControls: ControlEvent[] = [];
  #sinceCompaction = 0;
  #compaction: Promise<void> | undefined;
  /**
   * Whether events are recorded: from the boot, which reads what the log holds, until the log
   * is sealed. With high availability a standby has not booted, so it never writes into the
   * log of the server that leads.
   */
  #taking = false;
  /** Sealed: what happens after is not recorded (runs still going become ABORTED). */
  #sealed = false;
  #closed = false;

  constructor(options: ExecutionJournalOptions) {
    this.#options = options;
    this.#store = options.store;
  }

  get durable(): boolean {
    return this.#store?.durable === true;
  }

  /**
   * State events accepted and not yet applied to the durable log (`svc.tracker.queue.depth`);
   * everything else takes a state event at once.
   */
  get pending(): number {
    return this.#store?.pending ?? 0;
  }

  run(executionId: string): RunHistory | undefined {
    return this.#runs.get(executionId);
  }

  /** Every control command the log keeps, oldest first: the audit of a server that restarts. */
  controls(): ControlEvent[] {
    const all = [...this.#otherControls];
    for (const run of this.#runs.values()) all.push(...run.controls);
    return all.sort((a, b) => a.at - b.at);
  }

  /**
   * Reads the log, ends every interrupted run ABORTED, keeps the newest runs and drops the
   * rest with their checkpoints, and rewrites the log to what is kept.
   */
  async boot(): Promise<BootRecovery> {
    const store = this.#store;
    if (store === undefined) return { runs: [], aborted: [], limits: undefined };
    for (const event of await store.open()) this.#apply(event);
    const aborted: string[] = [];
    const now = this.#options.now();
    for (const run of this.#runs.values()) {
      if (run.ended !== undefined) continue;
      run.ended = {
        type: 'run.ended',
        at: now,
        executionId: run.accepted.executionId,
        status: 'ABORTED',
        error: ABORTED_MESSAGE,
      };
      aborted.push(run.accepted.executionId);
    }
    this.#trim();
    await this.#compact();
    this.#taking = !this.#sealed;
    return { runs: [...this.#runs.values()], aborted, limits: this.#limits?.limits };
  }

  accepted(event: Omit<RunAcceptedEvent, 'type' | 'at'>): void {
    this.#append({ type: 'run.accepted', at: this.#options.now(), ...event });
  }

  /** `at`: the time the record shows, so that a restored run shows the same one. */
  started(executionId: string, at = this.#options.now()): void {
    this.#append({ type: 'run.started', at, executionId });
  }

  ended(executionId: string, status: string, error: string | null, at = this.#options.now()): void {
    this.#append({ type: 'run.ended', at, executionId, status, error });
  }

  /** What an ending run kept of its results and log lines; written before its end. */
  outputs(event: Omit<RunOutputsEvent, 'type' | 'at'>): void {
    this.#append({ type: 'run.outputs', at: this.#options.now(), ...event });
  }

  resumed(executionId: string, by: string): void {
    this.#append({ type: 'run.resumed', at: this.#options.now(), executionId, by });
  }

  nodeStarted(executionId: string, nodeId: string, nodeType: string): void {
    this.#append({ type: 'node.started', at: this.#options.now(), executionId, nodeId, nodeType });
  }

  nodeEnded(event: Omit<NodeEndedEvent, 'type' | 'at'>, at = this.#options.now()): void {
    this.#append({ type: 'node.ended', at, ...event });
  }

  control(executionId: string | null, entry: Readonly<Record<string, unknown>>): void {
    this.#append({ type: 'control', at: this.#options.now(), executionId, entry });
  }

  limits(limits: Readonly<Record<string, unknown>>): void {
    this.#append({ type: 'limits', at: this.#options.now(), limits });
  }

  /** Resolves once everything recorded so far is durable. */
  durableNow(): Promise<void> {
    return this.#store?.durableNow() ?? Promise.resolve();
  }

  /**
   * Records nothing more; what is queued is still written by `close`. With high availability
   * the runs a stopping leader cuts off then have no end in the log, and the next leader marks
   * them ABORTED.
   */
  seal(): void {
    this.#sealed = true;
    this.#taking = false;
  }

  /**
   * Fencing: this server lost the leader lease. Records nothing more and drops what is queued,
   * as the shared log now belongs to another server.
   */
  abandon(): Promise<void> {
    this.seal();
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    // Not waiting for a compaction under way: the database refuses it once the lease is
    // another server's, and a database that stopped answering must not hold this up.
    return this.#store?.close(0) ?? Promise.resolve();
  }

  /** SPEC graceful shutdown step 4: writes what is queued, waiting at most `timeoutMs`. */
  async close(timeoutMs: number): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.seal();
    await this.#compaction;
    await this.#store?.close(timeoutMs);
  }

  #append(event: ExecutionLogEvent): void {
    const store = this.#store;
    if (store === undefined || !this.#taking) return;
    this.#apply(event);
    store.append(event);
    if (event.type === 'run.accepted') this.#trim();
    if (++this.#sinceCompaction >= this.#options.compactAfter && this.#compaction === undefined) {
      this.#compaction = this.#compact()
        .catch((error: unknown) => {
          this.#options.onCompactionFailed?.(error);
        })
        .finally(() => {
          this.#compaction = undefined;
        });
    }
  }

  #apply(event: ExecutionLogEvent): void {
    switch (event.type) {
      case 'run.accepted':
        this.#runs.set(event.executionId, {
          accepted: event,
          started: undefined,
          ended: undefined,
          nodes: new Map(),
          outputs: undefined,
          resumedBy: null,
          controls: [],
        });
        return;
      case 'limits':
        this.#limits = event;
        return;
      case 'control':
        if (event.executionId !== null) {
          this.#runs.get(event.executionId)?.controls.push(event);
          return;
        }
        this.#otherControls.push(event);
        if (this.#otherControls.length > OTHER_CONTROLS) this.#otherControls.shift();
        return;
      case 'run.started':
        this.#with(event, (run) => (run.started = event));
        return;
      case 'run.ended':
        this.#with(event, (run) => (run.ended = event));
        return;
      case 'run.resumed':
        this.#with(event, (run) => (run.resumedBy = event.by));
        return;
      case 'run.outputs':
        // Only what boot reads is held here; a live run's outputs stay with the registry.
        if (!this.#taking) this.#with(event, (run) => (run.outputs = event));
        return;
      case 'node.started':
      case 'node.ended':
        this.#with(event, (run) => run.nodes.set(event.nodeId, event));
        return;
    }
  }

  /** Applies an event to its run; events of runs no longer kept are ignored. */
  #with(event: { readonly executionId: string }, change: (run: RunHistory) => unknown): void {
    const run = this.#runs.get(event.executionId);
    if (run !== undefined) change(run);
  }

  /** Keeps the newest runs; a run still going is never dropped. */
  #trim(): void {
    let excess = this.#runs.size - this.#options.retainedRuns;
    if (excess <= 0) return;
    for (const [executionId, run] of this.#runs) {
      if (excess <= 0) break;
      if (run.ended === undefined) continue;
      this.#runs.delete(executionId);
      this.#options.onDrop(executionId);
      excess--;
    }
  }

  #outputsOf(run: RunHistory): RunOutputsEvent | undefined {
    if (run.outputs !== undefined || run.ended === undefined) return run.outputs;
    const { executionId } = run.accepted;
    const kept = this.#options.outputsOf?.(executionId);
    if (kept === undefined) return undefined;
    return { type: 'run.outputs', at: run.ended.at, executionId, ...kept };
  }

  /** Rewrites the log to what is kept: the newest limit change and the kept runs. */
  async #compact(): Promise<void> {
    const store = this.#store;
    if (store === undefined) return;
    this.#sinceCompaction = 0;
    const events: ExecutionLogEvent[] = [];
    if (this.#limits !== undefined) events.push(this.#limits);
    events.push(...this.#otherControls);
    for (const run of this.#runs.values()) {
      events.push(run.accepted);
      if (run.started !== undefined) events.push(run.started);
      events.push(...run.nodes.values(), ...run.controls);
      const outputs = this.#outputsOf(run);
      if (outputs !== undefined) events.push(outputs);
      if (run.resumedBy !== null) {
        events.push({
          type: 'run.resumed',
          at: run.ended?.at ?? run.accepted.at,
          executionId: run.accepted.executionId,
          by: run.resumedBy,
        });
      }
      if (run.ended !== undefined) events.push(run.ended);
    }
    await store.compact(events);
  }
}
