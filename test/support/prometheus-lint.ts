// The Prometheus text format (version 0.0.4) read strictly, and the naming rules of
// `promtool check metrics` (client_golang's promlint), so tests hold a scrape to both without
// needing promtool. Stricter than promtool where that costs nothing: a family with no samples is
// linted too, and every sample must follow a TYPE line of its family.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  /** 1-based line of the exposition. */
  readonly line: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string | undefined;
  readonly samples: readonly Sample[];
}

/** One rule broken by one family, as promtool prints it: `<metric> <text>`. */
export interface Problem {
  readonly metric: string;
  readonly text: string;
}

export class ExpositionError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'ExpositionError';
  }
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: readonly MetricType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
/** A Go float as the format writes it: decimal or exponent form, NaN and the infinities. */
const FLOAT = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Inf|NaN)$/;

interface FamilyDraft {
  name: string;
  line: number;
  type: MetricType | undefined;
  help: string | undefined;
  samples: Sample[];
}

/**
 * Reads an exposition, refusing anything the format does not allow: an unknown type, a second
 * HELP or TYPE line, a TYPE after the family's samples, a sample of no declared family or of a
 * family seen earlier, a malformed label set, a value that is no number, a series given twice.
 */
export function parseExposition(text: string): MetricFamily[] {
  const families = new Map<string, FamilyDraft>();
  let current: FamilyDraft | undefined;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const series = new Set<string>();

  const declare = (name: string, lineNumber: number): FamilyDraft => {
    if (!METRIC_NAME.test(name)) throw new ExpositionError(lineNumber, `bad metric name '${name}'`);
    let family = families.get(name);
    if (family === undefined) {
      family = { name, line: lineNumber, type: undefined, help: undefined, samples: [] };
      families.set(name, family);
    } else if (family !== current) {
      throw new ExpositionError(lineNumber, `family '${name}' continues after another family`);
    }
    current = family;
    return family;
  };

  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const line = raw.trim();
    if (line === '') return;
    if (line.startsWith('#')) {
      const [, keyword, name, ...rest] = line.split(/[ \t]+/);
      if (keyword === 'HELP' && name !== undefined) {
        const family = declare(name, lineNumber);
        if (family.help !== undefined) {
          throw new ExpositionError(lineNumber, `second HELP line for '${name}'`);
        }
        family.help = unescapeHelp(rest.join(' '), lineNumber);
      } else if (keyword === 'TYPE' && name !== undefined) {
        const family = declare(name, lineNumber);
        const type = rest.join(' ') as MetricType;
        if (!TYPES.includes(type)) {
          throw new ExpositionError(lineNumber, `unknown type '${type}' for '${name}'`);
        }
        if (family.type !== undefined) {
          throw new ExpositionError(lineNumber, `second TYPE line for '${name}'`);
        }
        if (family.samples.length > 0) {
          throw new ExpositionError(lineNumber, `TYPE line for '${name}' after its samples`);
        }
        family.type = type;
      }
      // Any other line starting with '#' is a comment.
      return;
    }
    const sample = parseSample(line, lineNumber);
    const family = current;
    if (family?.type === undefined || !belongsTo(sample, family.name, family.type)) {
      throw new ExpositionError(
        lineNumber,
        `sample '${sample.name}' follows no TYPE line of its family`,
      );
    }
    const key = `${sample.name}{${Object.entries(sample.labels)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([label, value]) => `${label}=${JSON.stringify(value)}`)
      .join(',')}}`;
    if (series.has(key)) throw new ExpositionError(lineNumber, `series ${key} given twice`);
    series.add(key);
    family.samples.push(sample);
  });

  return [...families.values()].map((family) => {
    if (family.type === undefined) {
      throw new ExpositionError(family.line, `family '${family.name}' has HELP but no TYPE line`);
    }
    checkHistogram(family);
    return { name: family.name, type: family.type, help: family.help, samples: family.samples };
  });
}

function unescapeHelp(text: string, lineNumber: number): string {
  return text.replace(/\\(.?)/g, (_match, next: string) => {
    if (next === '\\') return '\\';
    if (next === 'n') return '\n';
    throw new ExpositionError(lineNumber, `bad escape '\\${next}' in HELP`);
  });
}

