// Value kinds of settings: how a raw value from the YAML file, the environment or the command
// line becomes a typed value, and how a typed value is written back for the documentation.

export type SettingKind =
  'string' | 'int' | 'bool' | 'duration' | 'size' | 'enum' | 'string-list' | 'object-list' | 'map';

/**
 * Why a raw value was refused. The loader adds the setting name and the source. `at` names an
 * item inside the value (`[2]`) and `value` is that item; `hideValue` keeps the raw value out
 * of the message when it is a structure that may hold secrets.
 */
export interface ParseFailure {
  readonly ok: false;
  readonly reason: string;
  readonly at?: string;
  readonly value?: unknown;
  readonly hideValue?: boolean;
}

export type Parsed<TValue> = { readonly ok: true; readonly value: TValue } | ParseFailure;

/** One value kind: parsing, formatting and the words the documentation uses for it. */
export interface Codec<TValue> {
  readonly kind: SettingKind;
  /** Short type description for the documentation, e.g. `int 0..65535`. */
  readonly type: string;
  /** Whether an empty value means "off" (`null`). */
  readonly nullable: boolean;
  /**
   * Parses a raw value: a string from the environment or the command line, a YAML scalar,
   * a YAML list, or for lists an array assembled from indexed entries. `key` names the
   * setting in messages about nested entries.
   */
  parse(raw: unknown, key: string): Parsed<TValue>;
  format(value: TValue): string;
}

export function ok<TValue>(value: TValue): Parsed<TValue> {
  return { ok: true, value };
}

export function fail(reason: string): ParseFailure {
  return { ok: false, reason };
}

function isScalar(raw: unknown): raw is string | number | boolean {
  return typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean';
}

export function text(options: { check?: (value: string) => string | null } = {}): Codec<string> {
  const { check } = options;
  return {
    kind: 'string',
    type: 'string',
    nullable: false,
    parse(raw) {
      // A YAML scalar such as `port: 8080` or `enabled: true` stands for its text.
      if (!isScalar(raw)) return fail('expected text');
      const value = String(raw);
      const problem = check?.(value) ?? null;
      return problem === null ? ok(value) : fail(problem);
    },
    format: (value) => value,
  };
}

export function int(options: { min?: number; max?: number } = {}): Codec<number> {
  const min = options.min ?? Number.MIN_SAFE_INTEGER;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  const expected = rangeWords('an integer', options.min, options.max);
  return {
    kind: 'int',
    type: typeWithRange('int', options.min, options.max),
    nullable: false,
    parse(raw) {
      let value: number;
      if (typeof raw === 'number') value = raw;
      else if (typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw)) value = Number(raw);
      else return fail('expected an integer');
      if (!Number.isSafeInteger(value)) return fail('expected an integer');
      return value < min || value > max ? fail(`expected ${expected}`) : ok(value);
    },
    format: (value) => String(value),
  };
}

export function bool(): Codec<boolean> {
  return {
    kind: 'bool',
    type: 'bool',
    nullable: false,
    parse(raw) {
      if (typeof raw === 'boolean') return ok(raw);
      const word = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
      if (word === 'true') return ok(true);
      if (word === 'false') return ok(false);
      return fail('expected true or false');
    },
    format: (value) => String(value),
  };
}

const DURATION_UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
type DurationUnit = keyof typeof DURATION_UNITS;

/** Milliseconds from `250ms`, `30s`, `5m`, `1h`, `2d` or a plain number of milliseconds. */
export function parseDuration(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? raw : null;
  if (typeof raw !== 'string') return null;
  const match = /^\s*(\d+)\s*(ms|s|m|h|d)?\s*$/i.exec(raw);
  if (!match?.[1]) return null;
  const unit = (match[2]?.toLowerCase() ?? 'ms') as DurationUnit;
  const value = Number(match[1]) * DURATION_UNITS[unit];
  return Number.isSafeInteger(value) ? value : null;
}

/** The shortest exact form of a duration, e.g. `10m` for 600000. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = DURATION_UNITS[unit];
    if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * The longest timer Node honours (it fires anything longer after 1 ms): the bound of every
 * duration setting armed as a plain timer (docs/architecture.md, "Ranges").
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A duration; `max` bounds one armed as a plain timer (`MAX_TIMER_MS`). */
export function duration(options: { max?: number } = {}): Codec<number> {
  const { max } = options;
  return {
    kind: 'duration',
    type: max === undefined ? 'duration' : `duration <= ${max}ms`,
    nullable: false,
    parse(raw) {
      const value = parseDuration(raw);
      if (value === null) {
        return fail(
          'expected a duration such as 250ms, 30s, 5m, 1h, 2d or a number of milliseconds',
        );
      }
      return max !== undefined && value > max
        ? fail(
            `expected a duration of at most ${max}ms (about ${Math.floor(max / 86_400_000)} days)`,
          )
        : ok(value);
    },
    format: formatDuration,
  };
}

// KB, MB, GB and TB are powers of 1024, as for memory sizes; the IEC names mean the same.
const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};

