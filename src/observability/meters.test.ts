import { describe, expect, it } from 'vitest';
import { METER_CATALOGUE, Meters, describeMeter } from './meters.js';

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

  it("adds plugins' counts and timings to the meters of plugins, as they were measured before", async () => {
    const meters = new Meters();
    meters.forPlugins.count('llm.tokens', { provider: 'p', direction: 'input' }, 12);
    meters.forPlugins.count('llm.cost', { provider: 'p' }, 0.5);
    meters.forPlugins.count('svc.plugin.events', { plugin: 'x.run', outcome: 'completed' });
    meters.forPlugins.observe('svc.mcp.call', 1500, { tool: 't', outcome: 'completed' });
    expect(await meters.read('llm.tokens', { direction: 'input' })).toBe(12);
    expect(await meters.read('llm.cost')).toBe(0.5);
    expect(await meters.read('svc.plugin.events', { plugin: 'x.run' })).toBe(1);
    const [timing] = (await describeMeter(meters, 'svc.mcp.call', {})).measurements.slice(1);
    expect(timing).toEqual({ statistic: 'TOTAL_TIME', value: 1.5 });
  });

  it('refuses a plugin a meter not its own, of the other kind, or with a tag it does not have', () => {
    const { forPlugins } = new Meters();
    expect(() => {
      forPlugins.count('svc.executions.rejected', { reason: 'x' });
    }).toThrow("Meter 'svc.executions.rejected' is not a counter plugins may add to");
    expect(() => {
      forPlugins.observe('llm.tokens', 1);
    }).toThrow("Meter 'llm.tokens' is not a timer plugins may add to; theirs: svc.mcp.call");
    expect(() => {
      forPlugins.count('llm.cost', { model: 'm' });
    }).toThrow("Meter 'llm.cost' has no tag 'model'; its tags: provider");
  });
});
