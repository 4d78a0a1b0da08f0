// Every meter of SPEC "Meters", registered once under its SPEC name (Prometheus spells it by
// its own naming rules), so parts record where SPEC says and readers find them by name.
import { Gauge, Registry } from 'prom-client';
import type { MeterTags, PluginMeter } from '../plugin-api/index.js';
import { CatalogueCounter, CatalogueTimer } from './meter-series.js';
import { processMeters } from './process-meters.js';

export type MeterType = 'counter' | 'gauge' | 'timer';

export interface MeterSpec {
  readonly name: string;
  readonly type: MeterType;
  readonly tags: readonly string[];
  readonly description: string;
  /** Plugins add to it through `NodeContext.meter`; no other meter is theirs. */
  readonly plugins?: true;
}

/** SPEC "Meters", row by row. */
export const METER_CATALOGUE = [
  {
    name: 'svc.node.executions',
    type: 'counter',
    tags: ['module', 'status'],
    description: 'nodes that reached a terminal status; module is the plugin type',
  },
  { name: 'svc.node.duration', type: 'timer', tags: ['module'], description: 'node run time' },
  { name: 'svc.node.retries', type: 'counter', tags: ['module'], description: 'messages retried' },
  {
    name: 'svc.execution.duration',
    type: 'timer',
    tags: ['status'],
    description: 'run time of ended executions',
  },
  {
    name: 'svc.execution.queue.wait',
    type: 'timer',
    tags: [],
    description: 'time starts waited for a slot',
  },
  {
    name: 'svc.executions.running',
    type: 'gauge',
    tags: [],
    description: 'executions holding a slot',
  },
  { name: 'svc.executions.queued', type: 'gauge', tags: [], description: 'executions waiting' },
  {
    name: 'svc.executions.rejected',
    type: 'counter',
    tags: ['reason'],
    description: 'refused starts',
  },
  {
    name: 'svc.tracker.queue.depth',
    type: 'gauge',
    tags: [],
    description: 'state events accepted and not yet applied',
  },
  {
    name: 'svc.tracker.dropped',
    type: 'counter',
    tags: ['type', 'kind'],
    description: 'dropped log lines, lost state events, events a slow supervisor missed',
  },
  {
    name: 'svc.tracker.log.append.failed',
    type: 'counter',
    tags: ['type'],
    description: 'failed writes to the execution log',
  },
  {
    name: 'svc.edge.dropped',
    type: 'counter',
    tags: ['type'],
    description: 'messages dropped by an edge buffer',
  },
  {
    name: 'svc.checkpoint.bytes',
    type: 'gauge',
    tags: [],
    description: 'node output held by the checkpoint store',
  },
  {
    name: 'svc.memory.dropped',
    type: 'counter',
    tags: ['store'],
    description:
      'entries an in-memory history let go of to stay within its byte budget; store: results, logs, events, streams, checkpoints',
  },
  {
    name: 'svc.dead-letters',
    type: 'counter',
    tags: ['node', 'workflow'],
    description: 'messages kept as dead letters by nodes with onError DEAD_LETTER',
  },
  {
    name: 'svc.dead-letters.stored',
    type: 'gauge',
    tags: [],
    description: 'dead letters held by the dead-letter store',
  },
  {
    name: 'svc.checkpoint.errors',
    type: 'counter',
    tags: [],
    description: 'end markers that could not be written',
  },
  {
    name: 'svc.plugin.events',
    plugins: true,
    type: 'counter',
    tags: ['plugin', 'outcome'],
    description: 'counts plugins report',
  },
  {
    name: 'svc.supervisor.commands',
    type: 'counter',
    tags: ['id', 'outcome'],
    description: 'commands issued by each supervisor',
  },
  { name: 'svc.workers', type: 'gauge', tags: [], description: 'workers connected' },
  {
    name: 'svc.worker.slots',
    type: 'gauge',
    tags: [],
    description: 'free node slots across workers',
  },
  {
    name: 'svc.leader',
    type: 'gauge',
    tags: [],
    description: '1 on the leader; present with high availability',
  },
  {
    name: 'svc.mcp.call',
    plugins: true,
    type: 'timer',
    tags: ['tool', 'outcome'],
    description: 'duration of MCP_TOOL_CALL',
  },
  {
    name: 'llm.tokens',
    plugins: true,
    type: 'counter',
    tags: ['provider', 'direction'],
    description: 'model tokens used',
  },
  {
    name: 'llm.cost',
    plugins: true,
    type: 'counter',
    tags: ['provider'],
    description: 'model cost when the node reports it',
  },
] as const satisfies readonly MeterSpec[];

