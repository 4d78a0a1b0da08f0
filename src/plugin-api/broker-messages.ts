// Helpers every broker plugin shares (docs/brokers.md): how a consumer sizes its credit from
// the graph below it, and how message bodies become payloads and payloads bodies.
import { positiveInt } from './config-schemas.js';
import type { NodeContext } from './node-context.js';
import type { SettlementFailure } from './settlement.js';

/**
 * The `concurrency` key of a broker's publish node: publishes awaited at once, since a confirm
 * waits for the broker (for a persistent message, its disk).
 */
export function publishConcurrency() {
  return positiveInt()
    .max(1000)
    .optional()
    .describe('Publishes awaited at once (default 1); above 1 outputs may leave out of order');
}

/** The most unsettled messages a consumer holds when the graph below could take more. */
export const MAX_CONSUMER_CREDIT = 1000;

/**
 * A consumer's credit: `configured` when set, else what the graph below the trigger can hold
 * (`NodeContext.credit`), at least 1 and at most `MAX_CONSUMER_CREDIT`, so a wide graph does
 * not pull thousands of messages into memory.
 */
export function consumerCredit(
  configured: number | undefined,
  ctx: Pick<NodeContext, 'credit'>,
): number {
  return (
    configured ?? Math.max(1, Math.min(MAX_CONSUMER_CREDIT, ctx.credit ?? MAX_CONSUMER_CREDIT))
  );
}

/** Decodes a message body: JSON when `json` and it parses, else the text. */
export function decodeBody(text: string, json: boolean): unknown {
  if (!json) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The body of a payload: a string as it is, anything else as JSON. */
export function bodyOf(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  const text = JSON.stringify(payload) as string | undefined;
  return text ?? 'null';
}

/** The longest error a dead letter carries; the run's log has the rest. */
const MAX_DEAD_LETTER_ERROR = 1024;

/** Why a message is dead-lettered, as header values: one line each, the error cut short. */
export interface DeadLetterReason {
  /** The node where a descendant of the message failed for good. */
  readonly failedNode: string;
  readonly error: string;
}

/**
 * What a dead letter says about its failure: header values must be one line (NATS and HTTP-style
 * headers refuse line breaks), and a stack-sized error has no place in every copy.
 */
export function deadLetterReason(failure: SettlementFailure | undefined): DeadLetterReason {
  const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
  const error = oneLine(failure?.error ?? 'failed after its retries and onError');
  return {
    failedNode: oneLine(failure?.nodeId ?? ''),
    error:
      error.length > MAX_DEAD_LETTER_ERROR
        ? `${error.slice(0, MAX_DEAD_LETTER_ERROR - 1)}…`
        : error,
  };
}
