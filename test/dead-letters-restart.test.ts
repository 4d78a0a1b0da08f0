// Dead letters across a server restart (docs/dead-letters.md), on a real server process killed
// with SIGKILL and started again on the same stores, with the file stores and with PostgreSQL:
// letters are kept, can be redriven and deleted, and keep their marks.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doubling } from './support/workflows.js';
import { postgresUnavailable } from './support/postgres.js';
import { Restartable, postgresServers } from './support/restored-history.js';
import { eventually } from './support/wait.js';

interface Letter {
  readonly id: string;
  readonly payload: unknown;
  readonly redrivenAs: string | null;
}

async function lettersOf(servers: Restartable): Promise<Letter[]> {
  const answer = await servers.call('GET', '/api/dead-letters');
  expect(answer.status).toBe(200);
  return answer.json.data.items as Letter[];
}

/** Letters of a run before a crash are kept, redriven and deleted after it. */
async function expectLettersAfterCrash(servers: Restartable): Promise<void> {
  await servers.define([doubling()]);
  const id = await servers.run('doubling');
  // A letter is listed once it is stored: what is listed survives the crash.
  const before = await eventually(
    () => lettersOf(servers),
    (letters) => letters.length === 2,
    10_000,
  );
  await servers.crashAndBoot();
  expect(await lettersOf(servers)).toEqual(before);
  const [redrive, remove] = before;
  const answer = await servers.call('POST', `/api/dead-letters/${redrive?.id ?? ''}/redrive`, {
    payload: 5,
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(202);
  const redriven = await servers.ended(answer.json.data.executionId as string);
  expect(redriven).toMatchObject({ status: 'COMPLETED', restartOf: id });
  expect(
    ((await servers.results(redriven.executionId as string)) as { payload: unknown }[]).map(
      (result) => result.payload,
    ),
  ).toEqual([10]);
  expect((await servers.call('DELETE', `/api/dead-letters/${remove?.id ?? ''}`)).status).toBe(200);

  await servers.crashAndBoot();
  const after = await lettersOf(servers);
  expect(after.map((letter) => [letter.id, letter.redrivenAs])).toEqual([
    [redrive?.id, redriven.executionId],
  ]);
}

describe('dead letters after a restart with the file stores', () => {
  let dir: string;
  let servers: Restartable;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dead-letters-'));
    servers = new Restartable([], () => ({
      SVC_SESSION_STORE_TYPE: 'file',
      SVC_SESSION_BASE_DIR: path.join(dir, 'sessions'),
      SVC_EXECUTION_LOG_DIR: path.join(dir, 'log'),
      SVC_RESTART_DIR: path.join(dir, 'checkpoints'),
    }));
    await servers.boot();
  });
  afterEach(async () => {
    await servers.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps letters, redrives and deletes them, and keeps their marks', async () => {
    await expectLettersAfterCrash(servers);
  });
});

const unavailable = await postgresUnavailable();
const skipped = unavailable === undefined ? '' : ` (skipped: ${unavailable})`;

describe.skipIf(unavailable !== undefined)(
  `dead letters after a restart with the postgres profile${skipped}`,
  () => {
    const servers = postgresServers();

    it('keeps letters, redrives and deletes them, and keeps their marks', async () => {
      await expectLettersAfterCrash(servers());
    });
  },
);
