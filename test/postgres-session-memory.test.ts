// SESSION_MEMORY histories in PostgreSQL (the postgres profile): kept across a restart, going
// with their session, and expired by svc.session-memory.ttl (SPEC Limits: the history is
// unbounded unless stored in the relational database with that setting). CONTRACT 6: skipped
// with the reason when no database answers, unless CI is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSessionMemory, PostgresSessionStore } from '../src/stores/index.js';
import { postgresUnavailable } from './support/postgres.js';
import { asAdmin, createTestSchema } from './support/postgres-schemas.js';
import type { TestSchema } from './support/postgres-schemas.js';

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== undefined)(
  `SESSION_MEMORY on PostgreSQL${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let schema: TestSchema;
    let sessions: PostgresSessionStore;

    beforeAll(async () => {
      schema = await createTestSchema();
      sessions = new PostgresSessionStore(schema.db);
      await sessions.open();
      for (const sessionId of ['chat', 'other']) {
        await sessions.putSession({
          sessionId,
          name: sessionId,
          initiator: 'i',
          description: '',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        });
      }
    });

    afterAll(async () => {
      await sessions.close();
      await schema.drop();
    });

    it('appends in order, keeps the newest maxEntries, reads the newest, clears, and keeps histories apart', async () => {
      const memory = new PostgresSessionMemory({ db: schema.db, ttlMs: null });
      for (const entry of [{ said: 'a' }, 'b', 3, null]) {
        await memory.append('chat', 'log', entry, 3);
      }
      await memory.append('other', 'log', 'elsewhere');
      await memory.append('chat', 'notes', 'kept apart');
      expect(await memory.read('chat', 'log')).toEqual(['b', 3, null]);
      expect(await memory.read('chat', 'log', 2)).toEqual([3, null]);
      expect(await memory.read('other', 'log')).toEqual(['elsewhere']);
      expect(await memory.clear('chat', 'log')).toBe(3);
      expect(await memory.read('chat', 'log')).toEqual([]);
      expect(await memory.read('chat', 'notes')).toEqual(['kept apart']);
      // A new store on the same database (a restart) reads what was written.
      const again = new PostgresSessionMemory({ db: schema.db, ttlMs: null });
      expect(await again.read('chat', 'notes')).toEqual(['kept apart']);
    });

    it('neither reads nor keeps entries older than svc.session-memory.ttl', async () => {
      const memory = new PostgresSessionMemory({ db: schema.db, ttlMs: 60_000 });
      await memory.append('chat', 'ttl', 'old');
      await memory.append('chat', 'ttl', 'new');
      await asAdmin(async (client) => {
        await client.query(
          `UPDATE ${schema.table('session_memory')} SET written_at = now() - interval '2 minutes'
           WHERE key = 'ttl' AND entry = '"old"'`,
        );
      });
      expect(await memory.read('chat', 'ttl')).toEqual(['new']);
      await memory.append('chat', 'ttl', 'newer');
      const kept = await asAdmin((client) =>
        client.query(
          `SELECT count(*)::int AS n FROM ${schema.table('session_memory')} WHERE key = 'ttl'`,
        ),
      );
      expect(kept.rows[0]).toEqual({ n: 2 });
    });

    it('takes the histories of a session with it when the session is deleted', async () => {
      const memory = new PostgresSessionMemory({ db: schema.db, ttlMs: null });
      await memory.append('other', 'gone', 'x');
      expect(await sessions.deleteSession('other')).toBe(true);
      expect(await memory.read('other', 'gone')).toEqual([]);
    });
  },
);
