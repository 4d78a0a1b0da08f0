// The control plane's registry of workers with in-memory links: placement by pool, type and
// free slot, calls, cancellation and workers leaving (docs/workers.md, "Placement").
import { describe, expect, it } from 'vitest';
import { ManualClock, createSequentialIds } from '../core/index.js';
import type { PlacedNode } from '../engine/index.js';
import { StepFailure } from '../plugin-api/index.js';
import type { Message } from '../plugin-api/index.js';
import { createTestContext } from '../plugins/testing/index.js';
import { fromWireMessage } from './wire.js';
import type { ControlFrame, RegisterFrame } from './wire.js';
import { WorkerRegistry } from './worker-registry.js';

interface FakeLink {
  readonly sent: ControlFrame[];
  closed: string | null;
}

function setup() {
  const clock = new ManualClock();
  const registry = new WorkerRegistry({ clock, ids: createSequentialIds('w') });
  const links = new Map<string, FakeLink>();
  const connect = (hello: Partial<RegisterFrame> & { name: string }): string => {
    const link: FakeLink = { sent: [], closed: null };
    const id = registry.add(
      { pool: 'gpu', slots: 2, pluginTypes: ['MAPPER'], credits: 8, ...hello },
      {
        send: (message) => link.sent.push(message),
        close: (reason) => (link.closed = reason),
      },
      { address: '127.0.0.1:1', secure: false },
    );
    links.set(hello.name, link);
    return id;
  };
  const link = (name: string): FakeLink => {
    const found = links.get(name);
    if (found === undefined) throw new Error(`no link ${name}`);
    return found;
  };
  return { clock, registry, connect, link };
}

const node = (overrides: Partial<PlacedNode> = {}): PlacedNode => ({
  executionId: 'e1',
  sessionId: 's1',
  workflowId: 'w1',
  nodeId: 'map',
  type: 'MAPPER',
  pool: 'gpu',
  config: { mode: 'TEMPLATE', template: '${env.WHERE}' },
  startPayload: { start: true },
  ...overrides,
});

const message = (id = 'm1'): Message => ({ id, headers: { attempt: 1 }, payload: { n: 1 } });

/** The kind of each frame a link carried. */
const kinds = (sent: readonly ControlFrame[]): string[] =>
  sent.map((frame) => Object.keys(frame)[0] ?? '');

/** The call id of the last `process` a link carried. */
function lastCall(sent: readonly ControlFrame[]): string {
  const found = sent.findLast((entry) => 'process' in entry);
  if (found === undefined || !('process' in found)) throw new Error('no process frame');
  return found.process.call;
}

