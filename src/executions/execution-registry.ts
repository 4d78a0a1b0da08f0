// Execution records (CONTRACT section 3) with their result events and node log lines, kept in
// memory within SPEC's bounds: the newest executions, results per execution, log lines; and
// within byte budgets on top of them, so that large payloads cannot grow the heap without end.
import { IsoTimes } from '../core/index.js';
import type { Message } from '../plugin-api/index.js';
import { messagePayloadBytes, payloadBytes } from '../engine/index.js';
import type { LogLevel } from '../engine/index.js';
import { HELD_BYTES, oldestCovering, totalHeldBytes } from './held-bytes.js';
import { isTerminalExecutionStatus } from './execution-states.js';
import type { ExecutionStatus } from './execution-states.js';
import { EndedExecutions } from './ended-executions.js';
import { HeldSessions } from './held-sessions.js';
import { ExecutionEntry } from './execution-entry.js';
import type {
  BudgetedHistory,
  ExecutionFields,
  ExecutionRecord,
  LogEntry,
  NodeRecord,
  NotKept,
  ResultEvent,
  RunOutputs,
} from './execution-entry.js';

export { ExecutionEntry };
export type {
  BudgetedHistory,
  ExecutionFields,
  ExecutionRecord,
  LogEntry,
  NodeRecord,
  NotKept,
  ResultEvent,
  RunOutputs,
} from './execution-entry.js';

export interface RegistryLimits {
  /** Executions kept; the oldest ended ones go first (SPEC `svc.execution-log.retained-runs`). */
  readonly maxExecutions: number;
  /** Result events kept per execution (SPEC `svc.results.max-per-execution`). */
  readonly resultsPerExecution: number;
  /** Log lines kept per execution; beyond them the oldest are dropped (SPEC: 10,000). */
  readonly logsPerExecution: number;
  /** SPEC `svc.logs.store.retention.default-period-minutes`: how long log lines are kept. */
  readonly logRetentionMs?: number;
  /**
   * SPEC `svc.tracker.max-sessions`: when set, ended executions of the sessions started least
   * recently are dropped so that at most this many sessions are held; null holds all.
   */
  readonly maxSessions?: number | null;
  /** SPEC `svc.results.max-executions`: executions whose result events are kept. */
  readonly resultExecutions?: number;
  /** SPEC `svc.results.ttl`: result events go this long after their last use. */
  readonly resultTtlMs?: number;
  /**
   * `svc.results.max-bytes`: result events held over all executions, payloads counted by
   * their JSON length; beyond it the oldest results of the least recently used go first.
   */
  readonly resultBytes?: number;
  /**
   * `svc.logs.store.max-bytes`: log lines held over all executions; beyond it the oldest
   * lines of the executions that logged least recently go first.
   */
  readonly logBytes?: number;
  /** Told how many entries a byte budget dropped (`svc.memory.dropped`). */
  readonly onBudgetDrop?: (history: BudgetedHistory, entries: number) => void;
  readonly now?: () => number;
}

export interface ExecutionQuery {
  readonly sessionId?: string | undefined;
  readonly workflowId?: string | undefined;
  readonly status?: ExecutionStatus | undefined;
  /** Milliseconds since the epoch, inclusive. */
  readonly since?: number | undefined;
  readonly until?: number | undefined;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export class ExecutionRegistry {
  readonly #limits: RegistryLimits;
  /** In creation order; newest last. */
  readonly #entries = new Map<string, ExecutionEntry>();
  /** The ended ones among them (and some already dropped), oldest first. */
  readonly #ended = new EndedExecutions<ExecutionEntry>();
  /** The sessions of the executions held, for `svc.tracker.max-sessions`. */
  readonly #sessions = new HeldSessions<ExecutionEntry>();
  #created = 0;
  /** Executions holding result events, least recently used first. */
  readonly #withResults = new Map<string, ExecutionEntry>();
  #lastTouched: ExecutionEntry | undefined;
  /** Executions holding log lines, the one that logged least recently first. */
  readonly #withLogs = new Map<string, ExecutionEntry>();
  #lastLogged: ExecutionEntry | undefined;
  /** Bytes held over all executions, as the byte budgets count them. */
  #resultBytes = 0;
  #logBytes = 0;
  readonly #times = new IsoTimes();

  constructor(limits: RegistryLimits) {
    this.#limits = limits;
  }

  create(fields: ExecutionFields): ExecutionEntry {
    const entry = new ExecutionEntry(fields, this.#created++, this.#ended);
    this.#entries.set(entry.executionId, entry);
    this.#sessions.add(entry);
    this.#trim();
    return entry;
  }

  get(executionId: string): ExecutionEntry | undefined {
    return this.#entries.get(executionId);
  }

  /** Result events of an execution, oldest first; reading counts as a use. */
  resultsOf(entry: ExecutionEntry): readonly ResultEvent[] {
    this.#expireResults();
    this.#trimResults(entry, this.#limits.resultsPerExecution);
    if (entry.results.length > 0) this.#touchResults(entry);
    return entry.results;
  }

  /** Keeps the newest `keep` results; trimming in batches keeps adding a result cheap. */
  #trimResults(entry: ExecutionEntry, keep: number): void {
    const excess = entry.results.length - keep;
    if (excess > 0) this.#dropResults(entry, excess);
  }

  /** Drops an execution's `count` oldest results. */
  #dropResults(entry: ExecutionEntry, count: number): void {
    if (count > 0) entry.resultsNotKept = true;
    const bytes = totalHeldBytes(entry.results.splice(0, count));
    entry.resultBytes -= bytes;
    this.#resultBytes -= bytes;
    if (entry.results.length === 0) this.#clearResults(entry);
  }

