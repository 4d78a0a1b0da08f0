// CONSTANT_SOURCE trigger: the configured messages, one per item (CONTRACT section 2). Also
// the run-time part every trigger that emits a list of payloads at start shares.
import { definePlugin, z } from '../../../plugin-api/index.js';
import type { Emit, NodeContext, StreamNode } from '../../../plugin-api/index.js';

/** A trigger that emits on `out`, in order, each payload `payloadsOf` answers for the run. */
export function emitEach(payloadsOf: (ctx: NodeContext) => Iterable<unknown>): StreamNode {
  return {
    // Nothing to wait for, so a plain generator: no promise per message.
    *run(_input, ctx): Generator<Emit> {
      for (const payload of payloadsOf(ctx)) yield { payload };
    },
  };
}

export const constantSourcePlugin = definePlugin({
  type: 'CONSTANT_SOURCE',
  kind: 'trigger',
  pure: true,
  description: 'Emits each item of the configured messages list as one message payload.',
  configSchema: z.looseObject({
    messages: z.array(z.unknown()).optional().describe('Payloads to emit, one message per item'),
  }),
  outputPorts: () => ['out'],
  create: ({ messages = [] }) => emitEach(() => messages),
});