function parseSample(line: string, lineNumber: number): Sample {
  const nameEnd = line.search(/[{ \t]/);
  if (nameEnd <= 0) throw new ExpositionError(lineNumber, `no value in '${line}'`);
  const name = line.slice(0, nameEnd);
  if (!METRIC_NAME.test(name)) throw new ExpositionError(lineNumber, `bad metric name '${name}'`);
  let rest = line.slice(nameEnd);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    const end = readLabels(rest, name, labels, lineNumber);
    rest = rest.slice(end);
  }
  const fields = rest.trim().split(/[ \t]+/);
  const [value, timestamp, extra] = fields;
  if (value === undefined || value === '' || !FLOAT.test(value)) {
    throw new ExpositionError(lineNumber, `value '${value ?? ''}' of '${name}' is not a number`);
  }
  if (extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) {
    throw new ExpositionError(lineNumber, `unexpected text after the value of '${name}'`);
  }
  return { name, labels, value: Number(value.replace(/Inf$/, 'Infinity')), line: lineNumber };
}

/** Reads `{name="value",...}` at the start of `text` into `labels`; answers where it ends. */
function readLabels(
  text: string,
  name: string,
  labels: Record<string, string>,
  lineNumber: number,
): number {
  let position = 1;
  for (;;) {
    const match = /^\s*([^=\s}]*)\s*/.exec(text.slice(position));
    const label = match?.[1] ?? '';
    position += match?.[0].length ?? 0;
    // An empty set, or a comma before the closing brace, which the format allows.
    if (label === '' && text[position] === '}') return position + 1;
    if (!LABEL_NAME.test(label) || label.startsWith('__')) {
      throw new ExpositionError(lineNumber, `bad label name '${label}' in '${name}'`);
    }
    if (Object.hasOwn(labels, label)) {
      throw new ExpositionError(lineNumber, `label '${label}' given twice in '${name}'`);
    }
    if (text.slice(position, position + 2) !== '="') {
      throw new ExpositionError(lineNumber, `label '${label}' of '${name}' has no quoted value`);
    }
    position += 2;
    let value = '';
    for (;;) {
      const char = text[position];
      if (char === undefined) {
        throw new ExpositionError(lineNumber, `unterminated value of label '${label}'`);
      }
      position += 1;
      if (char === '"') break;
      if (char === '\\') {
        const escaped = text[position];
        position += 1;
        if (escaped === '\\' || escaped === '"') value += escaped;
        else if (escaped === 'n') value += '\n';
        else throw new ExpositionError(lineNumber, `bad escape in label '${label}'`);
      } else {
        value += char;
      }
    }
    labels[label] = value;
    const separator = /^\s*([,}])/.exec(text.slice(position));
    if (separator === null) {
      throw new ExpositionError(lineNumber, `expected ',' or '}' after label '${label}'`);
    }
    position += separator[0].length;
    if (separator[1] === '}') return position;
  }
}

function belongsTo(sample: Sample, family: string, type: MetricType): boolean {
  switch (type) {
    case 'histogram':
      return (
        (sample.name === `${family}_bucket` && sample.labels.le !== undefined) ||
        sample.name === `${family}_sum` ||
        sample.name === `${family}_count`
      );
    case 'summary':
      return (
        sample.name === family ||
        sample.name === `${family}_sum` ||
        sample.name === `${family}_count`
      );
    case 'counter':
    case 'gauge':
    case 'untyped':
      return sample.name === family;
  }
}

/** Each histogram series has a `+Inf` bucket equal to its count, and buckets that never fall. */
function checkHistogram(family: FamilyDraft): void {
  if (family.type !== 'histogram') return;
  const bySeries = new Map<string, Sample[]>();
  for (const sample of family.samples) {
    const { le: _le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)));
    bySeries.set(key, [...(bySeries.get(key) ?? []), sample]);
  }
  for (const samples of bySeries.values()) {
    const buckets = samples.filter((sample) => sample.name.endsWith('_bucket'));
    const count = samples.find((sample) => sample.name.endsWith('_count'));
    const infinite = buckets.find((sample) => sample.labels.le === '+Inf');
    const line = samples[0]?.line ?? 0;
    if (infinite === undefined || count === undefined || infinite.value !== count.value) {
      throw new ExpositionError(
        line,
        `histogram '${family.name}' lacks a +Inf bucket equal to _count`,
      );
    }
    let previous = -Infinity;
    for (const bucket of buckets) {
      if (bucket.value < previous) {
        throw new ExpositionError(bucket.line, `bucket of '${family.name}' below the one before`);
      }
      previous = bucket.value;
    }
  }
}