  /** Lets go of every result of an execution. */
  #clearResults(holder: ExecutionEntry): void {
    if (holder.results.length > 0) holder.resultsNotKept = true;
    this.#resultBytes -= holder.resultBytes;
    holder.resultBytes = 0;
    holder.results = [];
    this.#withResults.delete(holder.executionId);
    if (this.#lastTouched === holder) this.#lastTouched = undefined;
  }

  /**
   * A byte budget: drops the oldest entries of the executions used (results) or logged (log
   * lines) least recently until the rest fit. The execution of the entry just added is last,
   * so its newest entry goes only with every other entry it has: a run's last log line is
   * still there to be streamed.
   */
  #shed(history: BudgetedHistory, max: number): void {
    const results = history === 'results';
    let dropped = 0;
    for (const holder of (results ? this.#withResults : this.#withLogs).values()) {
      const excess = (results ? this.#resultBytes : this.#logBytes) - max;
      if (excess <= 0) break;
      const count = oldestCovering(results ? holder.results : holder.logs, excess);
      dropped += count;
      if (results) this.#dropResults(holder, count);
      else this.#dropLogs(holder, count);
    }
    if (dropped > 0) this.#limits.onBudgetDrop?.(history, dropped);
  }

  #touchResults(entry: ExecutionEntry, at?: number): void {
    entry.resultsUsedAt = at ?? this.#limits.now?.() ?? Date.now();
    // Already the most recently used: the order holds as it is.
    if (this.#lastTouched === entry) return;
    this.#lastTouched = entry;
    this.#withResults.delete(entry.executionId);
    this.#withResults.set(entry.executionId, entry);
    const max = this.#limits.resultExecutions;
    if (max === undefined) return;
    for (const holder of this.#withResults.values()) {
      if (this.#withResults.size <= max) break;
      this.#clearResults(holder);
    }
  }

  #expireResults(): void {
    const ttl = this.#limits.resultTtlMs;
    if (ttl === undefined) return;
    const now = this.#limits.now?.() ?? Date.now();
    for (const holder of this.#withResults.values()) {
      if (now - holder.resultsUsedAt <= ttl) break;
      this.#clearResults(holder);
    }
  }

  addResult(entry: ExecutionEntry, nodeId: string, message: Message, now: number): ResultEvent {
    // Measured by the engine when the message was emitted: no second walk of the payload.
    const bytes = messagePayloadBytes(message);
    const result: ResultEvent = {
      seq: ++entry.resultSeq,
      timestamp: this.#times.of(now),
      nodeId,
      messageId: message.id,
      payload: message.payload,
      [HELD_BYTES]: bytes,
    };
    entry.results.push(result);
    entry.resultBytes += bytes;
    this.#resultBytes += bytes;
    const keep = this.#limits.resultsPerExecution;
    if (entry.results.length >= 2 * keep) this.#trimResults(entry, keep);
    // The time the result was stamped with: a second look at the clock per result was a
    // twentieth of a run that records one per message.
    this.#touchResults(entry, now);
    const max = this.#limits.resultBytes;
    if (max !== undefined && this.#resultBytes > max) this.#shed('results', max);
    return result;
  }

  /** Bytes of result events held over all executions (`svc.results.max-bytes`). */
  get resultBytes(): number {
    return this.#resultBytes;
  }

  /** Bytes of log lines held over all executions (`svc.logs.store.max-bytes`). */
  get logBytes(): number {
    return this.#logBytes;
  }

  /**
   * Keeps a node log line; answers it, and how many lines SPEC's count and time rules
   * dropped. The byte budget may let go of the line at once; it is answered all the same, for
   * the live stream.
   */
  /** `traceId` and the line's `spanId` are kept only for a traced run (SPEC Tracing). */
  addLog(
    entry: ExecutionEntry,
    line: {
      readonly nodeId: string;
      readonly level: LogLevel;
      readonly message: string;
      readonly fields: Readonly<Record<string, unknown>>;
      readonly spanId?: string;
    },
    now: number,
    traceId?: string,
  ): { readonly line: LogEntry; readonly dropped: number } {
    const bytes = logLineBytes(line, traceId);
    const seq = ++entry.logSeq;
    const timestamp = new Date(now).toISOString();
    const { executionId } = entry;
    // Untraced lines never have a span id: they keep the plain shape, with no copy made.
    const kept: LogEntry =
      traceId === undefined
        ? { seq, timestamp, executionId, ...line, [HELD_BYTES]: bytes }
        : {
            seq,
            timestamp,
            executionId,
            nodeId: line.nodeId,
            level: line.level,
            message: line.message,
            fields: line.fields,
            traceId,
            ...(line.spanId === undefined ? {} : { spanId: line.spanId }),
            [HELD_BYTES]: bytes,
          };
    entry.logs.push(kept);
    entry.logBytes += bytes;
    this.#logBytes += bytes;
    this.#touchLogs(entry);
    let dropped = this.#expireLogs(entry, now);
    if (entry.logs.length > this.#limits.logsPerExecution) {
      this.#dropLogs(entry, 1);
      dropped++;
    }
    const max = this.#limits.logBytes;
    if (max !== undefined && this.#logBytes > max) this.#shed('logs', max);
    return { line: kept, dropped };
  }

  #touchLogs(entry: ExecutionEntry): void {
    if (this.#lastLogged === entry) return;
    this.#lastLogged = entry;
    this.#withLogs.delete(entry.executionId);
    this.#withLogs.set(entry.executionId, entry);
  }

  /** Drops an execution's `count` oldest log lines. */
  #dropLogs(entry: ExecutionEntry, count: number): void {
    if (count > 0) entry.logsNotKept = true;
    const bytes = totalHeldBytes(entry.logs.splice(0, count));
    entry.logBytes -= bytes;
    this.#logBytes -= bytes;
    if (entry.logs.length === 0) this.#releaseLogs(entry);
  }

  #releaseLogs(entry: ExecutionEntry): void {
    this.#withLogs.delete(entry.executionId);
    if (this.#lastLogged === entry) this.#lastLogged = undefined;
  }

  /** The log lines an execution still keeps, oldest first. */
  logsOf(entry: ExecutionEntry): readonly LogEntry[] {
    this.#expireLogs(entry, this.#limits.now?.() ?? Date.now());
    return entry.logs;
  }

  /** Drops lines older than the retention period; answers how many. */
  #expireLogs(entry: ExecutionEntry, now: number): number {
    const retention = this.#limits.logRetentionMs;
    const first = entry.logs[0];
    if (retention === undefined || first === undefined) return 0;
    const oldest = now - retention;
    if (Date.parse(first.timestamp) >= oldest) return 0;
    const keep = entry.logs.findIndex((line) => Date.parse(line.timestamp) >= oldest);
    const dropped = keep === -1 ? entry.logs.length : keep;
    this.#dropLogs(entry, dropped);
    return dropped;
  }

  /** What the run keeps of its results and log lines now, within SPEC's bounds. */
  outputsOf(entry: ExecutionEntry): RunOutputs {
    this.#expireResults();
    this.#trimResults(entry, this.#limits.resultsPerExecution);
    return {
      results: [...entry.results],
      logs: [...this.logsOf(entry)],
      resultsNotKept: entry.resultsNotKept,
      logsNotKept: entry.logsNotKept,
    };
  }

  /**
   * Gives a run of an earlier server process back what it kept; `usedAt` is when its results
   * were last written, so that SPEC's time to live counts from then and not from the restart.
   */
  restoreOutputs(entry: ExecutionEntry, outputs: RunOutputs, usedAt: number): void {
    entry.resultsNotKept = outputs.resultsNotKept;
    entry.logsNotKept = outputs.logsNotKept;
    // Counted against the byte budgets like the entries this process kept itself.
    entry.results = outputs.results.map((result) => ({
      ...result,
      [HELD_BYTES]: payloadBytes(result.payload),
    }));
    entry.logs = outputs.logs.map((line) => ({ ...line, [HELD_BYTES]: logLineBytes(line) }));
    entry.resultBytes = totalHeldBytes(entry.results);
    this.#resultBytes += entry.resultBytes;
    entry.logBytes = totalHeldBytes(entry.logs);
    this.#logBytes += entry.logBytes;
    if (entry.logs.length > 0) this.#touchLogs(entry);
    entry.resultSeq = entry.results.at(-1)?.seq ?? 0;
    entry.logSeq = entry.logs.at(-1)?.seq ?? 0;
    this.#trimResults(entry, this.#limits.resultsPerExecution);
    const ttl = this.#limits.resultTtlMs;
    const now = this.#limits.now?.() ?? Date.now();
    // Expired already: the use order of the others cannot tell, as it is by last use.
    if (ttl !== undefined && now - usedAt > ttl) this.#clearResults(entry);
    else if (entry.results.length > 0) this.#touchResults(entry, usedAt);
  }

  /** Newest first. */
  search(query: ExecutionQuery): ExecutionEntry[] {
    const found: ExecutionEntry[] = [];
    for (const entry of this.#entries.values()) {
      if (query.sessionId !== undefined && entry.sessionId !== query.sessionId) continue;
      if (query.workflowId !== undefined && entry.workflowId !== query.workflowId) continue;
      if (query.status !== undefined && entry.status !== query.status) continue;
      if (query.since !== undefined && entry.createdAt < query.since) continue;
      if (query.until !== undefined && entry.createdAt > query.until) continue;
      found.push(entry);
    }
    return found.reverse();
  }

  toRecord(entry: ExecutionEntry): ExecutionRecord {
    const nodes: Record<string, NodeRecord> = {};
    for (const node of entry.nodes) {
      nodes[node.nodeId] = {
        status: node.status,
        startedAt: iso(node.startedAt),
        endedAt: iso(node.endedAt),
        messagesIn: node.messagesIn,
        messagesOut: node.messagesOut,
        retries: node.retries,
        error: node.error,
      };
    }
    return {
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      workflowVersion: entry.workflowVersion,
      status: entry.status,
      priority: entry.priority,
      createdAt: new Date(entry.createdAt).toISOString(),
      startedAt: iso(entry.startedAt),
      endedAt: iso(entry.endedAt),
      error: entry.error,
      restartOf: entry.restartOf,
      resumedFrom: entry.resumedFrom,
      parentExecutionId: entry.parentExecutionId,
      nodes,
      ...(entry.traceId === undefined ? {} : { traceId: entry.traceId }),
    };
  }

  /** What the run no longer keeps; results over the bound are trimmed lazily, and as gone. */
  notKept(entry: ExecutionEntry): NotKept {
    this.#expireResults();
    const results = entry.resultsNotKept || entry.results.length > this.#limits.resultsPerExecution;
    return { results, logs: entry.logsNotKept };
  }

  /** Drops the oldest ended executions beyond the limits; running ones are never dropped. */
  #trim(): void {
    while (this.#entries.size > this.#limits.maxExecutions) {
      const oldest = this.#ended.takeOldest();
      if (oldest === undefined) break;
      // Dropped already (by the session bound below): nothing more to do for it.
      if (this.#entries.get(oldest.executionId) === oldest) this.#forget(oldest);
    }
    const maxSessions = this.#limits.maxSessions ?? null;
    if (maxSessions === null) return;
    let held = this.#sessions.size;
    // A session with a run still going stays, and the next least recent one goes instead.
    for (const executions of this.#sessions.leastRecentFirst()) {
      if (held <= maxSessions) return;
      let emptied = true;
      for (const entry of executions) {
        if (isTerminalExecutionStatus(entry.status)) this.#forget(entry);
        else emptied = false;
      }
      if (emptied) held--;
    }
  }

  /** Drops an execution with what it holds, so the byte totals hold only what is kept. */
  #forget(entry: ExecutionEntry): void {
    this.#entries.delete(entry.executionId);
    this.#sessions.remove(entry);
    if (entry.results.length > 0 || this.#withResults.has(entry.executionId)) {
      this.#clearResults(entry);
    }
    if (entry.logs.length > 0) this.#dropLogs(entry, entry.logs.length);
  }

  /** Sessions that have executions held. */
  get sessions(): number {
    return this.#sessions.size;
  }
}

/** What a log line counts besides its message and fields: its other members, about. */
const LOG_LINE_OVERHEAD = 160;
/** A log line's fields are small by nature; counting stops beyond this. */
const LOG_FIELDS_COUNTED = 1024 * 1024;

/** What a log line counts against `svc.logs.store.max-bytes`. */
function logLineBytes(
  line: {
    readonly nodeId: string;
    readonly message: string;
    readonly fields: Readonly<Record<string, unknown>>;
    readonly traceId?: string;
    readonly spanId?: string;
  },
  traceId = line.traceId,
): number {
  return (
    LOG_LINE_OVERHEAD +
    line.nodeId.length +
    line.message.length +
    payloadBytes(line.fields, LOG_FIELDS_COUNTED) +
    // A traced line keeps its trace and span ids too.
    (traceId === undefined ? 0 : traceId.length + (line.spanId?.length ?? 0))
  );
}