/** Bytes from a number or `512KB`, `4MB`, `1GB`, `1MiB` (KB = 1024 bytes). */
export function parseSize(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? raw : null;
  if (typeof raw !== 'string') return null;
  const match = /^\s*(\d+)\s*([a-z]+)?\s*$/i.exec(raw);
  if (!match?.[1]) return null;
  const factor = SIZE_UNITS[match[2]?.toLowerCase() ?? 'b'];
  if (factor === undefined) return null;
  const value = Number(match[1]) * factor;
  return Number.isSafeInteger(value) ? value : null;
}

/** The shortest exact form of a size, e.g. `4MB` for 4194304. */
export function formatSize(bytes: number): string {
  for (const [unit, factor] of [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ] as const) {
    if (bytes > 0 && bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  return String(bytes);
}

/** A size; `max` refuses values no process could hold (a typo of a unit, say). */
export function size(options: { min?: number; max?: number } = {}): Codec<number> {
  const min = options.min ?? 0;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  return {
    kind: 'size',
    type: 'size',
    nullable: false,
    parse(raw) {
      const value = parseSize(raw);
      if (value === null) {
        return fail('expected a size in bytes such as 1048576, 512KB, 4MB, 1GB or 1MiB');
      }
      if (value < min) return fail(`expected at least ${min} bytes`);
      return value > max ? fail(`expected at most ${formatSize(max)} (${max} bytes)`) : ok(value);
    },
    format: formatSize,
  };
}

/** One of a fixed set of words; matched without regard to case, stored as spelled here. */
export function oneOf<const TWord extends string>(words: readonly TWord[]): Codec<TWord> {
  return {
    kind: 'enum',
    type: words.join(' | '),
    nullable: false,
    parse(raw) {
      const given = typeof raw === 'string' ? raw.trim().toLowerCase() : null;
      const found = words.find((word) => word.toLowerCase() === given);
      return found === undefined ? fail(`expected one of ${words.join(', ')}`) : ok(found);
    },
    format: (value) => value,
  };
}

/** Items of a plain string: comma separated, each trimmed, empty items dropped. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * A list of strings: a comma-separated string, a YAML list, or indexed entries. Only a plain
 * string is split, so an item holding a comma is given as an indexed entry or a YAML item.
 */
export function stringList(
  options: { check?: (item: string) => string | null; normalize?: (item: string) => string } = {},
): Codec<readonly string[]> {
  const { check, normalize } = options;
  return {
    kind: 'string-list',
    type: 'string list',
    nullable: false,
    parse(raw) {
      if (raw === null) return ok([]);
      const items: readonly unknown[] | null =
        typeof raw === 'string' ? splitList(raw) : Array.isArray(raw) ? raw : null;
      if (items === null) return fail('expected a comma-separated string or a list');
      const values: string[] = [];
      for (const [index, item] of items.entries()) {
        const at = `[${index}]`;
        if (!isScalar(item)) return { ok: false, reason: 'expected text', at, value: item };
        const value = String(item);
        const problem = value === '' ? 'must not be empty' : (check?.(value) ?? null);
        if (problem !== null) return { ok: false, reason: problem, at, value };
        values.push(normalize ? normalize(value) : value);
      }
      return ok(values);
    },
    format: (value) => value.join(','),
  };
}

/**
 * A setting that may be off. Off is `null`, written as an empty string in the environment or
 * on the command line, or as `null` / `~` in YAML.
 */
export function nullable<TValue>(codec: Codec<TValue>): Codec<TValue | null> {
  return {
    kind: codec.kind,
    type: codec.type,
    nullable: true,
    parse(raw, key) {
      if (raw === null || (typeof raw === 'string' && raw.trim() === '')) return ok(null);
      return codec.parse(raw, key);
    },
    format: (value) => (value === null ? 'off' : codec.format(value)),
  };
}

/**
 * A free-form map under a key prefix (`svc.var.*`): any name below the prefix is allowed and
 * each value is parsed by `values`. The raw value is an object of name to raw value.
 */
export function mapOf<TValue>(values: Codec<TValue>): Codec<Readonly<Record<string, TValue>>> {
  return {
    kind: 'map',
    type: `map of ${values.type}`,
    nullable: false,
    parse(raw, key) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        return fail('expected names below the prefix, each with a value');
      }
      // No prototype, so names such as `constructor` read as absent unless configured.
      const result = Object.create(null) as Record<string, TValue>;
      for (const [name, item] of Object.entries(raw)) {
        const parsed = values.parse(item, key);
        if (!parsed.ok) return { ...parsed, at: `.${name}`, value: item };
        result[name] = parsed.value;
      }
      return ok(result);
    },
    format: (value) => {
      const entries = Object.entries(value);
      return entries.map(([name, item]) => `${name}=${values.format(item)}`).join(',');
    },
  };
}

function rangeWords(noun: string, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun} of at least ${min}`;
  if (max !== undefined) return `${noun} of at most ${max}`;
  return noun;
}

function typeWithRange(name: string, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${name} ${min}..${max}`;
  if (min !== undefined) return `${name} >= ${min}`;
  if (max !== undefined) return `${name} <= ${max}`;
  return name;
}
