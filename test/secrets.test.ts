// SPEC "Variables and secrets": a secret value never appears in logs, events, checkpoints'
// metadata or API answers, proven on a server process logging at TRACE with the durable
// execution log and file checkpoints, whose output and files are searched for the value.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { eventually } from './support/wait.js';

const SECRET = 's3cr3t-value-4711';

async function text(server: ServerProcess, method: string, url: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: response.status, text: await response.text() };
}

/** Every file under `dir`, read as text. */
async function filesUnder(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  const contents = await Promise.all(
    names
      .filter((entry) => entry.isFile())
      .map((entry) => readFile(path.join(entry.parentPath, entry.name), 'utf8')),
  );
  return contents.join('\n');
}

describe('Secrets stay secret (SPEC Variables and secrets)', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  afterEach(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps a decrypted secret out of logs, events, checkpoints, the execution log and answers', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'secrets-'));
    server = await startServerProcess([], {
      SVC_SECRET_API_TOKEN: SECRET,
      SVC_PROCESS_ALLOWED_COMMANDS: process.execPath,
      SVC_LOGGING_LEVEL_ENGINE: 'trace',
      SVC_LOGGING_LEVEL_APP: 'trace',
      SVC_EXECUTION_LOG_DIR: path.join(dir, 'log'),
      SVC_RESTART_DIR: path.join(dir, 'checkpoints'),
    });
    const created = await text(server, 'POST', '/api/sessions', {
      sessionId: 's',
      name: 's',
      initiator: 'i',
      workflows: [
        {
          workflowId: 'uses-secret',
          description: 'hands a secret to a command that does not print it',
          nodes: [
            { nodeId: 'in', type: 'MANUAL' },
            {
              nodeId: 'cmd',
              type: 'PROCESS_EXECUTOR',
              config: {
                command: process.execPath,
                args: ['-e', 'process.stdout.write(String(process.env.TOKEN.length))'],
                env: { TOKEN: 'decrypted:api.token' },
              },
            },
            { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
          ],
          edges: [
            { source: 'in', target: 'cmd' },
            { source: 'cmd', target: 'out' },
          ],
        },
      ],
    });
    expect(created.status).toBe(201);
    const start = await text(server, 'POST', '/api/workflow/start', {
      sessionId: 's',
      workflowId: 'uses-secret',
    });
    const id = (JSON.parse(start.text) as { data: { executionId: string } }).data.executionId;
    const record = await eventually(
      () => text(server as ServerProcess, 'GET', `/api/executions/${id}`),
      (answer) =>
        (JSON.parse(answer.text) as { data: { status: string } }).data.status === 'COMPLETED',
    );
    const results = await text(server, 'GET', `/api/executions/${id}/results`);
    // The command did receive it: it printed the secret's length.
    expect(results.text).toContain(`"${SECRET.length}"`);
    const reads = [
      record.text,
      results.text,
      (await text(server, 'GET', `/api/executions/${id}/logs`)).text,
      (await text(server, 'GET', `/api/executions/${id}/checkpoints`)).text,
      (await text(server, 'GET', '/api/sessions/s/workflows/uses-secret')).text,
      (await text(server, 'GET', '/api/control/audit')).text,
    ];
    // Every event of the run, replayed from the bus history.
    const events = new AbortController();
    const response = await fetch(`${server.baseUrl}/api/events?executionId=${id}`, {
      signal: events.signal,
      headers: { 'last-event-id': '0' },
    });
    const reader = response.body?.getReader();
    let streamed = '';
    while (reader !== undefined && !streamed.includes('execution.completed')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      streamed += new TextDecoder().decode(chunk.value);
    }
    events.abort();
    expect(streamed).toContain('"result"');
    for (const answer of reads) expect(answer).not.toContain(SECRET);
    expect(streamed).not.toContain(SECRET);
    expect(server.output()).toContain('message in');
    expect(server.output()).not.toContain(SECRET);
    expect(await filesUnder(dir)).not.toContain(SECRET);
  });
});
