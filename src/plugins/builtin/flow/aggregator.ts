// AGGREGATOR: groups messages by count or time into one message (CONTRACT section 2).
import {
  compileExpression,
  definePlugin,
  jsonataExpression,
  positiveInt,
  requireOneOf,
  z,
} from '../../../plugin-api/index.js';
import type { CompiledExpression, Emit, Message, NodeContext } from '../../../plugin-api/index.js';

export const aggregatorPlugin = definePlugin({
  type: 'AGGREGATOR',
  kind: 'processor',
  pure: true,
  description:
    'Collects messages into an array, emitted when size messages arrived or timeoutMs passed.',
  configSchema: z
    .looseObject({
      size: positiveInt().optional().describe('Emit once this many messages are collected'),
      timeoutMs: positiveInt().optional().describe('Emit what was collected after this time'),
      expression: jsonataExpression()
        .optional()
        .describe('JSONata reduction applied to the collected array'),
    })
    .superRefine((config, ctx) => {
      requireOneOf(config, ['size', 'timeoutMs'], ctx, 'AGGREGATOR needs size, timeoutMs or both');
    }),
  wholeStream: true,
  create: (config) => {
    const reduction =
      config.expression === undefined ? undefined : compileExpression(config.expression);
    return {
      run: (input, ctx) => aggregate(input, ctx, config.size, config.timeoutMs, reduction),
    };
  },
  outputPorts: () => ['out'],
});

/** A sleep of the run's clock, armed while batch number `batch` was open. */
interface Timer {
  readonly batch: number;
  fired: boolean;
}

async function* aggregate(
  input: AsyncIterable<Message>,
  ctx: NodeContext,
  size: number | undefined,
  timeoutMs: number | undefined,
  reduction: CompiledExpression | undefined,
): AsyncGenerator<Emit> {
  const iterator = input[Symbol.asyncIterator]();
  const { signal } = ctx;
  let batch: unknown[] = [];
  let batchNumber = 0;
  let batchStart = 0;
  let next: Promise<IteratorResult<Message>> | undefined;
  // The timer and an abort wake the current wait through `wake`; their state is kept in
  // `timer.fired` and `signal.aborted`, so one that happens while a batch is being emitted
  // is seen at the next turn. Racing long-lived promises instead would pile up one
  // reaction per message on them.
  let wake = (): void => undefined;
  const onAbort = (): void => {
    wake();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  // `ctx.sleep` cannot be cancelled, so a batch filled by size leaves its sleep pending.
  // Rather than arming one sleep per batch (one timer per `size` messages under load), at
  // most one sleep is pending: a stale one that fires only re-arms for the time left.
  let timer: Timer | undefined;
  const arm = (ms: number): Timer => {
    const armed: Timer = { batch: batchNumber, fired: false };
    ctx.sleep(ms).then(
      () => {
        armed.fired = true;
        wake();
      },
      // Rejected only when the signal aborts, which `onAbort` handles.
      () => undefined,
    );
    return armed;
  };
  const flush = async (): Promise<Emit> => {
    const payloads = batch;
    batch = [];
    batchNumber += 1;
    const payload =
      reduction === undefined ? payloads : await reduction.evaluate(payloads, undefined, ctx);
    return { payload: payload ?? null, headers: { count: payloads.length } };
  };

  try {
    for (;;) {
      if (signal.aborted) return;
      if (timer?.fired === true) {
        const stale = timer.batch !== batchNumber;
        timer = undefined;
        if (!stale) yield await flush();
        continue;
      }
      if (timer === undefined && timeoutMs !== undefined && batch.length > 0) {
        timer = arm(Math.max(0, batchStart + timeoutMs - ctx.now()));
      }
      const reading = (next ??= iterator.next());
      const result = await new Promise<IteratorResult<Message> | undefined>((resolve, reject) => {
        wake = () => {
          resolve(undefined);
        };
        reading.then(resolve, reject);
      });
      if (result === undefined) continue;
      next = undefined;
      if (result.done === true) break;
      if (batch.length === 0) batchStart = ctx.now();
      batch.push(result.value.payload);
      if (size !== undefined && batch.length >= size) yield await flush();
    }
    if (batch.length > 0) yield await flush();
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (next === undefined) {
      await iterator.return?.();
    } else {
      // Stopped while a read is pending: release the input without waiting for it.
      void iterator.return?.().catch(() => undefined);
    }
  }
}
