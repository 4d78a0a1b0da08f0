// SPEC "Events" 7-8 and CONTRACT section 5: a review supervisor refuses matching control
// commands, the refusal is audited, and supervisors are listed with their counters.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { slowWorkflow } from './support/workflows.js';

const flow = slowWorkflow();

const INTERN = { authorization: 'Bearer intern-key' };
const LEAD = { authorization: 'Bearer lead-key' };

describe('Review supervisors (SPEC Events 8, CONTRACT 5)', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-supervisors-'));
    const file = join(dir, 'settings.yaml');
    writeFileSync(
      file,
      [
        'svc:',
        '  api-keys:',
        '    - { name: intern, key: intern-key, role: OPERATOR }',
        '    - { name: lead, key: lead-key, role: ADMIN }',
        '  supervisors:',
        '    - id: guard',
        '      type: review',
        '      deny:',
        '        - { command: STOP, actor: "key:intern" }',
        '        - { command: SKIP, nodeId: wait }',
        '',
      ].join('\n'),
    );
    server = await startTestServer({ argv: ['--config', file] });
    await server.call('POST', '/api/sessions', {
      headers: LEAD,
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [flow] },
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (): Promise<string> =>
    (
      await server.call('POST', '/api/workflow/start', {
        headers: LEAD,
        body: { sessionId: 's', workflowId: 'slow' },
      })
    ).json.data.executionId as string;

  it('refuses a command that matches every field of a deny entry with 403, and audits the refusal', async () => {
    const id = await start();
    const refused = await server.call('POST', `/api/executions/${id}/stop`, { headers: INTERN });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('refused by supervisor guard');
    const audit = await server.call('GET', `/api/control/audit?executionId=${id}`, {
      headers: LEAD,
    });
    expect(audit.json.data[0]).toMatchObject({
      command: 'STOP',
      outcome: 'REFUSED',
      reason: 'refused by supervisor guard',
      actor: 'key:intern',
    });
    const allowed = await server.call('POST', `/api/executions/${id}/stop`, { headers: LEAD });
    expect(allowed.status).toBe(200);
  });

  it('matches node commands by command and node', async () => {
    const id = await start();
    expect(
      (await server.call('POST', `/api/executions/${id}/nodes/wait/skip`, { headers: LEAD }))
        .status,
    ).toBe(403);
    expect(
      (await server.call('POST', `/api/executions/${id}/nodes/wait/pause`, { headers: LEAD }))
        .status,
    ).toBe(200);
    await server.call('POST', `/api/executions/${id}/stop`, { headers: LEAD });
  });

  it('lists supervisors with their counters and the control bus status', async () => {
    const supervisors = await server.call('GET', '/api/control/supervisors', { headers: LEAD });
    expect(supervisors.status).toBe(200);
    expect(supervisors.json.data[0]).toMatchObject({
      id: 'guard',
      type: 'review',
      state: 'ACTIVE',
    });
    expect(supervisors.json.data[0].refused).toBeGreaterThanOrEqual(2);
    const status = await server.call('GET', '/api/control/status', { headers: LEAD });
    expect(status.json.data).toMatchObject({ leader: true, limits: { onLimit: 'REJECT' } });
    expect(status.json.data.supervisors).toHaveLength(1);
  });
});

describe('Rule supervisors (SPEC Events 7, CONTRACT 5)', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-rules-'));
    const file = join(dir, 'settings.yaml');
    writeFileSync(
      file,
      [
        'svc:',
        '  supervisors:',
        '    - id: watchdog',
        '      type: rule',
        '      rules:',
        '        - { on: execution.started, when: "workflowId = \'doomed\'", command: STOP, target: run }',
        "        - { on: node.started, when: \"nodeId = 'wait' and workflowId = 'held'\", command: PAUSE, target: node }",
        '',
      ].join('\n'),
    );
    server = await startTestServer({ argv: ['--config', file] });
    await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 's',
        name: 's',
        initiator: 'i',
        workflows: [flow, { ...flow, workflowId: 'doomed' }, { ...flow, workflowId: 'held' }],
      },
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops a run when its rule matches, as the supervisor, audited and counted', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'doomed' },
    });
    const id = start.json.data.executionId as string;
    await eventually(
      async () =>
        (await server.call('GET', `/api/executions/${id}`)).json.data.status === 'STOPPED',
    );
    const audit = await server.call('GET', `/api/control/audit?executionId=${id}`);
    expect(audit.json.data[0]).toMatchObject({
      command: 'STOP',
      outcome: 'APPLIED',
      actor: 'watchdog',
    });
    expect(
      await server.app.meters.read('svc.supervisor.commands', {
        id: 'watchdog',
        outcome: 'APPLIED',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('pauses a node when its rule matches, and leaves other runs alone', async () => {
    const held = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'held' },
    });
    const id = held.json.data.executionId as string;
    await eventually(
      async () =>
        (await server.call('GET', `/api/executions/${id}`)).json.data.nodes.wait.status ===
        'PAUSED',
    );
    const free = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'slow' },
    });
    const freeId = free.json.data.executionId as string;
    // Proves that the rule leaves the other run alone: it is not paused in this time.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const record = await server.call('GET', `/api/executions/${freeId}`);
    expect(record.json.data.status).toBe('RUNNING');
    expect(record.json.data.nodes.wait.status).toBe('RUNNING');
    await server.call('POST', `/api/executions/${id}/stop`);
    await server.call('POST', `/api/executions/${freeId}/stop`);
  });
});

