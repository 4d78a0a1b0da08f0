// CONSTANT_SOURCE trigger: the configured messages, one per item (CONTRACT section 2). Also
// the run-time part every trigger that emits a list of payloads at start shares.
import { definePlugin, z } from '../../../plugin-api/index.js';
import type { Emit, NodeContext, StreamNode } from '../../../plugin-api/index.js';

/** Each payload as one message on `out`, in order. */
function* emitted(payloads: Iterable<unknown>): Generator<Emit> {
  for (const payload of payloads) yield { payload };
}

/** A trigger that emits on `out`, in order, each payload `payloadsOf` answers for the run. */
export function emitEach(payloadsOf: (ctx: NodeContext) => Iterable<unknown>): StreamNode {
  return {
    // Nothing to wait for, so a plain generator: no promise per message. One generator function
    // for every node: a generator method here would be a new function per run, and V8 gives
    // each such function a prototype and a map of its own, in the old generation, whose
    // reference back to the function keeps it, and the run it reaches, alive through every
    // young collection until the next full one.
    run: (_input, ctx) => emitted(payloadsOf(ctx)),
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
