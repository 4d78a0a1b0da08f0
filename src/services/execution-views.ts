// Views of executions that the REST API, the tool endpoint and the event streams answer alike
// (CONTRACT sections 3 and 4): records, progress, pages of a search, log lines.
import { decodeCursor, encodeCursor } from './page-cursor.js';
import type {
  ExecutionEntry,
  ExecutionQuery,
  ExecutionRecord,
  ExecutionRegistry,
  ExecutionStatus,
  LogEntry,
} from '../executions/index.js';

/** Nodes of a run by how far they came; counted once for both progress shapes. */
interface NodeCounts {
  readonly nodesTotal: number;
  readonly nodesFinished: number;
  readonly byStatus: Record<string, number>;
}

function countNodes(entry: ExecutionEntry): NodeCounts {
  const byStatus: Record<string, number> = {};
  let finished = 0;
  for (const node of entry.nodes) {
    byStatus[node.status] = (byStatus[node.status] ?? 0) + 1;
    if (node.endedAt !== null) finished++;
  }
  return { nodesTotal: entry.nodes.length, nodesFinished: finished, byStatus };
}

/** CONTRACT 4 `GET /api/workflow/{sid}/status/{id}`: the record with its progress. */
export interface ProgressSnapshot extends ExecutionRecord {
  readonly progress: {
    readonly nodesTotal: number;
    readonly nodesFinished: number;
    readonly percent: number;
    readonly byStatus: Readonly<Record<string, number>>;
    /** Result events kept for the execution. */
    readonly results: number;
    /** Some results are no longer kept (SPEC's bounds, or a server restart cut the run off). */
    readonly resultsNotKept: boolean;
    /** Some log lines are no longer kept, for the same reasons. */
    readonly logsNotKept: boolean;
  };
}

/** CONTRACT 3: the progress each event of the status stream carries. */
export interface StreamProgress {
  readonly status: ExecutionStatus;
  readonly nodesTotal: number;
  readonly nodesFinished: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly execution: ExecutionRecord;
}

export function progressSnapshot(
  registry: ExecutionRegistry,
  entry: ExecutionEntry,
): ProgressSnapshot {
  const record = registry.toRecord(entry);
  const { nodesTotal, nodesFinished, byStatus } = countNodes(entry);
  const notKept = registry.notKept(entry);
  return {
    ...record,
    progress: {
      nodesTotal,
      nodesFinished,
      percent: nodesTotal === 0 ? 0 : Math.round((100 * nodesFinished) / nodesTotal),
      byStatus,
      results: registry.resultsOf(entry).length,
      resultsNotKept: notKept.results,
      logsNotKept: notKept.logs,
    },
  };
}

/** The progress of the status stream, as the run is now. */
export function streamProgress(registry: ExecutionRegistry, entry: ExecutionEntry): StreamProgress {
  const { nodesTotal, nodesFinished, byStatus } = countNodes(entry);
  return {
    status: entry.status,
    nodesTotal,
    nodesFinished,
    byStatus,
    execution: registry.toRecord(entry),
  };
}

/** A search of executions, newest first, one page at a time. */
export interface ExecutionSearch extends ExecutionQuery {
  readonly limit: number;
  /** Where the previous page ended, as its `nextCursor` said. */
  readonly cursor?: string | undefined;
}

export interface ExecutionPage {
  readonly items: ExecutionRecord[];
  readonly nextCursor: string | null;
}

export function searchPage(registry: ExecutionRegistry, search: ExecutionSearch): ExecutionPage {
  const { limit, cursor, ...filters } = search;
  let found = registry.search(filters);
  if (cursor !== undefined) {
    const after = decodeAfter(cursor);
    const index = found.findIndex((entry) => entry.executionId === after);
    found = index === -1 ? [] : found.slice(index + 1);
  }
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((entry) => registry.toRecord(entry)),
    nextCursor: found.length > limit && last ? encodeAfter(last.executionId) : null,
  };
}

/** Opaque cursor: the id of the last execution of the previous page. */
function encodeAfter(executionId: string): string {
  return encodeCursor({ after: executionId });
}

function decodeAfter(cursor: string): string {
  return decodeCursor(
    cursor,
    (value): value is { after: string } =>
      typeof (value as { after?: unknown } | null)?.after === 'string',
  ).after;
}

/** Which log lines of an execution to read: of one node, after a sequence number, how many. */
export interface LogQuery {
  readonly nodeId?: string | undefined;
  readonly after?: number | undefined;
  readonly limit?: number | undefined;
}

/** Where the first line numbered above `after` is: lines are kept in `seq` order. */
function firstAfter(lines: readonly LogEntry[], after: number): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lines[middle]?.seq ?? Infinity) > after) high = middle;
    else low = middle + 1;
  }
  return low;
}

export function logLines(
  registry: ExecutionRegistry,
  entry: ExecutionEntry,
  { nodeId, after, limit }: LogQuery,
): LogEntry[] {
  // A client reading a long run a slice at a time asks for the lines after the last it holds:
  // found by bisection, so each slice costs its own length, not the run's.
  const lines = registry.logsOf(entry);
  const found: LogEntry[] = [];
  const most = limit ?? Infinity;
  for (let index = firstAfter(lines, after ?? -1); index < lines.length; index++) {
    if (found.length >= most) break;
    const line = lines[index];
    if (line !== undefined && (nodeId === undefined || line.nodeId === nodeId)) found.push(line);
  }
  return found;
}
