// The checker the Prometheus scrape test relies on: it must catch every broken rule it claims
// to, and read only well-formed text.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ExpositionError, checkMetrics, parseExposition } from './prometheus-lint.js';
import { promtoolPath } from './promtool.js';

const CLEAN = [
  '# HELP jobs_done_total Jobs done.',
  '# TYPE jobs_done_total counter',
  'jobs_done_total{queue="a",status="ok"} 3',
  'jobs_done_total{queue="b \\"quoted\\" \\\\ \\n",status="ok",} 1.5e3',
  '# HELP queue_depth Jobs waiting.',
  '# TYPE queue_depth gauge',
  'queue_depth 0',
  '# HELP job_duration_seconds Time a job took.',
  '# TYPE job_duration_seconds histogram',
  'job_duration_seconds_bucket{le="0.1",queue="a"} 1',
  'job_duration_seconds_bucket{le="+Inf",queue="a"} 2',
  'job_duration_seconds_sum{queue="a"} 0.35',
  'job_duration_seconds_count{queue="a"} 2',
  '# HELP free_ratio Share free.',
  '# TYPE free_ratio gauge',
  'free_ratio NaN',
  '',
].join('\n');

/** One family per rule, each breaking that rule and no other. */
const BAD: readonly { readonly rule: string; readonly text: string; readonly problem: string }[] = [
  {
    rule: 'a counter without _total',
    text: '# HELP jobs_done Jobs.\n# TYPE jobs_done counter\njobs_done 1\n',
    problem: 'jobs_done counter metrics should have "_total" suffix',
  },
  {
    rule: 'a gauge with _total',
    text: '# HELP handles_total Handles.\n# TYPE handles_total gauge\nhandles_total 1\n',
    problem: 'handles_total non-counter metrics should not have "_total" suffix',
  },
  {
    rule: 'a unit that is not a base unit',
    text: '# HELP wait_milliseconds Wait.\n# TYPE wait_milliseconds gauge\nwait_milliseconds 1\n',
    problem: 'wait_milliseconds use base unit "seconds" instead of "milliseconds"',
  },
  {
    rule: 'an abbreviated unit',
    text: '# HELP wait_ms Wait.\n# TYPE wait_ms gauge\nwait_ms 1\n',
    problem: 'wait_ms metric names should not contain abbreviated units',
  },
  {
    rule: 'no HELP line',
    text: '# TYPE queue_depth gauge\nqueue_depth 1\n',
    problem: 'queue_depth no help text',
  },
  {
    rule: 'a camelCase metric name',
    text: '# HELP queueDepth Depth.\n# TYPE queueDepth gauge\nqueueDepth 1\n',
    problem: "queueDepth metric names should be written in 'snake_case' not 'camelCase'",
  },
  {
    rule: 'a camelCase label name',
    text: '# HELP queue_depth Depth.\n# TYPE queue_depth gauge\nqueue_depth{queueName="a"} 1\n',
    problem: "queue_depth label names should be written in 'snake_case' not 'camelCase'",
  },
  {
    rule: 'a gauge ending in _count',
    text: '# HELP jobs_count Jobs.\n# TYPE jobs_count gauge\njobs_count 1\n',
    problem: 'jobs_count non-histogram and non-summary metrics should not have "_count" suffix',
  },
  {
    rule: 'a gauge ending in _sum',
    text: '# HELP jobs_sum Jobs.\n# TYPE jobs_sum gauge\njobs_sum 1\n',
    problem: 'jobs_sum non-histogram and non-summary metrics should not have "_sum" suffix',
  },
  {
    rule: 'a gauge ending in _bucket',
    text: '# HELP jobs_bucket Jobs.\n# TYPE jobs_bucket gauge\njobs_bucket 1\n',
    problem: 'jobs_bucket non-histogram metrics should not have "_bucket" suffix',
  },
  {
    rule: 'an le label outside a histogram',
    text: '# HELP jobs_waiting Jobs.\n# TYPE jobs_waiting gauge\njobs_waiting{le="1"} 1\n',
    problem: 'jobs_waiting non-histogram metrics should not have "le" label',
  },
  {
    rule: 'the type in the name',
    text: '# HELP jobs_gauge Jobs.\n# TYPE jobs_gauge gauge\njobs_gauge 1\n',
    problem: "jobs_gauge metric name should not include type 'gauge'",
  },
  {
    rule: 'a colon in the name',
    text: '# HELP job:rate Jobs.\n# TYPE job:rate gauge\njob:rate 1\n',
    problem: "job:rate metric names should not contain ':'",
  },
];

