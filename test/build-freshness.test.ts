// CONTRACT 6 Commands: `npm start` builds first when nothing is built, and also when a source
// of the build (src/, web/, package.json) changed after it. The decision is tested on a
// temporary tree, never on the repository's own dist/, which other tests read meanwhile.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleReason } from '../scripts/build-freshness.mjs';

const BUILT_AT = new Date('2026-01-01T12:00:00Z');
const EARLIER = new Date('2026-01-01T11:00:00Z');
const LATER = new Date('2026-01-01T13:00:00Z');

describe('npm start: when to build first', () => {
  let root: string;
  const file = (path: string, at: Date): void => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, '');
    utimesSync(full, at, at);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-build-freshness-'));
    file('package.json', EARLIER);
    file('src/main.ts', EARLIER);
    file('web/src/app.tsx', EARLIER);
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const build = (): void => {
    file('dist/main.js', BUILT_AT);
    file('dist/build-info.json', BUILT_AT);
  };

  it('builds when nothing is built, or a build stopped before its end', () => {
    expect(staleReason(root)).toBe('nothing is built');
    file('dist/main.js', BUILT_AT);
    expect(staleReason(root)).toBe('nothing is built');
  });

  it('starts the build as it is when no source changed after it', () => {
    build();
    expect(staleReason(root)).toBeUndefined();
  });

  it.each(['src/engine/run.ts', 'web/src/app.tsx', 'package.json'])(
    'builds again when %s changed after the build',
    (path) => {
      build();
      file(path, LATER);
      expect(staleReason(root)).toBe(`${path} changed after the last build`);
    },
  );

  it('does not build again for a changed test, which is not part of the build', () => {
    build();
    file('src/engine/run.test.ts', LATER);
    expect(staleReason(root)).toBeUndefined();
  });
});