const CAMEL_CASE = /[a-z][A-Z]/;
/** Units and the base unit each should be written in. */
const UNITS: Readonly<Record<string, string>> = {
  amperes: 'amperes',
  bytes: 'bytes',
  celsius: 'celsius',
  grams: 'grams',
  joules: 'joules',
  kelvin: 'kelvin',
  meters: 'meters',
  metres: 'metres',
  seconds: 'seconds',
  volts: 'volts',
  minutes: 'seconds',
  hours: 'seconds',
  days: 'seconds',
  weeks: 'seconds',
  kelvins: 'kelvin',
  fahrenheit: 'celsius',
  rankine: 'celsius',
  inches: 'meters',
  yards: 'meters',
  miles: 'meters',
  bits: 'bytes',
  calories: 'joules',
  pounds: 'grams',
  ounces: 'grams',
};
const UNIT_PREFIXES = [
  'pico',
  'nano',
  'micro',
  'milli',
  'centi',
  'deci',
  'deca',
  'hecto',
  'kilo',
  'kibi',
  'mega',
  'mibi',
  'giga',
  'gibi',
  'tera',
  'tebi',
  'peta',
  'pebi',
];
const UNIT_ABBREVIATIONS = [
  's',
  'ms',
  'us',
  'ns',
  'sec',
  'b',
  'kb',
  'mb',
  'gb',
  'tb',
  'pb',
  'm',
  'h',
  'd',
];
/** The type names a metric name must not contain (promlint checks every type but untyped). */
const TYPE_WORDS = ['counter', 'gauge', 'summary', 'histogram', 'gauge_histogram'];

/** The rules of `promtool check metrics`, in promlint's order, over one family. */
export function lintFamily(family: MetricFamily): Problem[] {
  const { name, type } = family;
  const problems: string[] = [];
  const isCounter = type === 'counter';
  const isHistogram = type === 'histogram';
  const isSummary = type === 'summary';
  const typed = type !== 'untyped';
  const labelNames = new Set(family.samples.flatMap((sample) => Object.keys(sample.labels)));

  if (family.help === undefined) problems.push('no help text');

  const unit = unitIn(name);
  if (unit !== undefined && unit.unit !== unit.base) {
    problems.push(`use base unit "${unit.base}" instead of "${unit.unit}"`);
  }

  if (isCounter && !name.endsWith('_total')) {
    problems.push('counter metrics should have "_total" suffix');
  } else if (typed && !isCounter && name.endsWith('_total')) {
    problems.push('non-counter metrics should not have "_total" suffix');
  }

  if (typed) {
    if (!isHistogram && name.endsWith('_bucket')) {
      problems.push('non-histogram metrics should not have "_bucket" suffix');
    }
    if (!isHistogram && !isSummary && name.endsWith('_count')) {
      problems.push('non-histogram and non-summary metrics should not have "_count" suffix');
    }
    if (!isHistogram && !isSummary && name.endsWith('_sum')) {
      problems.push('non-histogram and non-summary metrics should not have "_sum" suffix');
    }
    if (!isHistogram && labelNames.has('le')) {
      problems.push('non-histogram metrics should not have "le" label');
    }
    if (!isSummary && labelNames.has('quantile')) {
      problems.push('non-summary metrics should not have "quantile" label');
    }
  }

  const lower = name.toLowerCase();
  const hasWord = (word: string): boolean =>
    lower.includes(`_${word}_`) || lower.endsWith(`_${word}`);
  if (typed) {
    for (const word of TYPE_WORDS) {
      if (hasWord(word)) problems.push(`metric name should not include type '${word}'`);
    }
  }

  if (name.includes(':')) problems.push("metric names should not contain ':'");

  if (CAMEL_CASE.test(name)) {
    problems.push("metric names should be written in 'snake_case' not 'camelCase'");
  }
  for (const label of labelNames) {
    if (CAMEL_CASE.test(label)) {
      problems.push("label names should be written in 'snake_case' not 'camelCase'");
    }
  }

  for (const abbreviation of UNIT_ABBREVIATIONS) {
    if (hasWord(abbreviation)) problems.push('metric names should not contain abbreviated units');
  }

  return problems.map((text) => ({ metric: name, text }));
}

function unitIn(name: string): { unit: string; base: string } | undefined {
  for (const word of name.split('_')) {
    for (const prefix of ['', ...UNIT_PREFIXES]) {
      if (!word.startsWith(prefix)) continue;
      const base = UNITS[word.slice(prefix.length)];
      if (base !== undefined) return { unit: word, base };
    }
  }
  return undefined;
}

/**
 * What `promtool check metrics` would say about an exposition, one line per problem sorted as
 * it sorts them (`<metric> <text>`); throws `ExpositionError` where the text is malformed.
 */
export function checkMetrics(text: string): string[] {
  return parseExposition(text)
    .flatMap(lintFamily)
    .sort((a, b) => (a.metric === b.metric ? compare(a.text, b.text) : compare(a.metric, b.metric)))
    .map((problem) => `${problem.metric} ${problem.text}`);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
