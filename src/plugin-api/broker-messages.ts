// Helpers every broker plugin shares (docs/brokers.md): how a consumer sizes its credit from
// the graph below it, and how message bodies become payloads and payloads bodies.
import { positiveInt } from './config-schemas.js';
import type { NodeContext } from './node-context.js';

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
