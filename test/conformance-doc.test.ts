// docs/conformance.md maps every rule of SPEC and CONTRACT to the tests that prove it; this
// keeps its references true: every `file › title` names a test file and a test in it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = readFileSync(path.join(root, 'docs/conformance.md'), 'utf8');

/** `file` › title pairs of the "Proven by" cells. */
function references(): { file: string; title: string }[] {
  const found: { file: string; title: string }[] = [];
  for (const line of doc.split('\n')) {
    if (!line.startsWith('| ')) continue;
    const cells = line.split(' | ');
    const proven = cells[2];
    if (proven === undefined) continue;
    for (const part of proven.split('<br>')) {
      const match = /^`([^`]+)` › (.+)$/.exec(part.trim());
      if (match?.[1] !== undefined && match[2] !== undefined) {
        found.push({ file: match[1], title: match[2] });
      }
    }
  }
  return found;
}

/** The titles of `it(...)` and `it.each(...)(...)` calls, as the source writes them. */
function titlesOf(source: string): Set<string> {
  const titles = new Set<string>();
  const pattern = /\bit(?:\.each\([\s\S]*?\))?\(\s*(['"`])((?:\\.|(?!\1)[\s\S])*)\1/g;
  for (const match of source.matchAll(pattern)) {
    const raw = match[2] ?? '';
    titles.add(raw.replace(/\\(['"`\\])/g, '$1'));
  }
  return titles;
}

describe('docs/conformance.md', () => {
  it('names only test files and tests that exist', () => {
    const refs = references();
    expect(refs.length).toBeGreaterThan(500);
    const broken: string[] = [];
    const cache = new Map<string, Set<string>>();
    for (const { file, title } of refs) {
      const full = path.join(root, file);
      if (!existsSync(full)) {
        broken.push(`${file} (no such file)`);
        continue;
      }
      let titles = cache.get(file);
      if (titles === undefined) {
        titles = titlesOf(readFileSync(full, 'utf8'));
        cache.set(file, titles);
      }
      if (!titles.has(title)) broken.push(`${file} › ${title}`);
    }
    expect([...new Set(broken)]).toEqual([]);
  });

  it('sums the statuses of each part in its summary table', () => {
    const [body = '', summary = ''] = doc.split('\n## Summary');
    const counted: number[][] = [];
    for (const line of body.split('\n')) {
      if (line.startsWith('## ')) counted.push([0, 0, 0]);
      const status = line.startsWith('| ') ? line.split(' | ')[1] : undefined;
      const column = ['done', 'partial', 'missing'].indexOf(status ?? '');
      const part = counted.at(-1);
      if (column !== -1 && part !== undefined) part[column] = (part[column] ?? 0) + 1;
    }
    const stated = summary
      .split('\n')
      .filter((line) => /^\| [A-Z]/.test(line) && !line.startsWith('| Part'))
      .map((line) =>
        line
          .split('|')
          .slice(2, 5)
          .map((cell) => Number(cell.trim())),
      );
    expect(stated).toEqual(counted);
  });
});
