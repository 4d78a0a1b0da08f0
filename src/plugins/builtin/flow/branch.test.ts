import { describe, expect, it } from 'vitest';
import { message, processAll } from '../../testing/index.js';
import { branchPlugin } from './branch.js';

const runtime = branchPlugin.create!(
  branchPlugin.configSchema.parse({
    cases: [
      { name: 'big', expression: 'n > 100' },
      { name: 'positive', expression: 'n > 0' },
      { name: 'never', expression: '$error("not evaluated")' },
    ],
  }),
  { nodeId: 'n', settings: undefined },
);

describe('BRANCH', () => {
  it('sends each message to the port named by the first case whose expression is true (CONTRACT 2: BRANCH)', async () => {
    const payload = { n: 500 };
    const emits = await processAll(runtime, [message(payload), message({ n: 5 })]);
    expect(emits).toEqual([
      { payload, port: 'big' },
      { payload: { n: 5 }, port: 'positive' },
    ]);
    expect(emits[0]?.payload).toBe(payload);
  });

  it('sends a message no case matches to default (CONTRACT 2: BRANCH)', async () => {
    const other = branchPlugin.create!(
      branchPlugin.configSchema.parse({ cases: [{ name: 'big', expression: 'n > 100' }] }),
      { nodeId: 'n', settings: undefined },
    );
    expect(await processAll(other, [message({ n: 1 })])).toEqual([
      { payload: { n: 1 }, port: 'default' },
    ]);
  });

  it('evaluates later cases only while no earlier case matched', async () => {
    const failing = processAll(runtime, [message({ n: -1 })]);
    await expect(failing).rejects.toThrow('not evaluated');
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });
});
