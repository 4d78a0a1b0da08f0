// What both ends of a worker call agree on besides the frames: the metadata that carries the
// token, and the HTTP/2 keepalive that tells either side the other is gone (docs/workers.md).
import type * as grpc from '@grpc/grpc-js';

/** Call metadata of the worker token, as `Bearer <svc.workers.token>`. */
export const TOKEN_METADATA = 'authorization';

/**
 * Trailing metadata of a call the control plane refused: why (`token`, `registration`,
 * `standby`), so a worker can tell a refusal from a lost connection with the same status.
 */
export const REFUSAL_METADATA = 'x-worker-refusal';

/** The token of `authorization: Bearer <token>`, or undefined. */
export function tokenFrom(values: readonly grpc.MetadataValue[]): string | undefined {
  const [value] = values;
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer (.+)$/i.exec(value.trim());
  return match?.[1];
}

/**
 * Keepalive pings every `intervalMs`; a ping unanswered for two more intervals ends the
 * connection, and with it the worker's call.
 */
export function keepaliveOptions(intervalMs: number): grpc.ChannelOptions {
  return {
    'grpc.keepalive_time_ms': intervalMs,
    'grpc.keepalive_timeout_ms': 2 * intervalMs,
    'grpc.keepalive_permit_without_calls': 1,
    // Payloads inside a run are unbounded; a frame is limited only by what JSON can hold.
    'grpc.max_receive_message_length': -1,
    'grpc.max_send_message_length': -1,
  };
}