/** Text the format does not allow, with what the parser must say about it. */
const MALFORMED: readonly {
  readonly rule: string;
  readonly text: string;
  readonly error: RegExp;
}[] = [
  {
    rule: 'a sample of no declared family',
    text: '# HELP a A.\n# TYPE a gauge\na 1\nb 1\n',
    error: /line 4: sample 'b' follows no TYPE line/,
  },
  {
    rule: 'a sample without any TYPE line',
    text: 'a 1\n',
    error: /line 1: sample 'a' follows no TYPE line/,
  },
  {
    rule: 'a TYPE line after the samples',
    text: '# HELP a A.\na 1\n# TYPE a gauge\n',
    error: /line 2: sample 'a' follows no TYPE line/,
  },
  {
    rule: 'a second TYPE line',
    text: '# TYPE a gauge\n# TYPE a gauge\n',
    error: /second TYPE line/,
  },
  {
    rule: 'an unknown type',
    text: '# TYPE a meter\n',
    error: /unknown type 'meter'/,
  },
  {
    rule: 'a family split by another',
    text: '# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\n# HELP a A.\n',
    error: /family 'a' continues after another family/,
  },
  {
    rule: 'an unquoted label value',
    text: '# TYPE a gauge\na{x=1} 1\n',
    error: /label 'x' of 'a' has no quoted value/,
  },
  {
    rule: 'a label name that is not one',
    text: '# TYPE a gauge\na{1x="1"} 1\n',
    error: /bad label name '1x'/,
  },
  {
    rule: 'a reserved label name',
    text: '# TYPE a gauge\na{__name__="1"} 1\n',
    error: /bad label name '__name__'/,
  },
  {
    rule: 'a label given twice',
    text: '# TYPE a gauge\na{x="1",x="2"} 1\n',
    error: /label 'x' given twice/,
  },
  {
    rule: 'labels not closed',
    text: '# TYPE a gauge\na{x="1" 1\n',
    error: /expected ',' or '}'/,
  },
  {
    rule: 'a value that is no number',
    text: '# TYPE a gauge\na one\n',
    error: /value 'one' of 'a' is not a number/,
  },
  {
    rule: 'a missing value',
    text: '# TYPE a gauge\na{x="1"}\n',
    error: /value '' of 'a' is not a number/,
  },
  {
    rule: 'the same series twice',
    text: '# TYPE a gauge\na{x="1",y="2"} 1\na{y="2",x="1"} 2\n',
    error: /series a\{x="1",y="2"\} given twice/,
  },
  {
    rule: 'a histogram without a +Inf bucket',
    text: '# TYPE h_seconds histogram\nh_seconds_bucket{le="1"} 1\nh_seconds_sum 1\nh_seconds_count 1\n',
    error: /lacks a \+Inf bucket/,
  },
  {
    rule: 'a bucket sample without le',
    text: '# TYPE h_seconds histogram\nh_seconds_bucket 1\n',
    error: /sample 'h_seconds_bucket' follows no TYPE line/,
  },
];

describe('Prometheus text checker (promtool check metrics)', () => {
  it('reads a well-formed exposition into its families and finds nothing wrong', () => {
    const families = parseExposition(CLEAN);
    expect(families.map((family) => [family.name, family.type])).toEqual([
      ['jobs_done_total', 'counter'],
      ['queue_depth', 'gauge'],
      ['job_duration_seconds', 'histogram'],
      ['free_ratio', 'gauge'],
    ]);
    expect(families[0]?.samples[1]).toMatchObject({
      labels: { queue: 'b "quoted" \\ \n', status: 'ok' },
      value: 1500,
    });
    expect(families[2]?.samples[1]?.labels.le).toBe('+Inf');
    expect(checkMetrics(CLEAN)).toEqual([]);
  });

  for (const { rule, text, problem } of BAD) {
    it(`reports ${rule}`, () => {
      expect(checkMetrics(text)).toEqual([problem]);
    });
  }

  for (const { rule, text, error } of MALFORMED) {
    it(`refuses ${rule}`, () => {
      expect(() => parseExposition(text)).toThrow(ExpositionError);
      expect(() => parseExposition(text)).toThrow(error);
    });
  }

  const promtool = promtoolPath();
  it.skipIf(promtool === undefined)(
    'agrees with promtool check metrics on each bad case and the clean one, where promtool is on the PATH',
    () => {
      for (const { text, problem } of BAD) {
        const run = spawnSync(promtool ?? 'promtool', ['check', 'metrics'], {
          input: text,
          encoding: 'utf8',
        });
        expect(run.stderr.trim(), text).toBe(problem);
      }
      const clean = spawnSync(promtool ?? 'promtool', ['check', 'metrics'], {
        input: CLEAN,
        encoding: 'utf8',
      });
      expect(clean.status, clean.stderr).toBe(0);
    },
  );
});
