// Nodes with `engine.placement`: their runtime comes from the placement port and the runner
// wraps it like any per-message plugin (SPEC "Node-level engine settings", engine.placement).
import { describe, expect, it } from 'vitest';
import { StepFailure } from '../../plugin-api/index.js';
import {
  chainOf as chain,
  createTestRun as harness,
  processorOf as processor,
  sourceOf as source,
  waitFor,
} from '../testing/index.js';
import type { NodePlacement, PlacedNode } from './run-ports.js';

describe('WorkflowRun: placed nodes (SPEC Node-level engine settings, engine.placement)', () => {
  it('takes a placed node runtime from the placement port, with its configuration unresolved, and closes it when the node ends', async () => {
    const placed: PlacedNode[] = [];
    let closed = 0;
    const placement: NodePlacement = {
      runtimeFor: (node) => {
        placed.push(node);
        return {
          process: (m) => ({ payload: `${String(m.payload)} on ${node.pool}` }),
          close: () => {
            closed++;
          },
        };
      },
    };
    const h = harness(
      { SRC: source(['a', 'b']), WORK: processor(() => ({ payload: 'here' })) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'work', type: 'WORK', config: { x: '${env.X}', engine: { placement: 'gpu' } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'work', 'end'),
      {
        placement,
        // Resolving here would fail the node: a placed node's configuration is not resolved here.
        resolveConfig: (config) =>
          'x' in config
            ? { ok: false, error: 'resolved on the control plane' }
            : { ok: true, config },
      },
    );
    h.run.start();
    await expect(h.run.done).resolves.toEqual({ status: 'COMPLETED', error: null });
    expect(h.payloads('end')).toEqual(['a on gpu', 'b on gpu']);
    expect(placed).toMatchObject([
      {
        executionId: 'e1',
        sessionId: 's1',
        workflowId: 'w',
        nodeId: 'work',
        type: 'WORK',
        pool: 'gpu',
        config: { x: '${env.X}', engine: { placement: 'gpu' } },
      },
    ]);
    expect(closed).toBe(1);
  });

  it('retries a placed node whose runtime fails retryably, as for a local one (engine.retry waits for a worker)', async () => {
    let attempts = 0;
    const placement: NodePlacement = {
      runtimeFor: () => ({
        process: (m) => {
          attempts++;
          if (m.headers.attempt < 3) throw StepFailure.retryable('no worker yet');
          return { payload: m.headers.attempt };
        },
      }),
    };
    const h = harness(
      { SRC: source([1]), WORK: processor(() => undefined) },
      [
        { nodeId: 'src', type: 'SRC' },
        {
          nodeId: 'work',
          type: 'WORK',
          config: { engine: { placement: 'gpu', retry: { maxAttempts: 3 } } },
        },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'work', 'end'),
      { placement },
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(attempts).toBe(3);
    expect(h.payloads('end')).toEqual([3]);
    expect(h.node('work').retries).toBe(2);
  });

  it('aborts the signal of a placed call when the run stops', async () => {
    let aborted = false;
    const placement: NodePlacement = {
      runtimeFor: () => ({
        process: (_m, ctx) =>
          new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('cancelled'));
            });
          }),
      }),
    };
    const h = harness(
      { SRC: source([1]), WORK: processor(() => undefined) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'work', type: 'WORK', config: { engine: { placement: 'gpu' } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'work', 'end'),
      { placement },
    );
    h.run.start();
    await waitFor(() => h.node('work').messagesIn === 1, 'the placed call');
    h.run.stop();
    await expect(h.run.done).resolves.toMatchObject({ status: 'STOPPED' });
    expect(aborted).toBe(true);
    expect(h.node('work').status).toBe('STOPPED');
  });
});