export type MeterName = (typeof METER_CATALOGUE)[number]['name'];

type AnyMeter = CatalogueCounter | Gauge | CatalogueTimer;

/**
 * Prometheus name of a SPEC meter, by the rules `promtool check metrics` applies: dots (and
 * the hyphens of names like `svc.dead-letters`) become underscores, a counter ends in `_total`, a timer is a histogram in seconds. Only the
 * Prometheus exposition uses it; `/actuator/metrics` keeps SPEC's names.
 */
export function prometheusName(spec: MeterSpec): string {
  const base = spec.name.replace(/[.-]/g, '_');
  switch (spec.type) {
    case 'counter':
      return `${base}_total`;
    case 'timer':
      return `${base}_seconds`;
    case 'gauge':
      return base;
  }
}

/** The meters of plugins by name: looked up on every call a plugin makes. */
const PLUGIN_METERS: ReadonlyMap<string, MeterSpec> = new Map(
  METER_CATALOGUE.filter((spec: MeterSpec) => spec.plugins === true).map((spec) => [
    spec.name,
    spec,
  ]),
);

/**
 * Checks a plugin's meter call against the catalogue: a meter of plugins, of the kind the call
 * needs (a counter counted, a timer observed), with tags of its own. Throws otherwise, so a
 * plugin learns of the mistake where it made it.
 */
export function pluginMeterName(
  name: string,
  type: 'counter' | 'timer',
  tags: MeterTags,
): MeterName {
  const spec = PLUGIN_METERS.get(name);
  if (spec?.type !== type) {
    const theirs = [...PLUGIN_METERS.values()].filter((entry) => entry.type === type);
    throw new Error(
      `Meter '${name}' is not a ${type} plugins may add to; theirs: ${theirs.map((entry) => entry.name).join(', ')}`,
    );
  }
  for (const tag in tags) {
    if (!spec.tags.includes(tag)) {
      throw new Error(`Meter '${name}' has no tag '${tag}'; its tags: ${spec.tags.join(', ')}`);
    }
  }
  return spec.name as MeterName;
}

const NO_TAGS: MeterTags = Object.freeze({});

export class Meters {
  /** What `/actuator/prometheus` serves: the catalogue's meters and the process meters. */
  readonly registry = new Registry();
  /** What plugins add to (`NodeContext.meter`): the catalogue's meters of plugins only. */
  readonly forPlugins: PluginMeter = {
    count: (name, tags = NO_TAGS, amount = 1) => {
      this.count(pluginMeterName(name, 'counter', tags), tags, amount);
    },
    observe: (name, value, tags = NO_TAGS) => {
      this.time(pluginMeterName(name, 'timer', tags), tags, value);
    },
  };
  readonly #meters = new Map<string, AnyMeter>();
  /** Gauges read when they are collected rather than set as things happen. */
  readonly #readers = new Map<string, () => number>();

  constructor() {
    const readers = this.#readers;
    for (const spec of METER_CATALOGUE) {
      const options = {
        name: prometheusName(spec),
        help: spec.description,
        labelNames: [...spec.tags],
        registers: [this.registry],
      };
      const meter =
        spec.type === 'counter'
          ? new CatalogueCounter(options)
          : spec.type === 'gauge'
            ? new Gauge({
                ...options,
                collect(this: Gauge) {
                  const read = readers.get(spec.name);
                  if (read !== undefined) this.set(read());
                },
              })
            : new CatalogueTimer({
                ...options,
                buckets: [0.001, 0.01, 0.1, 0.5, 1, 5, 30, 120, 600, 3600],
              });
      this.#meters.set(spec.name, meter);
    }
    for (const metric of processMeters()) this.registry.registerMetric(metric);
  }

