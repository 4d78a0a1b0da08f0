// What a replay check answers per node (docs/run-repair.md "Replay check"): the node's recorded
// output against its replayed output, message by message. Ids are derived from the input
// message and the node, so the same input gives the same ids and pairs the two sides.
import { isDeepStrictEqual } from 'node:util';
import type { RecordedMessage } from '../engine/index.js';

/** How many differing messages a node's comparison lists: enough to see what changed. */
export const MAX_DIFFERENCES = 5;

/** One message that differs; `recorded` or `replayed` is absent on the side without it. */
export interface MessageDifference {
  readonly messageId: string;
  readonly recorded?: unknown;
  readonly replayed?: unknown;
  /** Why there is no replayed message, when the check knows: an input without a recording. */
  readonly note?: string;
}

export interface NodeComparison {
  readonly nodeId: string;
  readonly same: boolean;
  readonly recorded: number;
  readonly replayed: number;
  /** The first few differences (MAX_DIFFERENCES), in the order of the recorded output. */
  readonly differences: readonly MessageDifference[];
}

/** A message as the comparison sees it: what left the node, and on which port. */
export interface OutputMessage {
  readonly id: string;
  readonly port: string;
  readonly payload: unknown;
}

/**
 * Compares one node's two outputs. `unanswered` are inputs a node with outside effects had no
 * recording for: listed first, since they explain the messages missing after them.
 */
export function compareNode(
  nodeId: string,
  recorded: readonly RecordedMessage[],
  replayed: readonly OutputMessage[],
  unanswered: readonly string[] = [],
): NodeComparison {
  const differences: MessageDifference[] = unanswered.map((messageId) => ({
    messageId,
    note: 'no recording for this input (it differs from what the node received in the run); nothing was called',
  }));
  let differing = differences.length;
  const byId = new Map(replayed.map((message) => [message.id, message]));
  const note = (difference: MessageDifference): void => {
    differing++;
    if (differences.length < MAX_DIFFERENCES) differences.push(difference);
  };
  for (const message of recorded) {
    const other = byId.get(message.id);
    byId.delete(message.id);
    if (other === undefined) note({ messageId: message.id, recorded: message.payload });
    else if (other.port !== message.port || !isDeepStrictEqual(other.payload, message.payload)) {
      note({ messageId: message.id, recorded: message.payload, replayed: other.payload });
    }
  }
  for (const message of byId.values()) note({ messageId: message.id, replayed: message.payload });
  return {
    nodeId,
    same: differing === 0,
    recorded: recorded.length,
    replayed: replayed.length,
    differences: differences.slice(0, MAX_DIFFERENCES),
  };
}
