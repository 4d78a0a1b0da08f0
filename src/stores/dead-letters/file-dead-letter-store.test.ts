import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadLetter, describeDeadLetterStoreConformance } from './dead-letter-store.conformance.js';
import { FileDeadLetterStore } from './file-dead-letter-store.js';

function makeDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'svc-dead-letters-'));
}

describeDeadLetterStoreConformance('file', async () => {
  const dir = await makeDir();
  return {
    store: new FileDeadLetterStore(dir),
    reopen: () => Promise.resolve(new FileDeadLetterStore(dir)),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('file dead-letter store', () => {
  it('removes what a crash left of a write and keeps the letter as it was', async () => {
    const dir = await makeDir();
    try {
      const store = new FileDeadLetterStore(dir);
      await store.open();
      await store.add(deadLetter('l1'));
      await writeFile(path.join(dir, '.l1.json.1.abc.tmp'), '{"id":"l1","redri');
      const reopened = new FileDeadLetterStore(dir);
      await reopened.open();
      expect(await reopened.get('l1')).toEqual(deadLetter('l1'));
      expect(await readdir(dir)).toEqual(['l1.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to open over a damaged letter, naming its file', async () => {
    const dir = await makeDir();
    try {
      await writeFile(path.join(dir, 'l1.json'), 'not json');
      await expect(new FileDeadLetterStore(dir).open()).rejects.toThrow(/l1\.json/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
