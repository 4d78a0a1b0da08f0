import { describe, expect, it } from 'vitest';
import type { NodeContext } from '../../../plugin-api/index.js';
import { creditOf, MAX_CREDIT, mqttSubscribeConfigSchema } from './mqtt-subscribe.js';

const base = { url: 'mqtt://localhost:1883', topic: 'orders/#' };
const withCredit = (credit: number | undefined) => ({ credit }) as unknown as NodeContext;

describe('MQTT_SUBSCRIBE configuration', () => {
  it('needs a dead-letter topic for onFailure dead-letter', () => {
    const result = mqttSubscribeConfigSchema.safeParse({ ...base, onFailure: 'dead-letter' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['deadLetterTopic']);
    expect(
      mqttSubscribeConfigSchema.safeParse({
        ...base,
        onFailure: 'dead-letter',
        deadLetterTopic: 'orders/dead',
      }).success,
    ).toBe(true);
  });

  it('takes QoS 1 and 2 only: a QoS 0 message has no acknowledgement to withhold', () => {
    expect(mqttSubscribeConfigSchema.safeParse({ ...base, qos: 2 }).success).toBe(true);
    expect(mqttSubscribeConfigSchema.safeParse({ ...base, qos: 0 }).success).toBe(false);
  });

  it('keeps maxInFlight within what MQTT Receive Maximum can say', () => {
    expect(mqttSubscribeConfigSchema.safeParse({ ...base, maxInFlight: 65_535 }).success).toBe(
      true,
    );
    expect(mqttSubscribeConfigSchema.safeParse({ ...base, maxInFlight: 65_536 }).success).toBe(
      false,
    );
  });
});

describe('creditOf', () => {
  const config = mqttSubscribeConfigSchema.parse(base);

  it('asks the broker for no more than the graph below can take', () => {
    expect(creditOf(config, withCredit(196))).toBe(196);
  });

  it(`caps the graph's credit at ${MAX_CREDIT}, and takes maxInFlight as it is`, () => {
    expect(creditOf(config, withCredit(50_000))).toBe(MAX_CREDIT);
    expect(creditOf(config, withCredit(undefined))).toBe(MAX_CREDIT);
    expect(creditOf({ ...config, maxInFlight: 5000 }, withCredit(196))).toBe(5000);
  });
});
