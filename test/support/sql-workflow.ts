// A trigger -> SQL_QUERY -> terminal workflow run through a real server, its database URL
// given as the secret `orders.db`: what the SQL_QUERY tests of each dialect prove alike.
import { expect } from 'vitest';
import { startTestServer } from './server.js';
import { endOf } from './wait.js';

/** Runs `sql` (config beyond the URL) on `payload` and answers the terminal's payloads. */
export async function sqlLookupThroughServer(
  url: string,
  sql: Readonly<Record<string, unknown>>,
  payload: unknown,
): Promise<unknown[]> {
  const server = await startTestServer({ env: { SVC_SECRET_ORDERS_DB: url } });
  try {
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i' },
    });
    const saved = await server.call('PUT', '/api/sessions/s/workflows/lookup', {
      body: {
        workflowId: 'lookup',
        description: 'looks a name up',
        nodes: [
          { nodeId: 'in', type: 'API_TRIGGER' },
          { nodeId: 'sql', type: 'SQL_QUERY', config: { url: 'decrypted:orders.db', ...sql } },
          { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
        ],
        edges: [
          { source: 'in', target: 'sql' },
          { source: 'sql', target: 'out' },
        ],
      },
    });
    expect(saved.status, saved.text).toBeLessThan(300);
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'lookup', payload },
    });
    const id = start.json.data.executionId as string;
    const record = await endOf(server, id);
    expect(record.status, JSON.stringify(record.nodes)).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${id}/results`);
    return results.json.data.map((result: { payload: unknown }) => result.payload);
  } finally {
    await server.close();
  }
}
