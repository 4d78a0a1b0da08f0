// Stable message ids (CONTRACT section 1): derived from the parent message id, the node and
// the output index, so a replay or a resume produces the same ids and side effects can use
// them as idempotency keys. Long chains are hashed down to keep ids short.
//
// Every id is plain: letters, digits, `.`, `-` and `_` only (node keys are base 36, indexes
// decimal, hashes base64url, and a lineage that is not plain is hashed first). Stores write
// ids into JSON as they are, without an escape check per message.
import { createHash } from 'node:crypto';

const MAX_LENGTH = 96;
const PLAIN = /^[A-Za-z0-9._-]+$/;

function hashed(text: string): string {
  return `h${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
}

/** Whether `id` has only the characters every message id is made of. */
export function isPlainId(id: string): boolean {
  return PLAIN.test(id);
}

/** The lineage a run derives its ids from: `lineage` itself when it is plain and short. */
export function plainLineage(lineage: string): string {
  return lineage.length <= MAX_LENGTH && PLAIN.test(lineage) ? lineage : hashed(lineage);
}

/** Id of the `index`-th message a node emitted for the message `parentId`. */
export function childMessageId(parentId: string, nodeKey: string, index: number): string {
  return suffixedId(parentId, index === 0 ? firstChildSuffix(nodeKey) : `.${nodeKey}-${index}`);
}

/** What a node's first emit for a message adds to the message's id (a plan keeps it). */
export function firstChildSuffix(nodeKey: string): string {
  return '.' + nodeKey;
}

/**
 * `parentId` with a node's `suffix`: one concatenation onto the parent id, so that an id
 * deep in a chain is a shallow rope of flat parts that stores copy quickly.
 */
export function suffixedId(parentId: string, suffix: string): string {
  const id = parentId + suffix;
  return id.length <= MAX_LENGTH ? id : hashed(id);
}

/** Id of the `index`-th message a node emitted on its own (a trigger, a stream node). */
export function sourceMessageId(lineage: string, nodeKey: string, index: number): string {
  return childMessageId(lineage, nodeKey, index);
}
