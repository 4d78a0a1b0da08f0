import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../core/index.js';
import type { WorkflowRecord } from '../../engine/index.js';
import {
  describeSessionStoreConformance,
  sessionRecord,
  workflowRecord,
} from '../conformance/session-store.conformance.js';
import { crashWriterPath } from '../testing/index.js';
import { fileNameForId } from './file-name-for-id.js';
import { FILE_FORMAT_VERSION, FileSessionStore } from './file-session-store.js';

function makeBaseDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'svc-store-'));
}

describeSessionStoreConformance('file', async () => {
  const baseDir = await makeBaseDir();
  return {
    store: new FileSessionStore({ baseDir }),
    reopen: () => Promise.resolve(new FileSessionStore({ baseDir })),
    cleanup: () => rm(baseDir, { recursive: true, force: true }),
  };
});

describe('FileSessionStore', () => {
  let baseDir: string;
  const opened: FileSessionStore[] = [];

  beforeEach(async () => {
    baseDir = await makeBaseDir();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await rm(baseDir, { recursive: true, force: true });
  });

  function storeOn(directory = baseDir): FileSessionStore {
    const store = new FileSessionStore({ baseDir: directory });
    opened.push(store);
    return store;
  }

  async function openStore(): Promise<FileSessionStore> {
    const store = storeOn();
    await store.open();
    return store;
  }

  function sessionDir(sessionId: string): string {
    return path.join(baseDir, 'sessions', fileNameForId(sessionId));
  }

  function workflowPath(sessionId: string, workflowId: string): string {
    return path.join(sessionDir(sessionId), 'workflows', `${fileNameForId(workflowId)}.json`);
  }

  async function readJson(file: string): Promise<unknown> {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  }

  async function exists(file: string): Promise<boolean> {
    return stat(file).then(
      () => true,
      () => false,
    );
  }

  /** Saves one session with one workflow, then closes the store. */
  async function seed(): Promise<void> {
    const store = await openStore();
    await store.putSession(sessionRecord('s1'));
    await store.putWorkflow(workflowRecord('s1', 'w1', 2));
    await store.close();
  }

  async function expectDamaged(file: string, detail: RegExp): Promise<void> {
    const error: unknown = await storeOn()
      .open()
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'STORE_DAMAGED', params: { file } });
    expect((error as AppError).message).toContain(file);
    expect((error as AppError).message).toMatch(detail);
  }

  describe('layout', () => {
    it('keeps each record in its own JSON file carrying the format version', async () => {
      const store = await openStore();
      await store.putSession(sessionRecord('a b'));
      await store.putWorkflow(workflowRecord('a b', 'x.y'));
      expect(await readJson(path.join(baseDir, 'sessions', 'a%20b', 'session.json'))).toEqual({
        format: FILE_FORMAT_VERSION,
        session: sessionRecord('a b'),
      });
      expect(
        await readJson(path.join(baseDir, 'sessions', 'a%20b', 'workflows', 'x%2Ey.json')),
      ).toEqual({ format: FILE_FORMAT_VERSION, workflow: workflowRecord('a b', 'x.y') });
    });

    it('names files of over-long ids by hash and keeps the real id inside', async () => {
      const longId = 'y'.repeat(300);
      const store = await openStore();
      await store.putSession(sessionRecord(longId));
      const [name] = await readdir(path.join(baseDir, 'sessions'));
      expect(name).toMatch(/^@sha256-[0-9a-f]{64}$/);
      expect(await readJson(path.join(baseDir, 'sessions', name ?? '', 'session.json'))).toEqual({
        format: FILE_FORMAT_VERSION,
        session: sessionRecord(longId),
      });
    });

    it('creates a missing base directory, parents included', async () => {
      const nested = path.join(baseDir, 'deeper', 'still');
      const store = storeOn(nested);
      await store.open();
      await store.putSession(sessionRecord('s1'));
      expect(await exists(path.join(nested, 'sessions', 's1', 'session.json'))).toBe(true);
    });

    it('removes a deleted session directory without leaving anything in the trash', async () => {
      const store = await openStore();
      await store.putSession(sessionRecord('s1'));
      await store.putWorkflow(workflowRecord('s1', 'w1'));
      await store.deleteSession('s1');
      expect(await readdir(path.join(baseDir, 'sessions'))).toEqual([]);
      expect(await readdir(path.join(baseDir, 'trash'))).toEqual([]);
    });

    it('unlinks the file of a deleted workflow', async () => {
      const store = await openStore();
      await store.putSession(sessionRecord('s1'));
      await store.putWorkflow(workflowRecord('s1', 'w1'));
      await store.deleteWorkflow('s1', 'w1');
      expect(await exists(workflowPath('s1', 'w1'))).toBe(false);
    });
  });

  describe('open', () => {
    it('fails naming the file when a session.json is not valid JSON', async () => {
      await seed();
      const file = path.join(sessionDir('s1'), 'session.json');
      await writeFile(file, '{"format":1,"session":{"sessionId":');
      await expectDamaged(file, /not valid JSON/);
    });

    it('fails naming the file when a workflow file is not valid JSON', async () => {
      await seed();
      const file = workflowPath('s1', 'w1');
      await writeFile(file, '');
      await expectDamaged(file, /not valid JSON/);
    });

    it('fails naming the file and field when a workflow is not a valid record', async () => {
      await seed();
      const file = workflowPath('s1', 'w1');
      const workflow = workflowRecord('s1', 'w1', 2);
      const broken = { ...workflow, versions: [{ ...workflow.versions[0], version: '1' }] };
      await writeFile(file, JSON.stringify({ format: FILE_FORMAT_VERSION, workflow: broken }));
      await expectDamaged(file, /workflow\.versions\[0\]\.version must be an integer/);
    });

    it('fails naming the file when a session is not a valid record', async () => {
      await seed();
      const file = path.join(sessionDir('s1'), 'session.json');
      const broken = { ...sessionRecord('s1'), name: 42 };
      await writeFile(file, JSON.stringify({ format: FILE_FORMAT_VERSION, session: broken }));
      await expectDamaged(file, /session\.name must be a string/);
    });

    it('fails naming the file when its format version is unknown', async () => {
      await seed();
      const file = path.join(sessionDir('s1'), 'session.json');
      await writeFile(file, JSON.stringify({ format: 99, session: sessionRecord('s1') }));
      await expectDamaged(file, /format version 99/);
    });

    it('fails naming the file when a workflow sits in another session', async () => {
      await seed();
      const file = workflowPath('s1', 'w1');
      await writeFile(
        file,
        JSON.stringify({ format: FILE_FORMAT_VERSION, workflow: workflowRecord('s2', 'w1') }),
      );
      await expectDamaged(file, /belongs to session 's2'/);
    });

    it('fails naming the file when a record sits under a name not made from its id', async () => {
      await seed();
      const file = workflowPath('s1', 'other');
      await writeFile(
        file,
        JSON.stringify({ format: FILE_FORMAT_VERSION, workflow: workflowRecord('s1', 'w1') }),
      );
      await expectDamaged(file, /does not belong in file/);
    });

    it('ignores a session directory without session.json and leaves it on disk', async () => {
      await seed();
      const interrupted = sessionDir('half-made');
      await mkdir(path.join(interrupted, 'workflows'), { recursive: true });
      await writeFile(path.join(interrupted, 'workflows', 'stale.json'), 'not even JSON');
      const store = await openStore();
      expect((await store.listSessions()).map((session) => session.sessionId)).toEqual(['s1']);
      expect(await store.getSession('half-made')).toBeUndefined();
      expect(await exists(interrupted)).toBe(true);
    });

    it('starts a session afresh where an interrupted creation left a directory', async () => {
      const interrupted = sessionDir('again');
      await mkdir(path.join(interrupted, 'workflows'), { recursive: true });
      await writeFile(
        path.join(interrupted, 'workflows', `${fileNameForId('old')}.json`),
        JSON.stringify({ format: FILE_FORMAT_VERSION, workflow: workflowRecord('again', 'old') }),
      );
      const store = await openStore();
      await store.putSession(sessionRecord('again'));
      expect(await store.listWorkflows('again')).toEqual([]);
      await store.close();
      expect(await (await openStore()).listWorkflows('again')).toEqual([]);
    });

    it('removes temporary files a crash left behind and keeps the records', async () => {
      await seed();
      const leftovers = [
        path.join(sessionDir('s1'), '.session.json.123.abcdef.tmp'),
        path.join(sessionDir('s1'), 'workflows', '.w1.json.123.abcdef.tmp'),
      ];
      for (const leftover of leftovers) await writeFile(leftover, '{"torn":');
      const store = await openStore();
      for (const leftover of leftovers) expect(await exists(leftover)).toBe(false);
      expect(await store.getSession('s1')).toEqual(sessionRecord('s1'));
      expect(await store.getWorkflow('s1', 'w1')).toEqual(workflowRecord('s1', 'w1', 2));
    });

    it('clears what an interrupted delete left in the trash', async () => {
      await seed();
      const leftover = path.join(baseDir, 'trash', 's1.0123456789ab');
      await mkdir(path.join(leftover, 'workflows'), { recursive: true });
      await writeFile(path.join(leftover, 'session.json'), 'anything');
      await openStore();
      expect(await exists(leftover)).toBe(false);
    });

    it('rejects reads and writes with STORE_FAILED before open() and after close()', async () => {
      const store = storeOn();
      await expect(store.listSessions()).rejects.toMatchObject({ code: 'STORE_FAILED' });
      await expect(store.putSession(sessionRecord('s1'))).rejects.toMatchObject({
        code: 'STORE_FAILED',
      });
      await store.open();
      await store.putSession(sessionRecord('s1'));
      await store.close();
      await expect(store.getSession('s1')).rejects.toMatchObject({ code: 'STORE_FAILED' });
      await store.open();
      expect(await store.getSession('s1')).toEqual(sessionRecord('s1'));
    });
  });

  describe('writes', () => {
    it('applies a delete and a re-creation of one session in call order', async () => {
      const store = await openStore();
      await store.putSession(sessionRecord('s1'));
      const calls = [
        store.putWorkflow(workflowRecord('s1', 'w1')),
        store.deleteSession('s1'),
        store.putSession(sessionRecord('s1', { name: 'second' })),
        store.putWorkflow(workflowRecord('s1', 'w2')),
      ];
      await Promise.all(calls);
      await store.close();
      const reopened = await openStore();
      expect((await reopened.getSession('s1'))?.name).toBe('second');
      expect(await reopened.listWorkflows('s1')).toEqual([workflowRecord('s1', 'w2')]);
    });

    it('waits in close() for writes under way', async () => {
      const store = await openStore();
      await store.putSession(sessionRecord('s1'));
      const writes = Array.from({ length: 5 }, (_, index) =>
        store.putWorkflow(workflowRecord('s1', 'w1', index + 1)),
      );
      await store.close();
      await Promise.all(writes);
      expect(await (await openStore()).getWorkflow('s1', 'w1')).toEqual(
        workflowRecord('s1', 'w1', 5),
      );
    });

    it('rejects a record JSON cannot carry with STORE_FAILED and keeps the stored one', async () => {
      const store = await openStore();
      await store.putSession(sessionRecord('s1'));
      await store.putWorkflow(workflowRecord('s1', 'w1'));
      const unstorable = structuredClone(workflowRecord('s1', 'w1', 2));
      Object.assign(unstorable.versions[1]?.definition.nodes[0] ?? {}, {
        config: { big: 1n },
      });
      await expect(store.putWorkflow(unstorable)).rejects.toMatchObject({ code: 'STORE_FAILED' });
      const stored = workflowRecord('s1', 'w1');
      const noVersion: WorkflowRecord = {
        ...stored,
        versions: stored.versions.map((version) => ({ ...version, version: Number.NaN })),
      };
      await expect(store.putWorkflow(noVersion)).rejects.toMatchObject({ code: 'STORE_FAILED' });
      expect(await store.getWorkflow('s1', 'w1')).toEqual(workflowRecord('s1', 'w1'));
    });
  });

  describe('crash safety', () => {
    const sessionId = 'crash';
    const workflowId = 'crash workflow';
    const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

    /** Resolves with the last version the writer acknowledged once it acknowledged `count`. */
    function waitForAcknowledged(child: ChildProcess, count: number): Promise<number> {
      return new Promise((resolve, reject) => {
        let acknowledged = 0;
        let pendingLine = '';
        let errors = '';
        const fail = (why: string): void => {
          clearTimeout(timer);
          reject(new Error(`${why}; ${acknowledged} writes acknowledged; stderr: ${errors}`));
        };
        const timer = setTimeout(() => {
          fail('the writer was too slow');
        }, 8_000);
        child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
        child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
          const lines = (pendingLine + chunk).split('\n');
          pendingLine = lines.pop() ?? '';
          for (const line of lines) acknowledged = Number(line);
          if (acknowledged >= count) {
            clearTimeout(timer);
            resolve(acknowledged);
          }
        });
        child.on('exit', (code, signal) => {
          fail(`the writer exited early (${code ?? signal ?? 'unknown'})`);
        });
      });
    }

    // A killed process tests atomicity and ordering; the page cache survives it, so fsync is
    // taken on trust here. The kill lands at a varying point of the write under way, since a
    // torn file only shows when the kill falls between a file's truncation and its last byte.
    it('loses no acknowledged write when the writing process is killed mid-write', async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', crashWriterPath, baseDir, sessionId, workflowId],
        { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const exited = once(child, 'exit');
      let lastAcknowledged: number;
      try {
        lastAcknowledged = await waitForAcknowledged(child, 100);
        // A random moment after the hundredth write: the crash lands anywhere in a write.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
      } finally {
        child.kill('SIGKILL');
        await exited;
      }

      const store = await openStore();
      const workflow = await store.getWorkflow(sessionId, workflowId);
      const versions = workflow?.versions.map((version) => version.version) ?? [];
      const current = versions.at(-1) ?? 0;
      expect(current).toBeGreaterThanOrEqual(lastAcknowledged);
      expect(versions).toEqual(Array.from({ length: 20 }, (_, index) => current - 19 + index));
      const names = await readdir(path.dirname(workflowPath(sessionId, workflowId)));
      expect(names).toEqual([`${fileNameForId(workflowId)}.json`]);
    }, 10_000);
  });
});