  /** Adds `amount` to a counter. */
  count(name: MeterName, tags: Readonly<Record<string, string>> = {}, amount = 1): void {
    const meter = this.#meters.get(name);
    if (meter instanceof CatalogueCounter && amount > 0) meter.add(tags, amount);
  }

  /** Records a duration in milliseconds on a timer. */
  time(name: MeterName, tags: Readonly<Record<string, string>>, milliseconds: number): void {
    const meter = this.#meters.get(name);
    if (meter instanceof CatalogueTimer) meter.record(tags, milliseconds / 1000);
  }

  set(name: MeterName, value: number, tags: Readonly<Record<string, string>> = {}): void {
    const meter = this.#meters.get(name);
    if (meter instanceof Gauge) meter.set(tags, value);
  }

  /** A gauge without tags whose value is read from `read` each time it is collected. */
  observe(name: MeterName, read: () => number): void {
    this.#readers.set(name, read);
  }

  /**
   * Sum of a meter's measurements whose tags include `tags`: a counter's count, a gauge's
   * value, a timer's number of observations.
   */
  async read(name: MeterName, tags: Readonly<Record<string, string>> = {}): Promise<number> {
    return (await describeMeter(this, name, tags)).measurements[0]?.value ?? 0;
  }
}

function specOf(name: MeterName): MeterSpec {
  const spec = METER_CATALOGUE.find((entry) => entry.name === name);
  if (!spec) throw new Error(`Unknown meter ${name}`);
  return spec;
}

export interface MeterMeasurement {
  readonly statistic: 'COUNT' | 'VALUE' | 'TOTAL_TIME';
  readonly value: number;
}

export interface MeterDescription {
  readonly name: string;
  readonly description: string;
  readonly baseUnit: string | null;
  readonly measurements: readonly MeterMeasurement[];
  readonly availableTags: readonly { readonly tag: string; readonly values: readonly string[] }[];
}

export function isMeterName(name: string): name is MeterName {
  return METER_CATALOGUE.some((spec) => spec.name === name);
}

/** One meter as management endpoints show it: measurements over the matching tags. */
export async function describeMeter(
  meters: Meters,
  name: MeterName,
  tags: Readonly<Record<string, string>>,
): Promise<MeterDescription> {
  const spec = specOf(name);
  const metric = meters.registry.getSingleMetric(prometheusName(spec));
  if (!metric) throw new Error(`Meter ${name} is not registered`);
  const { values } = await metric.get();
  const available = new Map<string, Set<string>>(spec.tags.map((tag) => [tag, new Set()]));
  let count = 0;
  let total = 0;
  let value = 0;
  for (const sample of values) {
    const labels = sample.labels as Record<string, string | number | undefined>;
    for (const [tag, seen] of available) {
      const label = labels[tag];
      if (label !== undefined) seen.add(String(label));
    }
    if (!Object.entries(tags).every(([key, wanted]) => String(labels[key]) === wanted)) continue;
    const metricName = (sample as { metricName?: string }).metricName ?? '';
    if (spec.type === 'timer') {
      if (metricName.endsWith('_count')) count += sample.value;
      else if (metricName.endsWith('_sum')) total += sample.value;
    } else {
      value += sample.value;
    }
  }
  const measurements: MeterMeasurement[] =
    spec.type === 'timer'
      ? [
          { statistic: 'COUNT', value: count },
          { statistic: 'TOTAL_TIME', value: total },
        ]
      : [{ statistic: spec.type === 'counter' ? 'COUNT' : 'VALUE', value }];
  return {
    name,
    description: spec.description,
    baseUnit: spec.type === 'timer' ? 'seconds' : null,
    measurements,
    availableTags: [...available].map(([tag, seen]) => ({ tag, values: [...seen].sort() })),
  };
}
