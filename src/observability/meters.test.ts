import { describe, expect, it } from 'vitest';
import { METER_CATALOGUE, Meters } from './meters.js';

describe('Meters (SPEC Meters)', () => {
  it('registers every meter of SPEC with its tags', async () => {
    const meters = new Meters();
    const names = (await meters.registry.getMetricsAsJSON()).map((metric) => metric.name);
    expect(names).toHaveLength(METER_CATALOGUE.length);
    expect(names).toContain('svc_node_executions');
    expect(names).toContain('svc_node_duration_seconds');
  });

  it('counts by tags and reads sums over the tags given', async () => {
    const meters = new Meters();
    meters.count('svc.node.executions', { module: 'MAPPER', status: 'COMPLETED' });
    meters.count('svc.node.executions', { module: 'MAPPER', status: 'FAILURE' });
    meters.count('svc.node.executions', { module: 'FILTER', status: 'COMPLETED' }, 2);
    expect(await meters.read('svc.node.executions', { module: 'MAPPER' })).toBe(2);
    expect(await meters.read('svc.node.executions', { status: 'COMPLETED' })).toBe(3);
    expect(await meters.read('svc.node.executions')).toBe(4);
  });

  it('reads a timer as its number of observations', async () => {
    const meters = new Meters();
    meters.time('svc.execution.duration', { status: 'COMPLETED' }, 12);
    meters.time('svc.execution.duration', { status: 'COMPLETED' }, 30);
    expect(await meters.read('svc.execution.duration', { status: 'COMPLETED' })).toBe(2);
  });
});