describe('WorkerRegistry placement (SPEC engine.placement; Errors, process-level failures)', () => {
  it('fails a message retryably with the SPEC message when no worker of the pool serves the type with a free slot', async () => {
    const { registry, connect } = setup();
    connect({ name: 'other-pool', pool: 'cpu' });
    connect({ name: 'other-type', pluginTypes: ['FILTER'] });
    connect({ name: 'full', slots: 1 });
    const holder = registry.runtimeFor(node({ nodeId: 'holder' }));
    void holder.process(message(), createTestContext());
    const runtime = registry.runtimeFor(node());
    const failure = await Promise.resolve(runtime.process(message(), createTestContext())).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StepFailure);
    expect(failure).toMatchObject({
      retryable: true,
      message: "No connected worker in pool 'gpu' serves plugin type 'MAPPER' with a free slot",
    });
  });

  it('opens a node on a worker of its pool that serves its type, with its configuration as written, and holds one slot until the node ends', async () => {
    const { registry, connect, link } = setup();
    connect({ name: 'a' });
    const runtime = registry.runtimeFor(node());
    const first = runtime.process(message('m1'), createTestContext());
    expect(registry.freeSlots).toBe(1);
    const sent = link('a').sent;
    expect(sent[0]).toEqual({
      open: {
        node: 'n1',
        executionId: 'e1',
        sessionId: 's1',
        workflowId: 'w1',
        nodeId: 'map',
        nodeType: 'MAPPER',
        configJson: JSON.stringify({ mode: 'TEMPLATE', template: '${env.WHERE}' }),
        startPayload: { json: '{"start":true}' },
      },
    });
    const processed = sent[1];
    if (processed === undefined || !('process' in processed)) throw new Error('no process');
    expect(processed.process.node).toBe('n1');
    expect(fromWireMessage(processed.process.message)).toEqual(message('m1'));
    registry.receive('w-1', {
      result: {
        call: lastCall(sent),
        emits: [{ payload: { json: '"done"' }, port: 'out', headersJson: '' }],
      },
    });
    await expect(first).resolves.toEqual([{ payload: 'done', port: 'out' }]);

    const second = runtime.process(message('m2'), createTestContext());
    registry.receive('w-1', { result: { call: lastCall(sent), emits: [] } });
    await expect(second).resolves.toEqual([]);
    // The node stayed where its runtime is: opened once.
    expect(kinds(sent).filter((kind) => kind === 'open')).toHaveLength(1);
    await runtime.close?.();
    expect(sent.at(-1)).toEqual({ close: { node: 'n1' } });
    expect(registry.freeSlots).toBe(2);
  });

  it('places a node on the worker of its pool with the most free slots', () => {
    const { registry, connect, link } = setup();
    connect({ name: 'small', slots: 1 });
    connect({ name: 'large', slots: 3 });
    void registry.runtimeFor(node()).process(message(), createTestContext());
    expect(kinds(link('large').sent)[0]).toBe('open');
    expect(link('small').sent).toEqual([]);
  });

  it('fails a call the worker failed, retryably or not as the worker says', async () => {
    const { registry, connect, link } = setup();
    connect({ name: 'a' });
    const runtime = registry.runtimeFor(node());
    const bad = runtime.process(message(), createTestContext());
    registry.receive('w-1', {
      failed: {
        call: lastCall(link('a').sent),
        error: "Command 'rm' is not in svc.process.allowed-commands",
        retryable: false,
      },
    });
    await expect(bad).rejects.toMatchObject({
      retryable: false,
      message: "Command 'rm' is not in svc.process.allowed-commands",
    });
  });

  it('cancels a call on its worker and fails it at once when its signal aborts', async () => {
    const { registry, connect, link } = setup();
    connect({ name: 'a' });
    const ctx = createTestContext();
    const call = registry.runtimeFor(node()).process(message(), ctx);
    const callId = lastCall(link('a').sent);
    ctx.abort(new Error('Stopped'));
    await expect(call).rejects.toThrow('Stopped');
    expect(link('a').sent.at(-1)).toEqual({ cancel: { call: callId } });
    // A late answer finds nobody waiting.
    registry.receive('w-1', { result: { call: callId, emits: [] } });
  });

  it('fails the calls of a worker that leaves retryably and moves the node to another worker for its next message', async () => {
    const { registry, connect, link } = setup();
    connect({ name: 'a' });
    const runtime = registry.runtimeFor(node());
    const call = runtime.process(message(), createTestContext());
    connect({ name: 'b' });
    registry.remove('w-1', 'connection reset');
    await expect(call).rejects.toMatchObject({
      retryable: true,
      message: "Worker 'a' left while processing the message: connection reset",
    });
    expect(registry.connected).toBe(1);
    void runtime.process(message('m2'), createTestContext());
    expect(kinds(link('b').sent)).toEqual(['open', 'process']);
  });

  it('counts what a worker reports for a call in the context of that call', () => {
    const { registry, connect, link } = setup();
    connect({ name: 'a' });
    const ctx = createTestContext();
    void registry.runtimeFor(node()).process(message(), ctx);
    const callId = lastCall(link('a').sent);
    registry.receive('w-1', { report: { call: callId, event: 'process.run', outcome: 'ok' } });
    registry.receive('w-1', {
      meter: { call: callId, kind: 'COUNT', name: 'llm.cost', value: 2, tags: { provider: 'p' } },
    });
    expect(ctx.reports).toEqual(['process.run:ok']);
    expect(ctx.meterCalls).toEqual([
      { kind: 'count', name: 'llm.cost', value: 2, tags: { provider: 'p' } },
    ]);
  });

  it('sends no more calls than the worker granted credits for, and sends the next one when credit comes back; a call cancelled while it waits never reaches the worker', async () => {
    const { registry, connect, link } = setup();
    connect({ name: 'a', slots: 3, credits: 1 });
    const runtimes = [1, 2, 3].map((n) => registry.runtimeFor(node({ nodeId: `n${n}` })));
    const first = runtimes[0]?.process(message('m1'), createTestContext());
    const waiting = createTestContext();
    const second = runtimes[1]?.process(message('m2'), waiting);
    const third = runtimes[2]?.process(message('m3'), createTestContext());
    expect(kinds(link('a').sent)).toEqual(['open', 'process', 'open', 'open']);
    expect(registry.inFlight('w-1')).toEqual({ sent: 1, waiting: 2 });
    waiting.abort(new Error('Stopped'));
    await expect(second).rejects.toThrow('Stopped');
    registry.receive('w-1', { result: { call: lastCall(link('a').sent), emits: [] } });
    await expect(first).resolves.toEqual([]);
    expect(kinds(link('a').sent)).toHaveLength(4);
    registry.receive('w-1', { credit: { count: 1 } });
    // The cancelled call was skipped: the third goes, and no cancel was sent for the second.
    const sent = link('a').sent;
    expect(kinds(sent)).toEqual(['open', 'process', 'open', 'open', 'process']);
    const last = sent.at(-1);
    if (last === undefined || !('process' in last)) throw new Error('no process');
    expect(fromWireMessage(last.process.message).id).toBe('m3');
    registry.receive('w-1', { result: { call: last.process.call, emits: [] } });
    await expect(third).resolves.toEqual([]);
  });
});

describe('WorkerRegistry view (CONTRACT 4 GET /api/workers)', () => {
  it('lists workers and pools with their slots and free slots', () => {
    const { registry, connect } = setup();
    connect({ name: 'a', slots: 2, pluginTypes: ['PROCESS_EXECUTOR', 'MAPPER'] });
    connect({ name: 'b', slots: 3, pool: 'cpu' });
    void registry.runtimeFor(node()).process(message(), createTestContext());
    const view = registry.view();
    expect(view.accepting).toBe(false);
    expect(view.workers).toEqual([
      {
        workerId: 'w-1',
        name: 'a',
        pool: 'gpu',
        pluginTypes: ['MAPPER', 'PROCESS_EXECUTOR'],
        slots: 2,
        freeSlots: 1,
        address: '127.0.0.1:1',
        secure: false,
        connectedAt: '2026-01-01T00:00:00.000Z',
        lastSeenAt: '2026-01-01T00:00:00.000Z',
      },
      expect.objectContaining({ workerId: 'w-2', name: 'b', pool: 'cpu', freeSlots: 3 }),
    ]);
    expect(view.pools).toEqual([
      { pool: 'cpu', workers: 1, slots: 3, freeSlots: 3, pluginTypes: ['MAPPER'] },
      {
        pool: 'gpu',
        workers: 1,
        slots: 2,
        freeSlots: 1,
        pluginTypes: ['MAPPER', 'PROCESS_EXECUTOR'],
      },
    ]);
    expect(registry.connected).toBe(2);
    expect(registry.freeSlots).toBe(4);
  });
});
