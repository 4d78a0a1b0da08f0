// The leader lease and the fenced execution log on the real PostgreSQL of SVC_TEST_DB_URL
// (docs/high-availability.md): what the servers of high-availability.test.ts stand on.
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresExecutionLog, PostgresLeaderLease } from '../src/stores/index.js';
import type { ExecutionLogEvent } from '../src/stores/index.js';
import { postgresUnavailable } from './support/postgres.js';
import { asAdmin, createTestSchema } from './support/postgres-schemas.js';
import { eventually } from './support/wait.js';

const unavailable = await postgresUnavailable();
const skipped = unavailable === undefined ? '' : ` (skipped: ${unavailable})`;

describe.skipIf(unavailable !== undefined)(`the leader lease in the database${skipped}`, () => {
  const cleanups: (() => Promise<unknown>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function schema() {
    const created = await createTestSchema();
    cleanups.push(() => created.drop());
    return created;
  }

  function lease(
    db: Awaited<ReturnType<typeof schema>>['db'],
    serverId: string,
    durationMs = 5_000,
  ) {
    const made = new PostgresLeaderLease({ db, serverId, durationMs, timeoutMs: 2_000 });
    cleanups.push(() => made.close());
    return made;
  }

  it('is taken by exactly one of servers that try together, renewed by it alone and free at once when released', async () => {
    const { db } = await schema();
    const contenders = ['a', 'b', 'c', 'd'].map((id) => lease(db, id));
    const taken = await Promise.all(contenders.map((contender) => contender.acquire()));
    expect(taken.filter(Boolean)).toHaveLength(1);
    const winner = contenders[taken.indexOf(true)];
    const loser = contenders[taken.indexOf(false)];
    expect(await winner?.holder()).toBe(winner?.serverId);
    expect(await winner?.renew()).toBe(true);
    expect(await loser?.renew()).toBe(false);
    expect(await loser?.acquire()).toBe(false);
    await winner?.release();
    expect(await winner?.holder()).toBeNull();
    expect(await loser?.acquire()).toBe(true);
    // The old holder cannot renew what another server took.
    expect(await winner?.renew()).toBe(false);
  });

  it('expires by the database clock when it is not renewed', async () => {
    const { db } = await schema();
    const first = lease(db, 'first', 300);
    const second = lease(db, 'second', 300);
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    await eventually(
      () => first.holder(),
      (holder) => holder === null,
    );
    expect(await second.acquire()).toBe(true);
    expect(await first.renew()).toBe(false);
  });

  it('fences the execution log: writes land under the lease and are refused once another server holds it', async () => {
    const created = await schema();
    const { db } = created;
    const mine = lease(db, 'mine');
    const theirs = lease(db, 'theirs', 100);
    let lost = 0;
    const log = new PostgresExecutionLog({
      db,
      onAppendFailed: () => undefined,
      fence: {
        current: () => mine.held,
        lost: () => {
          lost++;
        },
      },
    });
    await log.open();
    const event = (executionId: string): ExecutionLogEvent => ({
      type: 'run.started',
      at: 1,
      executionId,
    });
    expect(await mine.acquire()).toBe(true);
    log.append(event('before'));
    await log.durableNow();
    // Released at shutdown: what was queued still lands until another server takes over.
    await mine.release();
    log.append(event('after release'));
    await log.durableNow();
    expect(await theirs.acquire()).toBe(true);
    log.append(event('after the take'));
    await log.durableNow();
    await expect(log.compact([event('compacted')])).rejects.toMatchObject({
      code: 'STORE_FAILED',
    });
    expect(lost).toBe(2);
    const rows = await asAdmin(
      async (client) =>
        (
          await client.query<{ id: string }>(
            `SELECT execution_id AS id FROM ${created.table('execution_log')} ORDER BY seq`,
          )
        ).rows,
    );
    expect(rows.map((row) => row.id)).toEqual(['before', 'after release']);
    await log.close(1_000);
  });
});
