// A worker's runtimes without a connection: which types it runs, one runtime per node,
// cancellation and closing (docs/workers.md, "Placement", "Cancellation").
import { describe, expect, it } from 'vitest';
import { createConfigResolver, defaultSettings } from '../config/index.js';
import { definePlugin, z } from '../plugin-api/index.js';
import type { NodeContext } from '../plugin-api/index.js';
import { createPluginRegistry, pluginEntry } from '../plugins/index.js';
import type { OpenMessage, WorkerMessage } from './protocol.js';
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
    configSchema: z.looseObject({ hang: z.boolean().optional() }),
    outputPorts: () => ['out'],
    create: (config) => {
      probe.created++;
      return {
        process: (message, ctx) => {
          probe.contexts.push(ctx);
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
  const sent: WorkerMessage[] = [];
  const send = (message: WorkerMessage): void => {
    sent.push(message);
  };
  return { host, probe, sent, send, lines };
}

const open = (
  node: string,
  nodeType: string,
  config: Record<string, unknown> = {},
): OpenMessage => ({
  type: 'open',
  node,
  executionId: 'e1',
  sessionId: 's1',
  workflowId: 'w1',
  nodeId: `node-${node}`,
  nodeType,
  config,
});

const processing = (call: string, node: string, payload: unknown = 1) =>
  ({
    type: 'process',
    call,
    node,
    message: { id: `m-${call}`, headers: { attempt: 1 }, payload },
  }) as const;

/** Lets the promise callbacks of a call run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkerHost (SPEC: a worker runs only the plugin types in its own svc.workers.plugin-types)', () => {
  it('refuses to run a plugin type outside its svc.workers.plugin-types, even when asked, without retry', () => {
    const { host, sent, send } = setup(['PROBE']);
    host.open(open('n1', 'MAPPER', { mode: 'PROJECTION', expression: '$' }));
    host.process(processing('c1', 'n1'), send);
    expect(sent).toEqual([
      {
        type: 'failed',
        call: 'c1',
        error: "This worker does not run plugin type 'MAPPER' (svc.workers.plugin-types)",
        retryable: false,
      },
    ]);
  });

  it('keeps one runtime per (execution, node) for all its messages and closes it when the control plane closes the node', async () => {
    const { host, probe, sent, send } = setup(['PROBE']);
    host.open(open('n1', 'PROBE'));
    host.process(processing('c1', 'n1', 'a'), send);
    host.process(processing('c2', 'n1', 'b'), send);
    await settle();
    expect(sent).toEqual([
      { type: 'result', call: 'c1', emits: [{ payload: ['a', 1] }] },
      { type: 'result', call: 'c2', emits: [{ payload: ['b', 1] }] },
    ]);
    expect(probe.created).toBe(1);
    expect(host.openNodes).toBe(1);
    await host.close('n1');
    expect(probe.closed).toBe(1);
    expect(host.openNodes).toBe(0);
  });

  it('answers every emit of a stream in one reply (a SPLITTER of a long array)', async () => {
    const { host, sent, send } = setup(['SPLITTER']);
    host.open(open('n1', 'SPLITTER'));
    const items = Array.from({ length: 100 }, (_, index) => index);
    host.process(processing('c1', 'n1', items), send);
    await settle();
    expect(sent).toEqual([
      {
        type: 'result',
        call: 'c1',
        emits: items.map((payload, index) => ({ payload, headers: { index, count: 100 } })),
      },
    ]);
  });

  it('aborts the signal a plugin sees when its call is cancelled, and answers nothing for it', async () => {
    const { host, probe, sent, send } = setup(['PROBE']);
    host.open(open('n1', 'PROBE', { hang: true }));
    host.process(processing('c1', 'n1'), send);
    expect(host.runningCalls).toBe(1);
    host.cancel('c1');
    await settle();
    expect(probe.contexts[0]?.signal.aborted).toBe(true);
    expect(host.runningCalls).toBe(0);
    expect(sent).toEqual([]);
  });

  it('fails each message of a node whose placeholder the worker refuses, without retry', () => {
    const { host, sent, send } = setup(['PROBE']);
    host.open(open('n1', 'PROBE', { secret: '${env.SVC_SECRET_THING}' }));
    host.process(processing('c1', 'n1'), send);
    expect(sent[0]).toMatchObject({ type: 'failed', call: 'c1', retryable: false });
    expect((sent[0] as { error: string }).error).toMatch(/SVC_SECRET_THING/);
  });
});
