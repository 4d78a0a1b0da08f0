// Node activity for the timeline of a live run: starts, ends, waits and pauses from the state
// events of the progress stream, from its flow events the waits for room downstream, and the
// retries, which have no state event of their own, from the counts both kinds of event carry:
// a run that ends before its next flow still tells its retries through its last state events.
import type { NodeFlow, ProgressEvent, RunFlow } from './types';

export type ActivityKind = 'start' | 'end' | 'wait' | 'resume' | 'held' | 'sends' | 'retry';

export interface Activity {
  /** Milliseconds since the epoch. */
  readonly at: number;
  readonly nodeId: string;
  readonly kind: ActivityKind;
  /** What happened, in words: the timeline never tells it by colour alone. */
  readonly text: string;
}

/** Entries kept per run: the oldest go first. */
export const ACTIVITY_KEPT = 500;

const STATE_ACTIVITY: Readonly<Record<string, { kind: ActivityKind; text: string }>> = {
  'node.started': { kind: 'start', text: 'started' },
  'node.waiting': { kind: 'wait', text: 'waiting for a signal' },
  'node.paused': { kind: 'wait', text: 'paused' },
  'node.resumed': { kind: 'resume', text: 'resumed' },
  'node.completed': { kind: 'end', text: 'completed' },
  'node.failed': { kind: 'end', text: 'failed' },
  'node.timed_out': { kind: 'end', text: 'timed out' },
  'node.skipped': { kind: 'end', text: 'skipped' },
  'node.upstream_failed': { kind: 'end', text: 'ended: upstream failed' },
};

/** The activity a state event tells of, if any. */
export function activityOfEvent(event: ProgressEvent): Activity | undefined {
  const nodeId = event.nodeId;
  const known = STATE_ACTIVITY[event.kind];
  if (nodeId === undefined || known === undefined) return undefined;
  return { at: Date.parse(event.timestamp), nodeId, ...known };
}

/** What changed between two flows of a run: waits for room that began or ended. */
export function activityOfFlow(
  previous: RunFlow | undefined,
  flow: RunFlow,
  at: number,
): Activity[] {
  const before = new Map<string, NodeFlow>(previous?.nodes.map((node) => [node.nodeId, node]));
  const found: Activity[] = [];
  for (const node of flow.nodes) {
    const was = before.get(node.nodeId);
    if (node.waitingToSend !== (was?.waitingToSend ?? false)) {
      found.push(
        node.waitingToSend
          ? { at, nodeId: node.nodeId, kind: 'held', text: 'waits for room downstream' }
          : { at, nodeId: node.nodeId, kind: 'sends', text: 'sends again' },
      );
    }
  }
  return found;
}

const BEFORE_END = 'before it ended';

/** Retries told so far, by node. */
export type RetriesSeen = Readonly<Record<string, number>>;

/** A node's retry count as an event carries it, and when the node ended if it has. */
export interface NodeRetries {
  readonly retries: number;
  /** Milliseconds since the epoch; undefined while the node goes on. */
  readonly endedAt?: number | undefined;
}

/**
 * The retries in `counts` beyond those already told, at `at`, and the counts now told. Flows and
 * state events both carry every node's count, so whichever comes first tells a retry, once.
 * A retry learnt once its node has ended happened before that end and is placed there, even
 * when the event is older: a late tab's history carries the record as it is now.
 */
export function retriesOf(
  seen: RetriesSeen,
  counts: Readonly<Record<string, NodeRetries>>,
  at: number,
): { readonly found: Activity[]; readonly seen: RetriesSeen } {
  const found: Activity[] = [];
  let told = seen;
  for (const [nodeId, { retries, endedAt }] of Object.entries(counts)) {
    const retried = retries - (seen[nodeId] ?? 0);
    if (retried <= 0) continue;
    told = { ...told, [nodeId]: retries };
    const text = retried === 1 ? 'retried a message' : `retried ${String(retried)} messages`;
    found.push(
      endedAt === undefined
        ? { at, nodeId, kind: 'retry', text }
        : { at: endedAt, nodeId, kind: 'retry', text: `${text} ${BEFORE_END}` },
    );
  }
  return { found, seen: told };
}

/**
 * A retry is seen only in the next flow, which may come after the node has ended (a node that
 * fails once and succeeds at once ends within the same second). It happened before that end,
 * so it is placed at the end, not after it.
 */
function beforeItsEnd(entry: Activity, kept: readonly Activity[]): Activity {
  if (entry.kind !== 'retry') return entry;
  const end = kept.findLast((seen) => seen.nodeId === entry.nodeId && seen.kind === 'end');
  return end === undefined || end.at >= entry.at
    ? entry
    : { ...entry, at: end.at, text: `${entry.text} ${BEFORE_END}` };
}

/** Time order; at the same time a retry goes before an end, which it can only precede. */
function byTime(a: Activity, b: Activity): number {
  return a.at - b.at || Number(b.kind === 'retry') - Number(a.kind === 'retry');
}

/** `entries` after `kept`, the newest ACTIVITY_KEPT in time order. */
export function appendActivity(
  kept: readonly Activity[],
  entries: readonly Activity[],
): readonly Activity[] {
  if (entries.length === 0) return kept;
  const placed = entries.map((entry) => beforeItsEnd(entry, kept));
  return [...kept, ...placed].sort(byTime).slice(-ACTIVITY_KEPT);
}
