import { describe, expect, it } from 'vitest';
import { systemClock } from '../core/index.js';
import { childMessageId, prepareWorkflow, realTimers, sourceMessageId } from '../engine/index.js';
import type { NodeDefinition, RecordedMessage, WorkflowPlan } from '../engine/index.js';
import { createTestCatalog } from '../engine/testing/index.js';
import { ReplayChecks } from './replay-check.js';
import type { Recording } from './replay-check.js';
import { testEntry } from './testing/index.js';

/** Calls of the types with outside effects: a check must make none. */
const calls = { trigger: 0, effect: 0 };

const catalog = createTestCatalog({
  // A trigger with effects (a poll of something outside): the check replays what it sent.
  POLL: {
    kind: 'trigger',
    runtime: () => ({
      run: () => {
        calls.trigger++;
        return [{ payload: 99 }];
      },
    }),
  },
  ADD: {
    kind: 'processor',
    pure: true,
    runtime: (config) => ({
      process: (message) => ({ payload: Number(message.payload) + Number(config.n) }),
    }),
  },
  // A pure type whose work never ends on its own.
  HANG: {
    kind: 'processor',
    pure: true,
    runtime: () => ({
      process: (_message, ctx) =>
        new Promise<undefined>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            resolve(undefined);
          });
        }),
    }),
  },
  CALL: {
    kind: 'processor',
    runtime: () => ({
      process: (message) => {
        calls.effect++;
        return { payload: { answered: message.payload } };
      },
    }),
  },
});

const nodes = (n: number): NodeDefinition[] => [
  { nodeId: 'poll', type: 'POLL' },
  { nodeId: 'add', type: 'ADD', config: { n } },
  { nodeId: 'call', type: 'CALL' },
];

function planOf(n: number, definitions = nodes(n)): WorkflowPlan {
  return prepareWorkflow(
    {
      workflowId: 'w',
      description: '',
      nodes: definitions,
      edges: [
        { source: 'poll', target: 'add' },
        { source: 'add', target: 'call' },
      ],
    },
    catalog,
    { workers: false },
  );
}

/** What a run of version 1 (add 1) recorded: poll sent 1 and 2; the call answered each. */
const recorded = (plan: WorkflowPlan): Map<string, RecordedMessage[]> => {
  const key = (nodeId: string) => plan.byId.get(nodeId)?.key ?? '';
  const message = (id: string, payload: unknown): RecordedMessage => ({
    id,
    port: 'out',
    payload,
    headers: { attempt: 1 },
  });
  const polled = [1, 2].map((value, index) =>
    message(sourceMessageId('L', key('poll'), index), value),
  );
  const added = polled.map((sent) =>
    message(childMessageId(sent.id, key('add'), 0), Number(sent.payload) + 1),
  );
  const answered = added.map((sent) =>
    message(childMessageId(sent.id, key('call'), 0), { answered: sent.payload }),
  );
  return new Map([
    ['poll', polled],
    ['add', added],
    ['call', answered],
  ]);
};

const v1 = planOf(1);
/** Version 1 with a pure node that never ends in place of the call. */
const hanging = planOf(1, [...nodes(1).slice(0, 2), { nodeId: 'call', type: 'HANG' }]);
const recording: Recording = {
  launch: { request: { sessionId: 's', workflowId: 'w', payload: null }, plan: v1, version: 1 },
  lineage: 'L',
  outputOf: (nodeId) => Promise.resolve(recorded(v1).get(nodeId) ?? []),
};
const entry = testEntry('COMPLETED');

const checks = (versions: Record<number, WorkflowPlan>, timeoutMs = 5_000) =>
  new ReplayChecks({
    recording: () => Promise.resolve(recording),
    version: (_entry, version) => Promise.resolve(versions[version]),
    prepare: () => v1,
    services: { logger: { isLevelEnabled: () => false, trace: () => undefined } },
    clock: systemClock,
    timers: realTimers,
    timeoutMs,
    maxConcurrent: 1,
  });

describe('replay check', () => {
  it('replays a trigger with effects and answers other nodes with effects from the recordings', async () => {
    calls.trigger = 0;
    calls.effect = 0;
    const result = await checks({ 1: v1 }).check(entry, { version: 1 });
    expect(result.status).toBe('COMPLETED');
    expect(result.nodes.map((node) => [node.nodeId, node.same, node.replayed])).toEqual([
      ['poll', true, 2],
      ['add', true, 2],
      ['call', true, 2],
    ]);
    expect(calls).toEqual({ trigger: 0, effect: 0 });
  });

  it('runs a changed pure node for real and notes the inputs a node with effects has no recording for', async () => {
    calls.effect = 0;
    const result = await checks({ 2: planOf(5) }).check(entry, { version: 2 });
    const [, add, call] = result.nodes;
    expect(add).toMatchObject({ same: false, recorded: 2, replayed: 2 });
    expect(
      add?.differences.map((difference) => [difference.recorded, difference.replayed]),
    ).toEqual([
      [2, 6],
      [3, 7],
    ]);
    expect(call).toMatchObject({ same: false, recorded: 2, replayed: 0 });
    expect(call?.differences[0]?.note).toContain('no recording for this input');
    expect(calls.effect).toBe(0);
  });

  it('ends a check that goes over its time TIMED_OUT, and still compares what it got', async () => {
    const result = await checks({ 2: hanging }, 50).check(entry, { version: 2 });
    expect(result).toMatchObject({ status: 'TIMED_OUT', error: 'Run deadline of 50 ms passed' });
    expect(result.nodes.map((node) => [node.nodeId, node.same])).toEqual([
      ['poll', true],
      ['add', true],
      ['call', false],
    ]);
  });

  it('refuses a check beyond those that may go at once with 409', async () => {
    const busy = checks({ 2: hanging }, 300);
    const first = busy.check(entry, { version: 2 });
    await expect(busy.check(entry, { version: 2 })).rejects.toThrow(
      "Execution 'e1' cannot be replay-checked: 1 replay checks are going already; try again when one ends",
    );
    expect((await first).status).toBe('TIMED_OUT');
  });
});
