// The process and Node.js meters Prometheus dashboards expect beside the service's own (CPU,
// resident memory, heap, event-loop lag, garbage collection, handles), under prom-client's
// standard names so those dashboards work unchanged.
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Metric } from 'prom-client';

/**
 * prom-client's gauges whose names end in `_total`, a suffix Prometheus keeps for counters
 * (`promtool check metrics` reports them). Each is the sum of a family that stays:
 * `sum(nodejs_active_handles)` and so on.
 */
const NOT_EXPOSED = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

let shared: readonly Metric[] | undefined;

/**
 * The process meters, created on first use and then shared by every `Meters` of the process.
 * They measure the process, not one service, and creating them starts an event-loop delay
 * monitor and a garbage-collection observer that are never stopped: one of each per process,
 * however many services (tests start dozens) it holds. They are read when scraped; between
 * scrapes only the monitor's 10 ms timer and a histogram observation per batch of collections
 * run (docs/performance.md, "Process meters").
 */
export function processMeters(): readonly Metric[] {
  if (shared === undefined) {
    // A registry of their own, never prom-client's global one, which other code may also fill.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    for (const name of NOT_EXPOSED) registry.removeSingleMetric(name);
    shared = registry
      .getMetricsAsArray()
      .flatMap(({ name }) => registry.getSingleMetric(name) ?? []);
  }
  return shared;
}
