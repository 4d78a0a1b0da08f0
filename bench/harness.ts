// Shared benchmark plumbing: timing, statistics, the results table and bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { systemClock } from '../src/core/index.js';
import { RunClock, WorkflowRun } from '../src/engine/index.js';
import type { NodePlacement, WorkflowPlan } from '../src/engine/index.js';

export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The same measure for a raw baseline, taken in the same run. */
  readonly baseline?: number;
  /** value / baseline. */
  readonly ratio?: number;
  readonly goal?: string;
}

export interface Bench {
  readonly name: string;
  run(): Promise<BenchResult[]>;
}

/** Median time of `iterations` calls of `work`, after `warmup` calls, in milliseconds. */
export async function medianMs(
  work: () => unknown,
  iterations: number,
  warmup = 5,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

/** The middle value of `values` (the upper one of an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * How many times a figure and its baseline are measured back to back; the median is kept.
 * Five, not three: single pairs of the events benchmark spread from 0.71 to 1.28 on this host,
 * and the median of three still moved from 0.77 to 0.93 between full runs of the same code.
 */
const PAIRS = 5;

/**
 * Calls `measure` `times` in a row and answers the measure whose `ratio` is the median. On a
 * shared host one figure moves by a tenth or more with what else the two cores run: the code
 * under test and its baseline, measured back to back within one call, share the host's state,
 * and the median leaves out an odd pair either way.
 */
export async function medianPair<T>(
  measure: () => Promise<T>,
  ratio: (measured: T) => number,
  times = PAIRS,
): Promise<T> {
  const measured: T[] = [];
  for (let time = 0; time < times; time++) measured.push(await measure());
  measured.sort((a, b) => ratio(a) - ratio(b));
  const median = measured[Math.floor(times / 2)];
  if (median === undefined) throw new Error('nothing was measured');
  return median;
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function printTable(results: readonly BenchResult[]): void {
  const rows = results.map((result) => [
    result.name,
    `${round(result.value)} ${result.unit}`,
    result.baseline === undefined ? '' : `${round(result.baseline)} ${result.unit}`,
    result.ratio === undefined ? '' : String(round(result.ratio, 2)),
    result.goal ?? '',
  ]);
  const header = ['benchmark', 'value', 'baseline', 'ratio', 'goal'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  process.stdout.write(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

export function writeResults(results: readonly BenchResult[], file: URL): void {
  mkdirSync(new URL('.', file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * A bare engine run of `plan`, with no listener, logger or sub-workflows: the engine alone,
 * and the placement port when the plan places nodes on workers.
 */
export function bareRun(plan: WorkflowPlan, id: string, placement?: NodePlacement): WorkflowRun {
  return new WorkflowRun({
    executionId: id,
    sessionId: 'bench',
    workflowId: plan.definition.workflowId,
    lineage: id,
    startPayload: undefined,
    plan,
    clock: new RunClock(systemClock),
    services: {
      logger: { isLevelEnabled: () => false, trace: () => undefined },
      ...(placement === undefined ? {} : { placement }),
    },
    events: {
      nodeChanged: () => undefined,
      result: () => undefined,
      log: () => undefined,
      edgeDropped: () => undefined,
    },
    host: { runSubWorkflow: () => Promise.resolve([]) },
  });
}
