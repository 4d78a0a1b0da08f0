// CONTRACT 6 Commands: `npm run bench` runs the benchmarks, printing a table and writing JSON
// under bench/results/. One benchmark group is run (the whole set takes minutes); the figures
// themselves are checked by the benchmarks' goals, not here. Results a developer had in
// bench/results/latest.json are put back afterwards.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit } from './support/process.js';
import type { ProcessResult } from './support/process.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const latest = join(root, 'bench/results/latest.json');

function npm(args: readonly string[]): Promise<ProcessResult> {
  return runToExit('npm', args, { timeoutMs: 200_000 });
}

describe('npm run bench', () => {
  let kept: string | undefined;
  beforeAll(() => {
    kept = existsSync(latest) ? readFileSync(latest, 'utf8') : undefined;
  });
  afterAll(() => {
    if (kept === undefined) rmSync(latest, { force: true });
    else writeFileSync(latest, kept);
  });

  it('prints a table and writes the results as JSON under bench/results/', async () => {
    rmSync(latest, { force: true });
    const run = await npm(['run', '--silent', 'bench', '--', 'workflow']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const header = lines.findIndex((line) =>
      /^benchmark\s+value\s+baseline\s+ratio\s+goal/.test(line),
    );
    expect(header, run.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[header + 1]).toMatch(/^-+(\s+-+){4}\s*$/);

    const results = JSON.parse(readFileSync(latest, 'utf8')) as unknown;
    expect(Array.isArray(results)).toBe(true);
    const rows = results as { name: string; value: number; unit: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.name.startsWith('workflow.'), row.name).toBe(true);
      expect(typeof row.value).toBe('number');
      expect(typeof row.unit).toBe('string');
      // Every benchmark written is a row of the printed table.
      expect(lines.some((line) => line.startsWith(`${row.name} `))).toBe(true);
    }
  }, 240_000);

  it('names the known benchmarks when none matches, and writes nothing', async () => {
    rmSync(latest, { force: true });
    const run = await npm(['run', '--silent', 'bench', '--', 'no.such.benchmark']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No benchmark matches no.such.benchmark; known: workflow');
    expect(existsSync(latest)).toBe(false);
  }, 240_000);
});
