// Dead letters (docs/dead-letters.md) through a real server: a node with onError DEAD_LETTER
// keeps the messages it gives up on while the run completes with the others; letters are
// listed, read, redriven through their node and deleted, under the roles and session scope of
// the keys; the memory store's caps refuse a redrive whose checkpoints were not kept.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKeysEnv } from './support/api-keys.js';
import { startTestServer } from './support/server.js';
import type { CallOptions, TestServer } from './support/server.js';
import { endOf } from './support/wait.js';
import { doubling } from './support/workflows.js';

const ADMIN = { authorization: 'Bearer admin-key' };
const VIEWER = { authorization: 'Bearer viewer-key' };
const LIMITED = { authorization: 'Bearer sa-key' };

const KEYS = {
  ...apiKeysEnv({ admin: 'ADMIN', viewer: 'VIEWER', sa: { role: 'OPERATOR', sessions: 'sa' } }),
};

interface Letter {
  readonly id: string;
  readonly executionId: string;
  readonly sessionId: string;
  readonly nodeId: string;
  readonly messageId: string;
  readonly payload: unknown;
  readonly error: string;
  readonly attempts: readonly { attempt: number; error: string }[];
  readonly redrivenAs: string | null;
}

describe('Dead letters', () => {
  let server: TestServer;
  let headers: Record<string, string> = {};

  const call = (method: string, path: string, options: CallOptions = {}) =>
    server.call(method, path, { headers, ...options });

  const define = async (sessionId: string, messages?: readonly number[]) => {
    const created = await call('POST', '/api/sessions', {
      body: { sessionId, name: sessionId, initiator: 'i', workflows: [doubling(messages)] },
    });
    expect(created.status, created.text).toBe(201);
  };

  const run = async (sessionId = 's'): Promise<string> => {
    const started = await call('POST', '/api/workflow/start', {
      body: { sessionId, workflowId: 'doubling' },
    });
    expect(started.status, started.text).toBe(202);
    const id = started.json.data.executionId as string;
    await endOf({ call }, id);
    return id;
  };

  const results = async (id: string): Promise<unknown[]> =>
    ((await call('GET', `/api/executions/${id}/results`)).json.data as { payload: unknown }[]).map(
      (result) => result.payload,
    );

  const letters = async (query = ''): Promise<{ items: Letter[]; nextCursor: string | null }> => {
    const answer = await call('GET', `/api/dead-letters${query}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.json.data as { items: Letter[]; nextCursor: string | null };
  };

  afterEach(async () => {
    headers = {};
    await server.close();
  });

  describe('on a server without keys', () => {
    beforeEach(async () => {
      server = await startTestServer();
      await define('s');
    });

    it('keeps a message a node gives up on while the run completes with the others', async () => {
      const id = await run();
      const record = (await call('GET', `/api/executions/${id}`)).json.data;
      expect(record.status).toBe('COMPLETED');
      expect(record.nodes.double).toMatchObject({ status: 'COMPLETED', messagesIn: 4 });
      expect(await results(id)).toEqual([2, 6]);
      const { items } = await letters();
      // Newest first; the two may share a millisecond, so their order is not asserted.
      expect(items.map((letter) => letter.payload as number).sort((a, b) => a - b)).toEqual([
        -4, -2,
      ]);
      expect(items[0]).toMatchObject({
        executionId: id,
        sessionId: 's',
        workflowId: 'doubling',
        nodeId: 'double',
        nodeType: 'MAPPER',
        error: expect.stringContaining('negative'),
        attempts: [{ attempt: 1, error: expect.stringContaining('negative') }],
        redrivenAs: null,
      });
      const read = await call('GET', `/api/dead-letters/${items[0]?.id ?? ''}`);
      expect(read.json.data).toEqual(items[0]);
      const meters = await call('GET', '/actuator/metrics/svc.dead-letters');
      expect(meters.json.measurements[0].value).toBe(2);
    });

    it('lists with filters and pages', async () => {
      const first = await run();
      const second = await run();
      expect((await letters()).items).toHaveLength(4);
      expect((await letters(`?executionId=${first}`)).items.map((l) => l.executionId)).toEqual([
        first,
        first,
      ]);
      expect((await letters('?sessionId=other')).items).toEqual([]);
      expect((await letters('?workflowId=doubling&nodeId=double')).items).toHaveLength(4);
      expect((await letters('?nodeId=out')).items).toEqual([]);
      const seen: string[] = [];
      let page = await letters('?limit=3');
      seen.push(...page.items.map((letter) => letter.id));
      expect(page.nextCursor).not.toBeNull();
      page = await letters(`?limit=3&cursor=${page.nextCursor ?? ''}`);
      seen.push(...page.items.map((letter) => letter.id));
      expect(page.nextCursor).toBeNull();
      expect(new Set(seen).size).toBe(4);
      // Newest first: the second run's letters before the first's.
      expect((await letters('?limit=1')).items[0]?.executionId).toBe(second);
      const bad = await call('GET', '/api/dead-letters?cursor=nonsense');
      expect(bad.status).toBe(400);
    });

    it('redrives a letter with a fixed payload: its node and what follows run on it alone, and the letter is marked', async () => {
      const first = await run();
      const [letter] = (await letters()).items;
      if (letter === undefined) throw new Error('no letter');
      const answer = await call('POST', `/api/dead-letters/${letter.id}/redrive`, {
        body: { payload: 5 },
      });
      expect(answer.status, answer.text).toBe(202);
      const redriven = answer.json.data.executionId as string;
      expect(answer.json.data.letter).toMatchObject({ id: letter.id, redrivenAs: redriven });
      await endOf({ call }, redriven);
      const record = (await call('GET', `/api/executions/${redriven}`)).json.data;
      expect(record).toMatchObject({ status: 'COMPLETED', restartOf: first });
      expect(record.nodes.double).toMatchObject({ status: 'COMPLETED', messagesIn: 1 });
      expect(await results(redriven)).toEqual([10]);
      const read = await call('GET', `/api/dead-letters/${letter.id}`);
      expect(read.json.data).toMatchObject({
        redrivenAs: redriven,
        redrivenAt: expect.any(String),
      });
      const audit = await call('GET', `/api/control/audit?executionId=${first}`);
      expect(audit.json.data[0]).toMatchObject({
        command: 'RESTART_FROM_NODE',
        nodeId: 'double',
        outcome: 'APPLIED',
      });
    });

    it('redrives a letter on its own payload, which fails and is dead-lettered again in the new run', async () => {
      await run();
      const [letter] = (await letters()).items;
      if (letter === undefined) throw new Error('no letter');
      const answer = await call('POST', `/api/dead-letters/${letter.id}/redrive`);
      expect(answer.status, answer.text).toBe(202);
      const redriven = answer.json.data.executionId as string;
      await endOf({ call }, redriven);
      expect(await results(redriven)).toEqual([]);
      const again = (await letters(`?executionId=${redriven}`)).items;
      expect(again.map((l) => [l.payload, l.messageId])).toEqual([
        [letter.payload, `${letter.messageId}.edit`],
      ]);
    });

    it('deletes a letter', async () => {
      await run();
      const [letter] = (await letters()).items;
      const path = `/api/dead-letters/${letter?.id ?? ''}`;
      expect((await call('DELETE', path)).status).toBe(200);
      expect((await call('GET', path)).status).toBe(404);
      expect((await call('DELETE', path)).status).toBe(404);
      expect((await call('POST', `${path}/redrive`)).status).toBe(404);
      expect((await letters()).items).toHaveLength(1);
    });
  });

  describe('with keys', () => {
    beforeEach(async () => {
      server = await startTestServer({ env: KEYS });
      headers = ADMIN;
      await define('sa');
      await define('sb');
    });

    it('lets a VIEWER read letters but not redrive or delete them', async () => {
      await run('sa');
      headers = VIEWER;
      const [letter] = (await letters()).items;
      const path = `/api/dead-letters/${letter?.id ?? ''}`;
      expect((await call('GET', path)).status).toBe(200);
      expect((await call('POST', `${path}/redrive`)).status).toBe(403);
      expect((await call('DELETE', path)).status).toBe(403);
    });

    it("shows a session-limited key its sessions' letters only, and others' as unknown", async () => {
      await run('sa');
      await run('sb');
      const sbLetter = (await letters('?sessionId=sb')).items[0];
      headers = LIMITED;
      const seen = (await letters()).items;
      expect(seen.map((letter) => letter.sessionId)).toEqual(['sa', 'sa']);
      expect((await letters('?sessionId=sb')).items).toEqual([]);
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', '/redrive'],
        ['DELETE', ''],
      ] as const) {
        const ofSb = await call(method, `/api/dead-letters/${sbLetter?.id ?? ''}${suffix}`);
        const ofUnknown = await call(method, `/api/dead-letters/unknown${suffix}`);
        expect(ofSb.status).toBe(404);
        expect(ofSb.json.message).toBe(
          (ofUnknown.json.message as string).replace('unknown', sbLetter?.id ?? ''),
        );
      }
      const own = seen[0];
      const answer = await call('POST', `/api/dead-letters/${own?.id ?? ''}/redrive`, {
        body: { payload: 1 },
      });
      expect(answer.status, answer.text).toBe(202);
    });
  });

  it('refuses a redrive whose checkpoints went over the memory caps, and keeps letters within them', async () => {
    server = await startTestServer({ argv: ['--svc.restart.messages-per-node=1'] });
    await define('s');
    await run();
    // One letter per execution within the cap; the other was let go.
    const { items } = await letters();
    expect(items).toHaveLength(1);
    const answer = await call('POST', `/api/dead-letters/${items[0]?.id ?? ''}/redrive`);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toContain('in-memory checkpoint caps');
    expect(
      (await call('GET', `/api/dead-letters/${items[0]?.id ?? ''}`)).json.data.redrivenAs,
    ).toBe(null);
  });
});
