// Helpers every broker plugin shares (docs/brokers.md): how a consumer sizes its credit from
// the graph below it, and how message bodies become payloads and payloads bodies.
import { z } from 'zod';
import { positiveInt } from './config-schemas.js';
import { errorText as messageOf } from './error-text.js';
import type { NodeContext } from './node-context.js';
import type { Credits, SettlementFailure } from './settlement.js';

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

/** The `decode` key of a consumer: how a body becomes a payload (`decodeBody`). */
export function decodeOption() {
  return z
    .enum(['json', 'text'])
    .optional()
    .describe('json (default): a JSON body is parsed, other bodies stay text; text: always text');
}

/**
 * A consumer schema's check (for `superRefine`) that `onFailure: dead-letter` comes with where
 * failed messages go: one of `keys`, the first named in the problem.
 */
export function needsDeadLetterTarget<Config extends { readonly onFailure?: string | undefined }>(
  ...keys: readonly [keyof Config & string, ...(keyof Config & string)[]]
): (config: Config, ctx: z.RefinementCtx) => void {
  return (config, ctx) => {
    if (config.onFailure !== 'dead-letter') return;
    if (keys.some((key) => config[key] !== undefined)) return;
    ctx.addIssue({
      code: 'custom',
      path: [keys[0]],
      message: `onFailure dead-letter needs ${keys.join(' or ')}`,
    });
  };
}

/**
 * What a consumer does once it has sent its answer to a settled message (ack, nak, dead letter):
 * when the broker has taken it, the answer is counted under `event` and the credit comes back;
 * when the broker did not confirm it, it is counted `lost` and logged, and the credit comes back
 * all the same (the broker delivers the message again). The credit waits for the broker so that
 * the broker never holds more unacknowledged messages than the credit either.
 */
export function answerWhenTaken(
  ctx: Pick<NodeContext, 'report' | 'log'>,
  credits: Pick<Credits, 'settled'>,
  event: string,
): (sent: string, taken: Promise<unknown>) => void {
  return (sent, taken) => {
    taken.then(
      () => {
        ctx.report(event, sent);
        credits.settled();
      },
      (error: unknown) => {
        ctx.report(event, 'lost');
        ctx.log.warn('Answer to a settled message not confirmed by the broker', {
          sent,
          error: messageOf(error),
        });
        credits.settled();
      },
    );
  };
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
