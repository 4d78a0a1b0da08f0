import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CatalogueCounter, CatalogueTimer } from './meter-series.js';

const BUCKETS = [0.001, 0.1, 1, 60];

/** The same meters twice: prom-client's own, and the catalogue's, each in a registry. */
function pair(labelNames: readonly string[]) {
  const theirs = new Registry();
  const ours = new Registry();
  const options = (registry: Registry) => ({
    help: 'help',
    labelNames: [...labelNames],
    registers: [registry],
  });
  return {
    theirs,
    ours,
    counters: [
      new Counter({ name: 'c_total', ...options(theirs) }),
      new CatalogueCounter({ name: 'c_total', ...options(ours) }),
    ] as const,
    timers: [
      new Histogram({ name: 't_seconds', buckets: BUCKETS, ...options(theirs) }),
      new CatalogueTimer({ name: 't_seconds', buckets: BUCKETS, ...options(ours) }),
    ] as const,
  };
}

describe('the series of counters and timers', () => {
  it('are written and read exactly as prom-client writes and reads its own meters', async () => {
    const { theirs, ours, counters, timers } = pair(['module', 'status']);
    const counts = [
      [{ module: 'MAPPER', status: 'COMPLETED' }, 1],
      [{ status: 'FAILED', module: 'DELAY' }, 2],
      [{ module: 'MAPPER', status: 'COMPLETED' }, 0.5],
      [{ module: 'MAPPER' }, 3],
    ] as const;
    for (const [tags, amount] of counts) {
      counters[0].inc(tags, amount);
      counters[1].add(tags, amount);
    }
    const observations = [
      [{ module: 'MAPPER' }, 0.0005],
      [{ module: 'MAPPER' }, 0.001],
      [{ module: 'DELAY', status: 'COMPLETED' }, 2],
      [{ module: 'MAPPER' }, 90],
      [{ module: 'DELAY', status: 'COMPLETED' }, 0.2],
    ] as const;
    for (const [tags, seconds] of observations) {
      timers[0].observe(tags, seconds);
      timers[1].record(tags, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    // Read twice: what was handed to prom-client's counter is not handed again.
    expect(await ours.metrics()).toBe(await theirs.metrics());
    timers[0].observe({ module: 'MAPPER' }, 3);
    timers[1].observe({ module: 'MAPPER' }, 3);
    counters[0].inc({ module: 'MAPPER' });
    counters[1].add({ module: 'MAPPER' }, 1);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('show the zeros of a meter without tags before anything is recorded, and reset alike', async () => {
    const { theirs, ours, timers, counters } = pair([]);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('t_seconds_count 0');
    timers[0].observe(4);
    timers[1].observe(4);
    counters[0].inc(2);
    counters[1].add({}, 2);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    theirs.resetMetrics();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('refuse a tag the meter does not have, as prom-client does, and a value that is no number', () => {
    const { counters, timers } = pair(['module']);
    expect(() => {
      counters[1].add({ modul: 'MAPPER' }, 1);
    }).toThrow(`Added label "modul" is not included in initial labelset: [ 'module' ]`);
    expect(() => {
      timers[1].record({ module: 'MAPPER' }, Number.NaN);
    }).toThrow('Value is not a valid number');
  });
});
