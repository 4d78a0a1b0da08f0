import { describe, expect, it } from 'vitest';
import { message, processAll } from '../../testing/index.js';
import { recipientListPlugin } from './recipient-list.js';

function runtimeOf(expression?: string) {
  const config = { recipients: ['audit', 'mail', 'sms'], ...(expression && { expression }) };
  return recipientListPlugin.create!(recipientListPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  });
}

describe('RECIPIENT_LIST', () => {
  it('sends each message to every recipient port, in order, when there is no expression', async () => {
    const payload = { id: 1 };
    const emits = await processAll(runtimeOf(), [message(payload)]);
    expect(emits).toEqual([
      { payload, port: 'audit' },
      { payload, port: 'mail' },
      { payload, port: 'sms' },
    ]);
    expect(emits.every((emit) => emit.payload === payload)).toBe(true);
  });

  it('sends each message to the recipient or recipients the expression names', async () => {
    const runtime = runtimeOf('to');
    expect(await processAll(runtime, [message({ to: 'sms' })])).toEqual([
      { payload: { to: 'sms' }, port: 'sms' },
    ]);
    expect(await processAll(runtime, [message({ to: ['mail', 'audit', 'mail'] })])).toEqual([
      { payload: { to: ['mail', 'audit', 'mail'] }, port: 'mail' },
      { payload: { to: ['mail', 'audit', 'mail'] }, port: 'audit' },
    ]);
  });

  it('sends a message nowhere when the expression names no recipient', async () => {
    expect(await processAll(runtimeOf('to'), [message({})])).toEqual([]);
    expect(await processAll(runtimeOf('to'), [message({ to: [] })])).toEqual([]);
  });

  it('fails a message, without retry, when the expression names an unknown recipient', async () => {
    const failing = processAll(runtimeOf('to'), [message({ to: ['mail', 'fax'] })]);
    await expect(failing).rejects.toThrow(
      "'fax' is not a recipient of this node; its recipients are audit, mail, sms",
    );
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });

  it('fails a message, without retry, when the expression yields something other than names', async () => {
    const failing = processAll(runtimeOf('to'), [message({ to: 3 })]);
    await expect(failing).rejects.toThrow(
      'The recipient expression must yield names (strings), got 3',
    );
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });
});
