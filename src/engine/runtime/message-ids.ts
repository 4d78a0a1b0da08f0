// Stable message ids (CONTRACT section 1): derived from the parent message id, the node and
// the output index, so a replay or a resume produces the same ids and side effects can use
// them as idempotency keys. Long chains are hashed down to keep ids short.
import { createHash } from 'node:crypto';

const MAX_LENGTH = 96;

/** Id of the `index`-th message a node emitted for the message `parentId`. */
export function childMessageId(parentId: string, nodeKey: string, index: number): string {
  const id = index === 0 ? `${parentId}.${nodeKey}` : `${parentId}.${nodeKey}-${index}`;
  return id.length <= MAX_LENGTH
    ? id
    : `h${createHash('sha256').update(id).digest('base64url').slice(0, 32)}`;
}

/** Id of the `index`-th message a node emitted on its own (a trigger, a stream node). */
export function sourceMessageId(lineage: string, nodeKey: string, index: number): string {
  return childMessageId(lineage, nodeKey, index);
}
