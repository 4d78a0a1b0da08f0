// The series of the catalogue's counters and timers, kept apart from prom-client's meters and
// handed to them when they are read. prom-client hashes the tags of every call into a string
// key, checks them and allocates for each; a run counts and times a handful of things, and
// those calls were a measurable part of a short run. Here a call finds its series through a map
// per tag (no key is built) and adds numbers; what Prometheus and `/actuator/metrics` read is
// unchanged.
import { Counter, Histogram } from 'prom-client';
import type { LabelValues, Registry } from 'prom-client';

export type Tags = Readonly<Record<string, string>>;

export interface SeriesMeterOptions {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly registers: Registry[];
}

interface Series {
  /** The tags the series was first counted with, as prom-client keeps them. */
  readonly labels: Tags;
}

/**
 * The series of one meter by the values of its tags, nested in the order the meter declares
 * them: finding a series counted before allocates nothing. Kept in the order series appeared.
 */
class SeriesIndex<S extends Series> {
  readonly #tags: readonly string[];
  readonly #make: (labels: Tags) => S;
  #root = new Map<string | undefined, unknown>();
  #all: S[] = [];

  constructor(tags: readonly string[], make: (labels: Tags) => S) {
    this.#tags = tags;
    this.#make = make;
  }

  get all(): readonly S[] {
    return this.#all;
  }

  /** The series of these tags; throws, as prom-client does, for a tag the meter lacks. */
  of(tags: Tags): S {
    for (const tag in tags) {
      if (!this.#tags.includes(tag)) {
        throw new Error(
          `Added label "${tag}" is not included in initial labelset: [ ${this.#tags.map((name) => `'${name}'`).join(', ')} ]`,
        );
      }
    }
    let level = this.#root;
    const last = this.#tags.length - 1;
    for (let index = 0; index < last; index++) {
      const value = tags[this.#tags[index] ?? ''];
      let next = level.get(value) as Map<string | undefined, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const value = last < 0 ? undefined : tags[this.#tags[last] ?? ''];
    let series = level.get(value) as S | undefined;
    if (series === undefined) {
      series = this.#make({ ...tags });
      level.set(value, series);
      this.#all.push(series);
    }
    return series;
  }

  clear(): void {
    this.#root = new Map();
    this.#all = [];
  }
}

interface CounterSeries extends Series {
  /** Counted since prom-client's counter was last read. */
  pending: number;
}

/**
 * A prom-client counter whose counts gather in series of their own and are added to it, tag
 * set by tag set, when it is read (its `collect`).
 */
export class CatalogueCounter extends Counter {
  readonly #series: SeriesIndex<CounterSeries>;

  constructor(options: SeriesMeterOptions) {
    const series = new SeriesIndex<CounterSeries>(options.labelNames, (labels) => ({
      labels,
      pending: 0,
    }));
    super({
      ...options,
      labelNames: [...options.labelNames],
      collect(this: Counter) {
        for (const counted of series.all) {
          if (counted.pending === 0) continue;
          this.inc(counted.labels as LabelValues<string>, counted.pending);
          counted.pending = 0;
        }
      },
    });
    this.#series = series;
  }

  /** Adds `amount` (above zero) to the series of `tags`. */
  add(tags: Tags, amount: number): void {
    this.#series.of(tags).pending += amount;
  }

  override reset(): void {
    // prom-client's constructor resets too, before this class has its fields.
    if (#series in this) this.#series.clear();
    super.reset();
  }
}

interface TimerSeries extends Series {
  /** Observations per bucket, each counted in the first bucket whose bound holds it. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** A sample as prom-client's registry reads a histogram's. */
interface TimerSample {
  readonly labels: Record<string, string | number>;
  readonly sharedLabels: Tags;
  readonly value: number;
  readonly metricName: string;
  readonly exemplar: null | undefined;
}

/**
 * A prom-client histogram read from series of its own: the registry and `get()` see the same
 * buckets, sums and counts prom-client would have, in the same shape.
 */
export class CatalogueTimer extends Histogram {
  readonly #series: SeriesIndex<TimerSeries>;
  readonly #bounds: readonly number[];
  readonly #name: string;
  readonly #help: string;

  constructor(options: SeriesMeterOptions & { readonly buckets: readonly number[] }) {
    super({ ...options, labelNames: [...options.labelNames], buckets: [...options.buckets] });
    const bounds = [...options.buckets];
    this.#bounds = bounds;
    this.#name = options.name;
    this.#help = options.help;
    this.#series = new SeriesIndex<TimerSeries>(options.labelNames, (labels) => ({
      labels,
      buckets: bounds.map(() => 0),
      sum: 0,
      count: 0,
    }));
    // A meter without tags shows its zeros before its first observation, as prom-client's does.
    if (options.labelNames.length === 0) this.#series.of({});
    // prom-client sets `observe` on each instance: observations made through it land here too.
    this.observe = ((tags: Tags | number, value?: number) => {
      if (typeof tags === 'number') this.record({}, tags);
      else this.record(tags, value ?? 0);
    }) as Histogram['observe'];
  }

  /** Records one observation, in seconds, in the series of `tags`. */
  record(tags: Tags, seconds: number): void {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    const series = this.#series.of(tags);
    series.sum += seconds;
    series.count += 1;
    const bounds = this.#bounds;
    for (let index = 0; index < bounds.length; index++) {
      if (seconds <= (bounds[index] ?? Infinity)) {
        series.buckets[index] = (series.buckets[index] ?? 0) + 1;
        return;
      }
    }
  }

  /** What the registry writes in the exposition format: the series' labels kept apart. */
  getForPromString(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    values: TimerSample[];
    aggregator: 'sum';
  }> {
    const bucketName = `${this.#name}_bucket`;
    const values: TimerSample[] = [];
    for (const series of this.#series.all) {
      const sharedLabels = series.labels;
      let below = 0;
      this.#bounds.forEach((bound, index) => {
        below += series.buckets[index] ?? 0;
        const labels = { le: bound };
        values.push({ labels, sharedLabels, value: below, metricName: bucketName, exemplar: null });
      });
      values.push(
        {
          labels: { le: '+Inf' },
          sharedLabels,
          value: series.count,
          metricName: bucketName,
          exemplar: null,
        },
        {
          labels: {},
          sharedLabels,
          value: series.sum,
          metricName: `${this.#name}_sum`,
          exemplar: undefined,
        },
        {
          labels: {},
          sharedLabels,
          value: series.count,
          metricName: `${this.#name}_count`,
          exemplar: undefined,
        },
      );
    }
    return Promise.resolve({
      name: this.#name,
      help: this.#help,
      type: 'histogram',
      values,
      aggregator: 'sum',
    });
  }

  override async get(): ReturnType<Histogram['get']> {
    const data = await this.getForPromString();
    // prom-client's declared answer of get() holds a `collect` function its own histograms
    // never return; the shape below is what they do return.
    return {
      ...data,
      values: data.values.map(({ labels, sharedLabels, ...sample }) => ({
        ...sample,
        labels: { ...labels, ...sharedLabels },
      })),
    } as unknown as Awaited<ReturnType<Histogram['get']>>;
  }

  override reset(): void {
    // prom-client's constructor resets too, before this class has its fields.
    if (#series in this) this.#series.clear();
  }
}
