// Payload sizes as `svc.limits.max-payload` and the memory budgets count them (docs/limits.md),
// and the limit applied where the engine emits a payload, under the node's onError.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../plugin-api/index.js';
import {
  chainOf as chain,
  createTestRun as harness,
  processorOf as processor,
  sourceOf as source,
} from '../testing/index.js';
import { payloadBytes } from './payload-size.js';

describe('payloadBytes', () => {
  it('counts about the JSON length of a payload, strings in UTF-16 code units', () => {
    for (const payload of [
      'abc',
      null,
      true,
      { a: 'x', list: ['yy', 'zzz'], nested: { b: null } },
      [],
      {},
    ]) {
      expect(payloadBytes(payload)).toBe(JSON.stringify(payload).length);
    }
    expect(payloadBytes(new Uint8Array(1000))).toBe(1000);
    expect(payloadBytes(undefined)).toBe(0);
  });

  it('stops counting once past the bound, so a cyclic payload counts just over it', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(payloadBytes(cyclic, 1000)).toBeGreaterThan(1000);
    expect(payloadBytes({ big: 'x'.repeat(5000), more: 'y'.repeat(5000) }, 1000)).toBeLessThan(
      6000,
    );
  });
});

describe('WorkflowRun: svc.limits.max-payload (docs/limits.md)', () => {
  const big = (m: Message) => ({ payload: { data: 'x'.repeat(2000), n: m.payload } });

  it('fails the node whose payload is over the limit, naming the setting and both sizes', async () => {
    const h = harness(
      { SRC: source([1]), BIG: processor(big) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'big', type: 'BIG' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'big', 'end'),
      { maxPayloadBytes: 1000 },
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'FAILED' });
    const node = h.node('big');
    expect(node).toMatchObject({ status: 'FAILURE', retries: 0, messagesOut: 0 });
    expect(node.error).toMatch(
      /^Payload of at least \d+ bytes is larger than svc\.limits\.max-payload \(1000 bytes\)$/,
    );
    expect(h.results.get('end')).toBeUndefined();
  });

  it('with onError SKIP drops only the message over the limit and goes on', async () => {
    const h = harness(
      {
        SRC: source([1, 2, 3]),
        SOME: processor((m) => (m.payload === 2 ? big(m) : { payload: m.payload })),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'some', type: 'SOME', config: { onError: 'SKIP' } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'some', 'end'),
      { maxPayloadBytes: 1000 },
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1, 3]);
    expect(h.node('some')).toMatchObject({ status: 'COMPLETED', skipped: 1, messagesOut: 2 });
  });

  it('with onError ERROR_PORT emits {error, message} on port error instead', async () => {
    const h = harness(
      { SRC: source([7]), BIG: processor(big) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'big', type: 'BIG', config: { onError: 'ERROR_PORT' } },
        { nodeId: 'errors', type: 'SINK' },
      ],
      [
        { source: 'src', target: 'big' },
        { source: 'big', target: 'errors', sourcePort: 'error' },
      ],
      { maxPayloadBytes: 1000 },
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    const payload = h.payloads('errors')[0] as { error: string; message: Message };
    expect(payload.error).toContain('svc.limits.max-payload (1000 bytes)');
    expect(payload.message.payload).toBe(7);
  });

  it('fails a source whose emitted payload is over the limit', async () => {
    const h = harness(
      { SRC: source(['x'.repeat(5000)]) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'end'),
      { maxPayloadBytes: 1000 },
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'FAILED' });
    expect(h.node('src').error).toBe(
      'Payload of at least 5002 bytes is larger than svc.limits.max-payload (1000 bytes)',
    );
  });
});
