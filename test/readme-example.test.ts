// README "One minute with the API": the requests of its first example, read from README.md's
// curl lines, run against a real server and give the result the README promises.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

interface CurlRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
}

/** The curl commands of the first `sh` block after the heading, in order. */
function firstExample(): CurlRequest[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.split('## One minute with the API')[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const commands = block
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .split(/^curl /m)
    .slice(1);
  return commands.map((command) => ({
    method: /-X (\w+)/.exec(command)?.[1] ?? 'GET',
    path: /localhost:8080(\S+)/.exec(command)?.[1] ?? '',
    body: /-d '([\s\S]*?)'/.exec(command)?.[1],
  }));
}

describe('README first example', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('runs as written and its terminal receives the start payload: "Hello you"', async () => {
    const requests = firstExample();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/sessions',
      'POST /api/sessions/validate',
      'PUT /api/sessions/demo/workflows/hello',
      'GET /api/sessions/demo/workflows/hello/versions',
      'GET /api/sessions/demo/workflows/hello/graph',
      'GET /api/plugins/BRANCH',
      'POST /api/workflow/start',
      'GET /api/executions/<executionId>',
      'GET /api/executions/<executionId>/results',
    ]);
    let executionId = '';
    const answers = [];
    for (const request of requests) {
      const path = request.path.replace('<executionId>', executionId);
      const answer = await server.call(request.method, path, {
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      expect(answer.status, `${request.method} ${path}: ${answer.text}`).toBeLessThan(300);
      if (path === '/api/workflow/start') executionId = String(answer.json.data.executionId);
      answers.push(answer);
    }
    expect(answers[1]?.json.data.valid).toBe(true);
    const done = await eventually(
      () => server.call('GET', `/api/executions/${executionId}`),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    expect(done.json.data.status).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${executionId}/results`);
    expect(results.json.data).toHaveLength(1);
    expect(results.json.data[0]).toMatchObject({ nodeId: 'print', payload: 'Hello you' });
  });
});
