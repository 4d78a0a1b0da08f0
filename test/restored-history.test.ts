// History after a restart (SPEC "Deployment facts", "Recover conditions", Restart rules, Events
// 5 and 6), on a real server process with the file stores and with PostgreSQL, killed with
// SIGKILL and started again on the same stores: a run that ended keeps its status, error, results and log
// lines, is not announced again, and can be restarted, restarted from a node or retried.
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresUnavailable } from './support/postgres.js';
import {
  Restartable,
  expectHistoryKept,
  expectNodeMessagesAfterCrash,
  expectRepairsAfterCrash,
  expectReplayCheckAfterCrash,
  expectRestartsAfterCrash,
  postgresServers,
  printed,
} from './support/restored-history.js';

/** A server on stores in a fresh directory, for each test of the suite. */
function serversOn(settings: (dir: string) => Record<string, string>): () => Restartable {
  let dir: string;
  let servers: Restartable;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'history-'));
    servers = new Restartable([], () => settings(dir));
    await servers.boot();
  });
  afterEach(async () => {
    await servers.kill();
    await rm(dir, { recursive: true, force: true });
  });
  return () => servers;
}

describe('history after a restart with the file stores', () => {
  const servers = serversOn((dir) => ({
    SVC_SESSION_STORE_TYPE: 'file',
    SVC_SESSION_BASE_DIR: path.join(dir, 'sessions'),
    SVC_EXECUTION_LOG_DIR: path.join(dir, 'log'),
    SVC_RESTART_DIR: path.join(dir, 'checkpoints'),
  }));

  it('restores a run that ended with its status, a null error, its results and log lines, and announces no old end', async () => {
    await expectHistoryKept(servers());
  });

  it('restarts, restarts from a node and retries runs of the earlier process (SPEC Restart rules)', async () => {
    await expectRestartsAfterCrash(servers());
  });

  it('answers what a node received and sent after a crash, from the file checkpoints', async () => {
    await expectNodeMessagesAfterCrash(servers());
  });

  it('restarts a run of the earlier process from a node with an edited input, and on another version', async () => {
    await expectRepairsAfterCrash(servers());
  });

  it('replay-checks a run of the earlier process from the file checkpoints', async () => {
    await expectReplayCheckAfterCrash(servers());
  });
});

describe('start-up after a crash that tore the last lines of the file stores', () => {
  let dir = '';
  const servers = serversOn((fresh) => {
    dir = fresh;
    return {
      SVC_EXECUTION_LOG_DIR: path.join(fresh, 'log'),
      SVC_RESTART_DIR: path.join(fresh, 'checkpoints'),
    };
  });

  it('reports the truncated lines it skipped in the log, and keeps what came before them', async () => {
    const running = servers();
    await running.define([printed]);
    const id = await running.run('printed');
    await running.kill();
    // What a crash mid-write leaves: the start of a line, and no newline.
    await appendFile(path.join(dir, 'log', 'execution-log.jsonl'), '{"type":"run.sta');
    // A run's checkpoint file; the directory also holds the dead-letters folder.
    const [checkpoint] = (await readdir(path.join(dir, 'checkpoints'), { withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    await appendFile(path.join(dir, 'checkpoints', checkpoint ?? ''), '{"n":"in","m":{"id":"x');
    await running.boot();
    const output = running.server.output();
    expect(output).toContain('Execution log: skipped 1 truncated line left by a crash');
    expect(output).toContain('Checkpoint files: skipped 1 truncated line left by a crash');
    expect(await running.record(id)).toMatchObject({ status: 'COMPLETED', error: null });
  });
});

describe('history after a restart with checkpoints in memory', () => {
  const servers = serversOn((dir) => ({
    SVC_SESSION_STORE_TYPE: 'file',
    SVC_SESSION_BASE_DIR: path.join(dir, 'sessions'),
    SVC_EXECUTION_LOG_DIR: path.join(dir, 'log'),
  }));

  it('refuses a restart of a run of the earlier process with 404, saying its checkpoints were in memory (SPEC Restart rule 1)', async () => {
    const running = servers();
    await running.define([printed]);
    const id = await running.run('printed');
    await running.crashAndBoot();
    const repairs: [string, unknown][] = [
      ['restart', undefined],
      ['restart/print', undefined],
      ['nodes/print/retry', undefined],
      ['restart', { version: 1 }],
      ['restart/print', { inputs: [{ payload: 1 }], version: 1 }],
    ];
    for (const [path, body] of repairs) {
      const refused = await running.call('POST', `/api/executions/${id}/${path}`, body);
      expect(refused.status).toBe(404);
      expect(refused.json.message).toBe(
        `Execution '${id}' is no longer restartable: it ran before the server restarted and its checkpoints were kept in memory (set svc.restart.dir, or svc.restart.store-type=postgres, to keep them across restarts)`,
      );
    }
  });

  it('refuses a replay check of a run of the earlier process with 409, saying its checkpoints were in memory', async () => {
    const running = servers();
    await running.define([printed]);
    const id = await running.run('printed');
    await running.crashAndBoot();
    const refused = await running.call('POST', `/api/executions/${id}/replay-check`, {
      version: 1,
    });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(
      `Execution '${id}' cannot be replay-checked: it ran before the server restarted and its checkpoints were kept in memory (set svc.restart.dir, or svc.restart.store-type=postgres, to keep them across restarts)`,
    );
  });
});

const unavailable = await postgresUnavailable();
const skipped = unavailable === undefined ? '' : ` (skipped: ${unavailable})`;

describe.skipIf(unavailable !== undefined)(
  `history after a restart with the postgres profile${skipped}`,
  () => {
    // A build with the relational stores, run by a least-privilege account.
    const servers = postgresServers();

    it('restores a run that ended with its status, a null error, its results and log lines, and announces no old end', async () => {
      await expectHistoryKept(servers());
    });

    it('restarts, restarts from a node and retries runs of the earlier process (SPEC Restart rules)', async () => {
      await expectRestartsAfterCrash(servers());
    });

    it('answers what a node received and sent after a crash, from the relational checkpoints', async () => {
      await expectNodeMessagesAfterCrash(servers());
    });

    it('restarts a run of the earlier process from a node with an edited input, and on another version', async () => {
      await expectRepairsAfterCrash(servers());
    });

    it('replay-checks a run of the earlier process from the relational checkpoints', async () => {
      await expectReplayCheckAfterCrash(servers());
    });
  },
);
