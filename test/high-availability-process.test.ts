// High availability with real server processes on the PostgreSQL of SVC_TEST_DB_URL
// (docs/high-availability.md; SPEC "Recover conditions", "States and transitions"): a leader
// killed with SIGKILL is replaced once its lease expires, and a leader that loses its lease
// stops leading and exits, to be started again as a standby.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_DB_URL, postgresUnavailable } from './support/postgres.js';
import { asAdmin, dropSchema, uniqueName } from './support/postgres-schemas.js';
import { startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { call, openSse } from './support/server.js';
import { eventually } from './support/wait.js';
import { approvalWorkflow } from './support/workflows.js';

const unavailable = await postgresUnavailable();
const skipped = unavailable === undefined ? '' : ` (skipped: ${unavailable})`;

const approval = approvalWorkflow;

const LEASE_MS = 3_000;

describe.skipIf(unavailable !== undefined)(
  `high availability in server processes${skipped}`,
  () => {
    const schemas: string[] = [];
    const running: ServerProcess[] = [];

    afterEach(async () => {
      for (const server of running.splice(0)) {
        if (server.child.exitCode === null && server.child.signalCode === null) {
          server.child.kill('SIGKILL');
          await server.exited();
        }
      }
    });

    afterAll(async () => {
      for (const schema of schemas) await dropSchema(schema);
    });

    const env = (schema: string): Record<string, string> => ({
      SVC_PERSISTENCE: 'postgres',
      SVC_DB_URL: TEST_DB_URL,
      SVC_DB_MIGRATION_URL: TEST_DB_URL,
      SVC_DB_SCHEMA: schema,
      SVC_HA_ENABLED: 'true',
      SVC_HA_LEASE_DURATION: String(LEASE_MS),
      SVC_HA_RENEW_INTERVAL: '200',
    });

    async function boot(schema: string): Promise<ServerProcess> {
      const server = await startServerProcess(['postgres'], env(schema));
      running.push(server);
      return server;
    }

    const leads = async (baseUrl: string): Promise<boolean> =>
      (await call(baseUrl, 'GET', '/api/control/status')).json.data.leader as boolean;

    const record = async (baseUrl: string, id: string) =>
      (await call(baseUrl, 'GET', `/api/executions/${id}`)).json.data;

    const pending = (baseUrl: string, id: string) =>
      eventually(
        () => call(baseUrl, 'GET', `/api/executions/${id}/approvals`),
        (answer) => (answer.json.data as unknown[]).length === 1,
      );

    it('replaces a leader killed with SIGKILL once its lease has expired; the new leader marks the cut-off run ABORTED and recovers it (SPEC Recover conditions)', async () => {
      const schema = uniqueName();
      schemas.push(schema);
      const leader = await boot(schema);
      await eventually(
        () => leads(leader.baseUrl),
        (leading) => leading,
      );
      const standby = await boot(schema);
      expect(await leads(standby.baseUrl)).toBe(false);

      const created = await call(leader.baseUrl, 'POST', '/api/sessions', {
        body: { sessionId: 's', name: 'orders', initiator: 'tests', workflows: [approval] },
      });
      expect(created.status).toBe(201);
      const started = await call(leader.baseUrl, 'POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId: 'approval' },
      });
      expect(started.status).toBe(202);
      const id = started.json.data.executionId as string;
      await pending(leader.baseUrl, id);
      await eventually(
        () => record(leader.baseUrl, id),
        (data) => data.nodes.in?.status === 'COMPLETED',
      );

      leader.child.kill('SIGKILL');
      const killedAt = Date.now();
      await leader.exited();
      // Nothing released the lease: the standby waits for it to expire, then takes over.
      await eventually(
        () => leads(standby.baseUrl),
        (leading) => leading,
        15_000,
      );
      const waited = Date.now() - killedAt;
      expect(waited).toBeGreaterThanOrEqual(LEASE_MS - 500);
      expect(waited).toBeLessThan(LEASE_MS + 5_000);

      const aborted = await record(standby.baseUrl, id);
      expect(aborted).toMatchObject({ status: 'ABORTED' });
      expect(aborted.nodes.in.status).toBe('COMPLETED');
      const recovered = await call(standby.baseUrl, 'POST', `/api/executions/${id}/recover`);
      expect(recovered.status).toBe(202);
      const newId = recovered.json.data.executionId as string;
      await pending(standby.baseUrl, newId);
      const signal = await call(
        standby.baseUrl,
        'POST',
        `/api/executions/${newId}/nodes/ask/signal`,
        {
          body: { approved: true },
        },
      );
      expect(signal.status).toBe(200);
      const finished = await eventually(
        () => record(standby.baseUrl, newId),
        (data) => data.status !== 'RUNNING',
      );
      expect(finished).toMatchObject({ status: 'COMPLETED', resumedFrom: id });
    });

    it('exits with code 75 when another server takes its lease, after ending its streams, so that it is started again as a standby (fencing)', async () => {
      const schema = uniqueName();
      schemas.push(schema);
      const leader = await boot(schema);
      await eventually(
        () => leads(leader.baseUrl),
        (leading) => leading,
      );
      const events = await openSse(leader.baseUrl, '/api/events');
      await asAdmin((client) =>
        client.query(
          `UPDATE ${schema}.leader_lease
            SET holder = 'intruder', epoch = epoch + 1, expires_at = now() + interval '1 hour'`,
        ),
      );
      await events.ended;
      expect(await leader.exited()).toBe(75);
      expect(leader.output()).toContain(
        'Stopping: this server lost its leadership (the leader lease expired or was taken by another server)',
      );

      // Started again, it is a standby while the other server holds the lease.
      const again = await boot(schema);
      expect(await leads(again.baseUrl)).toBe(false);
      const refused = await call(again.baseUrl, 'POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId: 'approval' },
      });
      expect(refused.status).toBe(503);
    });
  },
);