describe('Review supervisors: deny entries by session (CONTRACT 5)', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-supervisors-session-'));
    const file = join(dir, 'settings.yaml');
    writeFileSync(
      file,
      [
        'svc:',
        '  supervisors:',
        '    - id: freeze',
        '      type: review',
        '      deny:',
        '        - { command: PAUSE, sessionId: locked }',
        '    - id: lockdown',
        '      type: review',
        '      deny:',
        '        - { sessionId: sealed }',
        '',
      ].join('\n'),
    );
    server = await startTestServer({ argv: ['--config', file] });
    for (const sessionId of ['locked', 'open', 'sealed']) {
      await server.call('POST', '/api/sessions', {
        body: { sessionId, name: sessionId, initiator: 'i', workflows: [flow] },
      });
    }
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (sessionId: string): Promise<string> =>
    (
      await server.call('POST', '/api/workflow/start', {
        body: { sessionId, workflowId: 'slow' },
      })
    ).json.data.executionId as string;

  it('refuses a command of the denied session with 403 and the reason, and lets the same command in another session and another command in that session through (CONTRACT 5)', async () => {
    const locked = await start('locked');
    const open = await start('open');
    const refused = await server.call('POST', `/api/executions/${locked}/pause`);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('refused by supervisor freeze');
    const audit = await server.call('GET', `/api/control/audit?executionId=${locked}`);
    expect(audit.json.data[0]).toMatchObject({
      command: 'PAUSE',
      outcome: 'REFUSED',
      reason: 'refused by supervisor freeze',
    });
    expect((await server.call('GET', `/api/executions/${locked}`)).json.data.status).toBe(
      'RUNNING',
    );
    expect((await server.call('POST', `/api/executions/${open}/pause`)).status).toBe(200);
    expect((await server.call('POST', `/api/executions/${locked}/nodes/wait/pause`)).status).toBe(
      403,
    );
    expect((await server.call('POST', `/api/executions/${locked}/stop`)).status).toBe(200);
    expect((await server.call('POST', `/api/executions/${open}/stop`)).status).toBe(200);
  });

  it('refuses every command of a session named alone in a deny entry (CONTRACT 5)', async () => {
    const sealed = await start('sealed');
    for (const path of ['pause', 'stop', 'nodes/wait/skip']) {
      const answer = await server.call('POST', `/api/executions/${sealed}/${path}`);
      expect(answer.status, path).toBe(403);
      expect(answer.json.message).toBe('refused by supervisor lockdown');
    }
    expect((await server.call('GET', `/api/executions/${sealed}`)).json.data.status).toBe(
      'RUNNING',
    );
    // Commands about no execution belong to no session: the entry does not catch them.
    expect((await server.call('POST', '/api/scheduler/limits?maxConcurrent=10')).status).toBe(200);
  });
});

describe('Control bus status (CONTRACT 4: GET /api/control/status)', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-control-status-'));
    const file = join(dir, 'settings.yaml');
    writeFileSync(
      file,
      [
        'svc:',
        '  execution:',
        '    max-concurrent: 1',
        '    on-limit: QUEUE',
        '  supervisors:',
        '    - id: guard',
        '      type: review',
        '      deny:',
        '        - { command: SKIP }',
        '',
      ].join('\n'),
    );
    server = await startTestServer({ argv: ['--config', file] });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [flow] },
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const status = async () => {
    const answer = await server.call('GET', '/api/control/status');
    expect(answer.status).toBe(200);
    return answer.json.data;
  };
  const start = async (): Promise<{ executionId: string; status: string }> =>
    (
      await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId: 'slow' },
      })
    ).json.data;

  it('answers running, queued, limits, supervisors and leader as they are: one run going and one start waiting for the slot (CONTRACT 4)', async () => {
    expect(await status()).toEqual({
      running: 0,
      queued: 0,
      limits: {
        maxConcurrent: 1,
        maxPerSession: null,
        maxPerWorkflow: null,
        onLimit: 'QUEUE',
        queueCapacity: 100,
        queueTimeout: null,
      },
      supervisors: [{ id: 'guard', type: 'review', state: 'ACTIVE', reviewed: 0, refused: 0 }],
      // A server without high availability is always the leader.
      leader: true,
    });
    const first = await start();
    const second = await start();
    expect([first.status, second.status]).toEqual(['RUNNING', 'QUEUED']);
    expect(await status()).toMatchObject({ running: 1, queued: 1 });

    expect(
      (await server.call('POST', `/api/executions/${first.executionId}/nodes/wait/skip`)).status,
    ).toBe(403);
    expect((await server.call('POST', `/api/executions/${first.executionId}/stop`)).status).toBe(
      200,
    );
    // The stopped run frees the slot: the waiting start takes it.
    const moved = await eventually(status, (data: { queued: number }) => data.queued === 0);
    expect(moved).toMatchObject({
      running: 1,
      queued: 0,
      supervisors: [{ id: 'guard', reviewed: 2, refused: 1 }],
    });
    await server.call('POST', `/api/executions/${second.executionId}/stop`);
    const idle = await eventually(status, (data: { running: number }) => data.running === 0);
    expect(idle).toMatchObject({ running: 0, queued: 0 });

    await server.call('POST', '/api/scheduler/limits?maxConcurrent=3');
    expect((await status()).limits).toMatchObject({ maxConcurrent: 3, onLimit: 'QUEUE' });
  });
});
