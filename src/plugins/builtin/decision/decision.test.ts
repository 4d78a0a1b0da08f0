// The decision types (optional plugin decision): SCORE, ANOMALY, GATE, CLASSIFY, ASK, DEDUPE.
import { describe, expect, it } from 'vitest';
import { StepFailure } from '../../../plugin-api/index.js';
import type { Emit, SignalRequest } from '../../../plugin-api/index.js';
import { createTestContext, message, processAll, runtimeOf } from '../../testing/index.js';
import { anomalyPlugin } from './anomaly.js';
import { askPlugin } from './ask.js';
import { classifyPlugin } from './classify.js';
import { dedupePlugin } from './dedupe.js';
import { gatePlugin } from './gate.js';
import { scorePlugin } from './score.js';

const payloads = (emits: readonly Emit[]) => emits.map((emit) => emit.payload);

describe('SCORE', () => {
  it('adds the score to an object payload, and wraps any other payload as { value, score }', async () => {
    const score = runtimeOf(scorePlugin, { expression: 'amount * 2' });
    expect(payloads(await processAll(score, [message({ amount: 3, id: 'a' })]))).toEqual([
      { amount: 3, id: 'a', score: 6 },
    ]);
    const length = runtimeOf(scorePlugin, { expression: '$length($)' });
    expect(payloads(await processAll(length, [message('four')]))).toEqual([
      { value: 'four', score: 4 },
    ]);
  });

  it('fails a message whose score is not a number, without retry', async () => {
    const failing = processAll(runtimeOf(scorePlugin, { expression: 'name' }), [
      message({ name: 'x' }),
    ]);
    await expect(failing).rejects.toThrow('SCORE expression \'name\' gave "x", not a number');
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });
});

describe('ANOMALY', () => {
  it('flags a value more than threshold standard deviations from the mean of the values before it', async () => {
    const anomaly = runtimeOf(anomalyPlugin, { field: 'reading.value', threshold: 2 });
    const values = [10, 11, 9, 10, 11, 9, 10, 30, 10];
    const emits = await processAll(
      anomaly,
      values.map((value) => message({ reading: { value } })),
    );
    const flags = emits.map((emit) => (emit.payload as { anomaly: boolean }).anomaly);
    expect(flags).toEqual([false, false, false, false, false, false, false, true, false]);
    const spike = emits[7]?.payload as { zScore: number; reading: unknown };
    expect(spike.zScore).toBeGreaterThan(2);
    expect(spike.reading).toEqual({ value: 30 });
    // Before minSamples (5) values nothing is judged.
    expect(emits.map((emit) => (emit.payload as { zScore: unknown }).zScore === null)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('takes the value from an expression, flags any change of a constant stream, and fails a non-number', async () => {
    const anomaly = runtimeOf(anomalyPlugin, { expression: '$', minSamples: 2 });
    const emits = await processAll(
      anomaly,
      [5, 5, 5, 6].map((value) => message(value)),
    );
    expect(payloads(emits)).toEqual([
      { value: 5, anomaly: false, zScore: null },
      { value: 5, anomaly: false, zScore: null },
      { value: 5, anomaly: false, zScore: null },
      { value: 6, anomaly: true, zScore: null },
    ]);
    const failing = processAll(runtimeOf(anomalyPlugin, { field: 'v' }), [message({ v: 'x' })]);
    await expect(failing).rejects.toBeInstanceOf(StepFailure);
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });
});

describe('GATE', () => {
  it('sends a message to pass when the expression is true and to block otherwise, unchanged', async () => {
    const gate = runtimeOf(gatePlugin, { expression: 'score >= 0.5' });
    const emits = await processAll(gate, [message({ score: 0.7 }), message({ score: 0.1 })]);
    expect(emits).toEqual([
      { payload: { score: 0.7 }, port: 'pass' },
      { payload: { score: 0.1 }, port: 'block' },
    ]);
  });
});

describe('CLASSIFY', () => {
  it('labels a message with the first class that matches and sends it to that port, else to default', async () => {
    const classify = runtimeOf(classifyPlugin, {
      classes: [
        { name: 'urgent', expression: 'priority > 8' },
        { name: 'normal', expression: 'priority > 3' },
      ],
    });
    const emits = await processAll(classify, [
      message({ priority: 9 }),
      message({ priority: 5 }),
      message({ priority: 1 }),
    ]);
    expect(emits).toEqual([
      { payload: { priority: 9, class: 'urgent' }, port: 'urgent' },
      { payload: { priority: 5, class: 'normal' }, port: 'normal' },
      { payload: { priority: 1, class: 'default' }, port: 'default' },
    ]);
  });
});

describe('DEDUPE', () => {
  it('passes only the first message of each key', async () => {
    const dedupe = runtimeOf(dedupePlugin, { key: 'orderId' });
    const emits = await processAll(dedupe, [
      message({ orderId: 1, n: 'a' }),
      message({ orderId: 2, n: 'b' }),
      message({ orderId: 1, n: 'c' }),
    ]);
    expect(payloads(emits)).toEqual([
      { orderId: 1, n: 'a' },
      { orderId: 2, n: 'b' },
    ]);
  });

  it('keys by the whole payload by default, and passes a key again once ttlMs has passed on the run clock', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const dedupe = runtimeOf(dedupePlugin, { ttlMs: 1000 });
    const pass = async (payload: unknown) =>
      payloads(await processAll(dedupe, [message(payload)], ctx));
    expect(await pass({ a: 1 })).toEqual([{ a: 1 }]);
    expect(await pass({ a: 1 })).toEqual([]);
    expect(await pass('1')).toEqual(['1']);
    expect(await pass(1)).toEqual([1]);
    await ctx.advance(999);
    expect(await pass({ a: 1 })).toEqual([]);
    await ctx.advance(1);
    expect(await pass({ a: 1 })).toEqual([{ a: 1 }]);
  });
});

describe('ASK', () => {
  it('puts the rendered question as a pending approval and emits the answer with what it was about', async () => {
    const asked: SignalRequest[] = [];
    const ctx = createTestContext({
      signal: (request) => {
        asked.push(request);
        return Promise.resolve({ approved: true, payload: 'ship friday', comment: 'ok' });
      },
    });
    const ask = runtimeOf(askPlugin, { question: 'When do we ship {{name}}?', timeoutSeconds: 60 });
    const [emit] = await processAll(
      ask,
      [{ id: 'm-1', payload: { name: 'v2' }, headers: { attempt: 1 } }],
      ctx,
    );
    expect(asked).toEqual([
      {
        messageId: 'm-1',
        payload: { name: 'v2' },
        prompt: 'When do we ship v2?',
        timeoutMs: 60_000,
      },
    ]);
    expect(emit?.payload).toEqual({
      question: 'When do we ship v2?',
      answer: 'ship friday',
      approved: true,
      comment: 'ok',
      payload: { name: 'v2' },
    });
  });

  it('takes the comment as the answer when the signal carries no payload, also for a rejection', async () => {
    const ctx = createTestContext({
      signal: () => Promise.resolve({ approved: false, comment: 'not yet' }),
    });
    const [emit] = await processAll(runtimeOf(askPlugin, { prompt: 'Go?' }), [message(1)], ctx);
    expect(emit?.payload).toMatchObject({ answer: 'not yet', approved: false, question: 'Go?' });
  });
});
