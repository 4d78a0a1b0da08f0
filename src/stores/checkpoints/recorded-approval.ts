// The shape check of an answered approval read back from storage (a file line or a row): a
// stored approval is untrusted input, and a resumed run must not reuse a damaged one.
import type { RecordedApproval } from '../../engine/index.js';

export function isRecordedApproval(value: unknown): value is RecordedApproval {
  return (
    typeof value === 'object' &&
    value !== null &&
    'nodeId' in value &&
    typeof value.nodeId === 'string' &&
    'messageId' in value &&
    typeof value.messageId === 'string' &&
    'approved' in value &&
    typeof value.approved === 'boolean' &&
    (!('comment' in value) ||
      value.comment === undefined ||
      value.comment === null ||
      typeof value.comment === 'string')
  );
}
