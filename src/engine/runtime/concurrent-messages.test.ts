// A per-message plugin that allows more than one message at once (`MessageProcessor.concurrency`,
// as WAIT_FOR_SIGNAL and ASK do): the bound, the order outputs leave in, and the first failure.
import { describe, expect, it } from 'vitest';
import type { Message, NodeRuntime } from '../../plugin-api/index.js';
import {
  chainOf as chain,
  createTestRun as harness,
  processorOf as processor,
  sourceOf as source,
  waitFor,
} from '../testing/index.js';
import type { TestPluginType } from '../testing/index.js';

/** A processor of `concurrency` whose messages each wait until the test lets them go. */
function heldProcessor(concurrency: number): {
  readonly type: TestPluginType;
  readonly held: Map<unknown, { resolve: () => void; reject: (error: Error) => void }>;
} {
  const held = new Map<unknown, { resolve: () => void; reject: (error: Error) => void }>();
  const type: TestPluginType = {
    kind: 'processor',
    runtime: (): NodeRuntime => ({
      concurrency,
      process: (message: Message) =>
        new Promise((resolve, reject) => {
          held.set(message.payload, {
            resolve: () => {
              resolve({ payload: message.payload });
            },
            reject,
          });
        }),
    }),
  };
  return { type, held };
}

const nodes = [
  { nodeId: 'src', type: 'SRC' },
  { nodeId: 'held', type: 'HELD' },
  { nodeId: 'end', type: 'SINK' },
];

describe('WorkflowRun: a plugin with concurrency (MessageProcessor.concurrency)', () => {
  it('hands it up to that many messages at once, and lets each output go on when its own work ends, with the id derived from its input', async () => {
    const { type, held } = heldProcessor(3);
    const h = harness(
      { SRC: source([1, 2, 3, 4]), HELD: type },
      nodes,
      chain('src', 'held', 'end'),
    );
    h.run.start();
    await waitFor(() => held.size === 3, 'three messages held');
    // The fourth waits in the node's input until one of the three is done.
    expect([...held.keys()]).toEqual([1, 2, 3]);
    held.get(2)?.resolve();
    await waitFor(() => held.size === 4, 'the fourth message taken');
    await waitFor(() => h.payloads('end').length === 1, 'the first output');
    expect(h.payloads('end')).toEqual([2]);
    for (const payload of [4, 1, 3]) held.get(payload)?.resolve();
    await expect(h.run.done).resolves.toEqual({ status: 'COMPLETED', error: null });
    expect(h.payloads('end')).toEqual([2, 4, 1, 3]);
    // The same ids as a run that takes one message at a time: they derive from each input.
    const sequential = harness(
      { SRC: source([1, 2, 3, 4]), HELD: processor((m) => ({ payload: m.payload })) },
      nodes,
      chain('src', 'held', 'end'),
    );
    sequential.run.start();
    await sequential.run.done;
    const idsOf = (run: typeof h) =>
      new Map(run.results.get('end')?.map((message) => [message.payload, message.id]));
    expect(idsOf(h)).toEqual(idsOf(sequential));
    expect(h.node('held')).toMatchObject({ status: 'COMPLETED', messagesIn: 4, messagesOut: 4 });
  });

  it('ends the node FAILURE at the first failure among its messages, without waiting for the others, and the run names it', async () => {
    const { type, held } = heldProcessor(5);
    const h = harness({ SRC: source([1, 2, 3]), HELD: type }, nodes, chain('src', 'held', 'end'));
    h.run.start();
    await waitFor(() => held.size === 3, 'three messages held');
    // Messages 1 and 3 never settle: the node ends all the same.
    held.get(2)?.reject(new Error('refused 2'));
    await expect(h.run.done).resolves.toEqual({
      status: 'FAILED',
      error: "Node 'held' ended FAILURE: refused 2",
    });
    expect(h.node('held')).toMatchObject({ status: 'FAILURE', error: 'refused 2' });
    expect(h.node('end').status).toBe('UPSTREAM_FAILED');
    expect(h.logs).toContainEqual(
      expect.objectContaining({
        nodeId: 'held',
        level: 'WARN',
        message: 'Plugin HELD failed: refused 2',
      }),
    );
  });
});
