// The examples (examples/README.md) are what a user tries first: applied with the svc client to
// a real server, every workflow in them runs to COMPLETED.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from './support/cli.js';
import type { ProcessResult } from './support/process.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ORDERS = [
  { id: 1, quantity: 2, unitPrice: 30 },
  { id: 2, quantity: 5, unitPrice: 40 },
];

describe('The examples', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const svc = (args: readonly string[]): Promise<ProcessResult> =>
    runSvc(args, {
      cwd: root,
      env: { SVCCLI_SERVER: server.baseUrl, SVCCLI_CONFIG: join(root, '.tmp/no-config.json') },
    });

  it('apply to a real server, a second time without a change, and every workflow runs to COMPLETED', async () => {
    const applied = await svc(['apply', 'examples/workflows', '--note', 'examples']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('+ session shop (Shop)');
    expect((await svc(['apply', 'examples/workflows'])).stdout).toContain('Nothing to change');
    const session = await server.call('GET', '/api/sessions/shop');
    expect(session.json.data.workflows.sort()).toEqual(['big-orders', 'orders']);
    for (const workflowId of session.json.data.workflows as string[]) {
      const run = await svc([
        'run',
        `shop/${workflowId}`,
        '--payload',
        JSON.stringify(ORDERS),
        '--follow',
      ]);
      expect(run.code, `${workflowId}: ${run.stdout}${run.stderr}`).toBe(0);
    }
    const priced = await server.call('GET', '/api/executions?workflowId=orders');
    const results = await server.call(
      'GET',
      `/api/executions/${priced.json.data.items[0].executionId}/results`,
    );
    expect(results.json.data.map((result: { payload: unknown }) => result.payload)).toEqual([
      { id: 1, total: 60 },
      { id: 2, total: 200 },
    ]);
  });
});
