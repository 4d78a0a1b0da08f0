import { describe, expect, it } from 'vitest';
import { Meters } from './meters.js';

describe('Process meters', () => {
  it('adds the process and Node.js meters to every Meters, one set for the whole process', () => {
    const first = new Meters();
    const second = new Meters();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_gc_duration_seconds',
      'nodejs_active_handles',
    ]) {
      const metric = first.registry.getSingleMetric(name);
      expect(metric, name).toBeDefined();
      expect(second.registry.getSingleMetric(name), name).toBe(metric);
    }
  });

  it('leaves out the gauges prom-client names with _total, which only counters may end in', () => {
    const { registry } = new Meters();
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
    ]) {
      expect(registry.getSingleMetric(name), name).toBeUndefined();
    }
  });
});
