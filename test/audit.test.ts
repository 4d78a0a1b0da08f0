// SPEC "Events" 8 and "Audit actor naming", CONTRACT section 3 (control audit entry):
// control commands are recorded, applied or refused, with their actor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysEnv } from './support/api-keys.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { slowWorkflow } from './support/workflows.js';

const flow = slowWorkflow();

const OPERATOR = { authorization: 'Bearer op-key' };
const ADMIN = { authorization: 'Bearer admin-key' };

describe('Control audit (SPEC Events 8, Audit actor naming)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        SVC_API_KEY: 'root-key',
        ...apiKeysEnv({
          ops: { role: 'OPERATOR', key: 'op-key' },
          boss: { role: 'ADMIN', key: 'admin-key' },
        }),
      },
    });
    await server.call('POST', '/api/sessions', {
      headers: ADMIN,
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [flow] },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('records an applied stop with the key name as actor, and a refused one with its reason', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      headers: OPERATOR,
      body: { sessionId: 's', workflowId: 'slow' },
    });
    const id = start.json.data.executionId as string;
    expect(
      (await server.call('POST', `/api/executions/${id}/stop`, { headers: OPERATOR })).status,
    ).toBe(200);
    await eventually(
      () => server.call('GET', `/api/executions/${id}`, { headers: OPERATOR }),
      (record) => record.json.data.status === 'STOPPED',
    );
    expect(
      (await server.call('POST', `/api/executions/${id}/stop`, { headers: OPERATOR })).status,
    ).toBe(409);
    const audit = await server.call('GET', `/api/control/audit?executionId=${id}`, {
      headers: OPERATOR,
    });
    expect(audit.status).toBe(200);
    const [refused, applied] = audit.json.data;
    expect(applied).toMatchObject({
      executionId: id,
      nodeId: null,
      command: 'STOP',
      outcome: 'APPLIED',
      reason: null,
      actor: 'key:ops',
    });
    expect(refused).toMatchObject({ command: 'STOP', outcome: 'REFUSED', actor: 'key:ops' });
    expect(refused.reason).toMatch(/has ended/);
    expect(Object.keys(applied).sort()).toEqual(
      ['actor', 'command', 'executionId', 'id', 'nodeId', 'outcome', 'reason', 'timestamp'].sort(),
    );
  });

  it('records scheduler limit changes, with key:default for svc.api-key beside named keys', async () => {
    await server.call('POST', '/api/scheduler/limits?maxConcurrent=5', {
      headers: { authorization: 'Bearer root-key' },
    });
    const audit = await server.call('GET', '/api/control/audit?limit=1', { headers: ADMIN });
    expect(audit.json.data).toHaveLength(1);
    expect(audit.json.data[0]).toMatchObject({
      command: 'SCHEDULER_LIMITS',
      outcome: 'APPLIED',
      actor: 'key:default',
      executionId: null,
    });
  });

  it('does not audit reads and starts', async () => {
    const before = (await server.call('GET', '/api/control/audit?limit=500', { headers: ADMIN }))
      .json.data.length;
    await server.call('POST', '/api/workflow/start', {
      headers: OPERATOR,
      body: { sessionId: 's', workflowId: 'slow' },
    });
    await server.call('GET', '/api/executions', { headers: OPERATOR });
    const after = (await server.call('GET', '/api/control/audit?limit=500', { headers: ADMIN }))
      .json.data.length;
    expect(after).toBe(before);
  });

  it('accepts a limit from 1 to 500 (SPEC Limits: audit list limit)', async () => {
    expect(
      (await server.call('GET', '/api/control/audit?limit=0', { headers: ADMIN })).status,
    ).toBe(400);
    expect(
      (await server.call('GET', '/api/control/audit?limit=501', { headers: ADMIN })).status,
    ).toBe(400);
    expect(
      (await server.call('GET', '/api/control/audit?limit=500', { headers: ADMIN })).status,
    ).toBe(200);
  });
});

describe('Audit actor of the single key alone (SPEC Audit actor naming)', () => {
  it('records no actor for the single key when no named keys exist', async () => {
    const server = await startTestServer({ env: { SVC_API_KEY: 'only' } });
    try {
      await server.call('POST', '/api/scheduler/limits?maxConcurrent=2', {
        headers: { 'x-api-key': 'only' },
      });
      const audit = await server.call('GET', '/api/control/audit', {
        headers: { 'x-api-key': 'only' },
      });
      expect(audit.json.data[0]).toMatchObject({ command: 'SCHEDULER_LIMITS', actor: null });
    } finally {
      await server.close();
    }
  });
});

describe('Audit list default limit (SPEC Limits: audit list limit)', () => {
  it('answers the newest 100 entries, newest first, when no limit is given (SPEC Limits: audit list limit)', async () => {
    const server = await startTestServer();
    try {
      // 105 refused pauses, each of its own unknown execution, so that the order shows.
      for (let i = 0; i < 105; i++) {
        const refused = await server.call('POST', `/api/executions/gone-${i}/pause`);
        expect(refused.status).toBe(404);
      }
      const audit = await server.call('GET', '/api/control/audit');
      expect(audit.status).toBe(200);
      const ids = (audit.json.data as { executionId: string }[]).map((entry) => entry.executionId);
      expect(ids).toHaveLength(100);
      expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => `gone-${104 - i}`));
      const all = await server.call('GET', '/api/control/audit?limit=500');
      expect(all.json.data).toHaveLength(105);
    } finally {
      await server.close();
    }
  });
});
