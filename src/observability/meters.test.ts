import { describe, expect, it } from 'vitest';
import { METER_CATALOGUE, Meters, describeMeter, prometheusName } from './meters.js';

describe('Meters (SPEC Meters)', () => {
  it('registers every meter of SPEC with its tags', async () => {
    const meters = new Meters();
    const metrics = await meters.registry.getMetricsAsJSON();
    for (const spec of METER_CATALOGUE) {
      const metric = metrics.find((entry) => entry.name === prometheusName(spec));
      expect(metric?.help, spec.name).toBe(spec.description);
    }
    expect(metrics.map((metric) => metric.name)).toContain('svc_node_executions_total');
    expect(metrics.map((metric) => metric.name)).toContain('svc_node_duration_seconds');
  });

  it('names a counter with _total, a timer in seconds and a gauge as it is, in Prometheus only', () => {
    const names = Object.fromEntries(
      METER_CATALOGUE.map((spec) => [spec.name, prometheusName(spec)]),
    );
    expect(names['svc.node.executions']).toBe('svc_node_executions_total');
    expect(names['llm.cost']).toBe('llm_cost_total');
    expect(names['svc.execution.queue.wait']).toBe('svc_execution_queue_wait_seconds');
    expect(names['svc.executions.running']).toBe('svc_executions_running');
    expect(names['svc.checkpoint.bytes']).toBe('svc_checkpoint_bytes');
    for (const spec of METER_CATALOGUE) {
      expect(prometheusName(spec).endsWith('_total'), spec.name).toBe(spec.type === 'counter');
    }
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
