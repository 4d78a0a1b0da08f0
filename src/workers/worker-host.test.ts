// A worker's runtimes without a connection: which types it runs, one runtime per node,
// cancellation and closing (docs/workers.md, "Placement", "Cancellation").
import { describe, expect, it } from 'vitest';
import { createConfigResolver, defaultSettings } from '../config/index.js';
import { definePlugin, z } from '../plugin-api/index.js';
import type { NodeContext } from '../plugin-api/index.js';
import { createPluginRegistry, pluginEntry } from '../plugins/index.js';
import { fromWireEmit, toWireMessage } from './wire.js';
import type { OpenFrame, WorkerFrame } from './wire.js';
import { WorkerHost } from './worker-host.js';

interface Probe {
  created: number;
  closed: number;
  contexts: NodeContext[];
}

function setup(pluginTypes: readonly string[]) {
  const probe: Probe = { created: 0, closed: 0, contexts: [] };
  const probePlugin = definePlugin({
    type: 'PROBE',
    kind: 'processor',
    description: 'Counts its runtimes and waits for its signal when told to.',
    configSchema: z.looseObject({ hang: z.boolean().optional(), echo: z.boolean().optional() }),
    outputPorts: () => ['out'],
    create: (config) => {
      probe.created++;
      return {
        process: (message, ctx) => {
          probe.contexts.push(ctx);
          if (config.echo === true) return { payload: message.payload };
          if (config.hang !== true) return { payload: [message.payload, probe.created] };
          return new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => {
              reject(new Error('aborted'));
            });
          });
        },
        close: () => {
          probe.closed++;
        },
      };
    },
  });
  const settings = defaultSettings('dev');
  const lines: Record<string, unknown>[] = [];
  const log = (fields: object, message: string): void => {
    lines.push({ ...fields, msg: message });
  };
  const host = new WorkerHost({
    catalog: createPluginRegistry({
      settings,
      optionalPlugins: [],
      extraPlugins: [pluginEntry(probePlugin)],
    }),
    pluginTypes: new Set(pluginTypes),
    resolveConfig: createConfigResolver({ env: {}, settings }),
    logger: { trace: log, debug: log, info: log, warn: log, error: log },
  });
  const frames: WorkerFrame[] = [];
  const send = (frame: WorkerFrame): void => {
    frames.push(frame);
  };
  /** The answers sent, with their emits decoded; credits are counted apart. */
  const answers = (): unknown[] =>
    frames.flatMap((frame): unknown[] => {
      if ('result' in frame) {
        return [{ result: { ...frame.result, emits: frame.result.emits.map(fromWireEmit) } }];
      }
      return 'credit' in frame ? [] : [frame];
    });
  const credits = () =>
    frames.reduce((total, frame) => total + ('credit' in frame ? frame.credit.count : 0), 0);
  return { host, probe, answers, credits, send, lines };
}

const open = (node: string, nodeType: string, config: Record<string, unknown> = {}): OpenFrame => ({
  node,
  executionId: 'e1',
  sessionId: 's1',
  workflowId: 'w1',
  nodeId: `node-${node}`,
  nodeType,
  configJson: JSON.stringify(config),
});

const processing = (call: string, node: string, payload: unknown = 1) => ({
  call,
  node,
  message: toWireMessage({ id: `m-${call}`, headers: { attempt: 1 }, payload }),
});

/** Lets the promise callbacks of a call run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkerHost (SPEC: a worker runs only the plugin types in its own svc.workers.plugin-types)', () => {
  it('refuses to run a plugin type outside its svc.workers.plugin-types, even when asked, without retry', () => {
    const { host, answers, credits, send } = setup(['PROBE']);
    host.open(open('n1', 'MAPPER', { mode: 'PROJECTION', expression: '$' }));
    host.process(processing('c1', 'n1'), send);
    expect(answers()).toEqual([
      {
        failed: {
          call: 'c1',
          error: "This worker does not run plugin type 'MAPPER' (svc.workers.plugin-types)",
          retryable: false,
        },
      },
    ]);
    expect(credits()).toBe(1);
  });

  it('keeps one runtime per (execution, node) for all its messages and closes it when the control plane closes the node', async () => {
    const { host, probe, answers, credits, send } = setup(['PROBE']);
    host.open(open('n1', 'PROBE'));
    host.process(processing('c1', 'n1', 'a'), send);
    host.process(processing('c2', 'n1', 'b'), send);
    await settle();
    expect(answers()).toEqual([
      { result: { call: 'c1', emits: [{ payload: ['a', 1] }] } },
      { result: { call: 'c2', emits: [{ payload: ['b', 1] }] } },
    ]);
    expect(credits()).toBe(2);
    expect(probe.created).toBe(1);
    expect(host.openNodes).toBe(1);
    await host.close('n1');
    expect(probe.closed).toBe(1);
    expect(host.openNodes).toBe(0);
  });

  it('answers every emit of a stream in one reply (a SPLITTER of a long array)', async () => {
    const { host, answers, send } = setup(['SPLITTER']);
    host.open(open('n1', 'SPLITTER'));
    const items = Array.from({ length: 100 }, (_, index) => index);
    host.process(processing('c1', 'n1', items), send);
    await settle();
    expect(answers()).toEqual([
      {
        result: {
          call: 'c1',
          emits: items.map((payload, index) => ({ payload, headers: { index, count: 100 } })),
        },
      },
    ]);
  });

  it('aborts the signal a plugin sees when its call is cancelled, answers nothing for it and gives its credit back', async () => {
    const { host, probe, answers, credits, send } = setup(['PROBE']);
    host.open(open('n1', 'PROBE', { hang: true }));
    host.process(processing('c1', 'n1'), send);
    expect(host.runningCalls).toBe(1);
    host.cancel('c1');
    await settle();
    expect(probe.contexts[0]?.signal.aborted).toBe(true);
    expect(host.runningCalls).toBe(0);
    expect(answers()).toEqual([]);
    expect(credits()).toBe(1);
  });

  it('fails each message of a node whose placeholder the worker refuses, without retry', () => {
    const { host, answers, send } = setup(['PROBE']);
    host.open(open('n1', 'PROBE', { secret: '${env.SVC_SECRET_THING}' }));
    host.process(processing('c1', 'n1'), send);
    expect(answers()).toEqual([
      {
        failed: { call: 'c1', error: expect.stringMatching(/SVC_SECRET_THING/), retryable: false },
      },
    ]);
  });

  it('carries a byte payload as bytes and gives a call whose node closes its credit back', async () => {
    const { host, probe, answers, credits, send } = setup(['PROBE']);
    host.open(open('n1', 'PROBE', { echo: true }));
    host.process(processing('c1', 'n1', Buffer.from([1, 2, 3])), send);
    await settle();
    expect(answers()).toEqual([
      { result: { call: 'c1', emits: [{ payload: Buffer.from([1, 2, 3]) }] } },
    ]);
    host.open(open('n2', 'PROBE', { hang: true }));
    host.process(processing('c2', 'n2'), send);
    await host.close('n2');
    expect(probe.contexts[1]?.signal.aborted).toBe(true);
    expect(credits()).toBe(2);
  });
});
