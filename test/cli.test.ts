// The `svc` command-line client, run as a child process against a real server: workflows kept
// as files (validate, diff, apply, export), contexts, plugins, output and exit codes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from './support/cli.js';
import type { ProcessResult } from './support/process.js';
import { startTestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';
import { doubling } from './support/workflows.js';
import type { TestServer } from './support/server.js';

const ORDERS = `sessionId: shop
workflowId: orders
description: Shape each order
nodes:
  - nodeId: start
    type: MANUAL
  - nodeId: shape
    type: MAPPER
    config:
      mode: PROJECTION
      expression: '{"total": 1}'
  - nodeId: print
    type: CONSOLE_TERMINAL
edges:
  - source: start
    target: shape
  - source: shape
    target: print
`;

const REFUNDS = JSON.stringify(
  {
    sessionId: 'shop',
    workflowId: 'refunds',
    nodes: [
      { nodeId: 'start', type: 'MANUAL' },
      { nodeId: 'done', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [{ source: 'start', target: 'done' }],
  },
  null,
  2,
);

const SLOW = `sessionId: runs
workflowId: slow
nodes:
  - nodeId: start
    type: MANUAL
  - nodeId: wait
    type: DELAY
    config: { delayMs: 600 }
  - nodeId: print
    type: CONSOLE_TERMINAL
edges:
  - { source: start, target: wait }
  - { source: wait, target: print }
`;

const FAILS = `sessionId: runs
workflowId: fails
nodes:
  - nodeId: start
    type: MANUAL
  - nodeId: boom
    type: HTTP_REQUEST
    config: { method: POST, url: 'http://127.0.0.1:1/' }
  - nodeId: out
    type: NOTIFY_TERMINAL
edges:
  - { source: start, target: boom }
  - { source: boom, target: out }
`;

const ASKS = `sessionId: runs
workflowId: asks
nodes:
  - nodeId: in
    type: API_TRIGGER
    config: { splitArray: true }
  - nodeId: ask
    type: WAIT_FOR_SIGNAL
    config: { prompt: 'Ship {{item}}?' }
  - nodeId: yes
    type: NOTIFY_TERMINAL
  - nodeId: no
    type: NOTIFY_TERMINAL
edges:
  - { source: in, target: ask }
  - { source: ask, target: yes, sourcePort: approved }
  - { source: ask, target: no, sourcePort: rejected }
`;

describe('The svc command-line client', () => {
  let server: TestServer;
  let folder: string;
  let config: string;

  beforeAll(async () => {
    server = await startTestServer();
    folder = mkdtempSync(join(tmpdir(), 'svc-cli-'));
    config = join(folder, 'config', 'svc.json');
  });
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const svc = (args: readonly string[], env: Record<string, string> = {}): Promise<ProcessResult> =>
    runSvc(args, {
      cwd: folder,
      env: { SVCCLI_SERVER: server.baseUrl, SVCCLI_CONFIG: config, ...env },
    });

  const repository = (name: string, files: Record<string, string>): string => {
    const dir = join(folder, name);
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    return dir;
  };

  it('applies a directory of workflow files, creating the session, and a second apply changes nothing', async () => {
    const dir = repository('shop', { 'orders.yaml': ORDERS, 'refunds.json': REFUNDS });
    const first = await svc(['apply', dir, '--note', 'first import']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('+ session shop (shop)');
    expect(first.stdout).toContain('+ workflow shop/orders -> version 1');
    expect(first.stdout).toContain('+ workflow shop/refunds -> version 1');
    const versions = await server.call('GET', '/api/sessions/shop/workflows/orders/versions');
    expect(versions.json.data).toEqual([
      expect.objectContaining({ version: 1, note: 'first import', current: true }),
    ]);
    const again = await svc(['apply', dir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('= workflow shop/orders');
    expect(again.stdout).toContain('Nothing to change');
    const still = await server.call('GET', '/api/sessions/shop/workflows/orders/versions');
    expect(still.json.data).toHaveLength(1);
  });

  it('shows what would change, then saves only the changed workflow, as JSON for scripts', async () => {
    const dir = repository('shop', {
      'orders.yaml': ORDERS.replace('{"total": 1}', '{"total": 2}').replace(
        '  - nodeId: print',
        '  - nodeId: audit\n    type: NOTIFY_TERMINAL\n  - nodeId: print',
      ),
    });
    const diff = await svc(['diff', dir]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('~ workflow shop/orders');
    expect(diff.stdout).toContain('~ node shape (MAPPER)');
    expect(diff.stdout).toContain('+ node audit (NOTIFY_TERMINAL)');
    expect(diff.stdout).toContain('= workflow shop/refunds');
    const applied = await svc(['apply', dir, '--output', 'json', '--note', 'two']);
    expect(applied.code).toBe(0);
    const changes = JSON.parse(applied.stdout) as { action: string; workflowId: string }[];
    expect(changes).toEqual([
      expect.objectContaining({ action: 'change-workflow', workflowId: 'orders', version: 2 }),
      expect.objectContaining({ action: 'unchanged', workflowId: 'refunds' }),
    ]);
  });

  it('exports a session to files that apply takes back unchanged', async () => {
    const out = join(folder, 'exported');
    const exported = await svc(['export', 'shop', '--dir', out]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('session.yaml');
    expect(readFileSync(join(out, 'session.yaml'), 'utf8')).toContain('kind: session');
    const diff = await svc(['diff', out]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('Nothing to change');
    expect(diff.stdout).not.toContain('~');
  });

  it('validates files and names the file, the field and the line of each problem, exiting 1', async () => {
    const dir = repository('broken', {
      'bad.yaml': ORDERS.replace('type: CONSOLE_TERMINAL', 'type: NO_SUCH_TYPE'),
      'syntax.yaml': 'sessionId: shop\nnodes: [\n',
      'nosession.yaml': 'workflowId: lost\nnodes: []\n',
    });
    const result = await svc(['validate', dir]);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(/^broken\/bad\.yaml:13: error nodes\[2\]\.type: /),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^broken\/syntax\.yaml:\d+: error /));
    expect(lines).toContainEqual(
      'broken/nosession.yaml:1: error sessionId: sessionId is mandatory: the session the file belongs to',
    );
    expect(result.stderr).toContain('problem(s) found');
    const good = await svc(['validate', join(folder, 'shop')]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('2 workflow(s) valid');
  });

  it('takes the version note from the git commit of the files when none is given', async () => {
    const dir = repository('versioned', {
      'flow.yaml': ORDERS.replace('sessionId: shop', 'sessionId: gitshop'),
    });
    const git = (...args: string[]): string =>
      execFileSync('git', args, {
        cwd: dir,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'a',
          GIT_AUTHOR_EMAIL: 'a@b',
          GIT_COMMITTER_NAME: 'a',
          GIT_COMMITTER_EMAIL: 'a@b',
        },
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'add the flow');
    const head = git('log', '-1', '--format=%h').trim();
    expect((await svc(['apply', dir])).code).toBe(0);
    const versions = await server.call('GET', '/api/sessions/gitshop/workflows/orders/versions');
    expect(versions.json.data[0].note).toBe(`${head} add the flow`);
    const session = await server.call('GET', '/api/sessions/gitshop');
    expect(session.json.data.name).toBe('versioned');
  });

  it('saves named servers as contexts and uses the current one', async () => {
    const add = await svc(['context', 'add', 'local', server.baseUrl], {
      SVCCLI_SERVER: '',
    });
    expect(add.code).toBe(0);
    const list = await svc(['context', 'ls', '--output', 'json']);
    expect(JSON.parse(list.stdout)).toEqual([
      { current: true, name: 'local', server: server.baseUrl, key: 'none' },
    ]);
    const plugins = await svc(['plugins'], { SVCCLI_SERVER: '' });
    expect(plugins.code).toBe(0);
    expect(plugins.stdout).toMatch(/^TYPE +KIND +PORTS +DESCRIPTION/);
    expect(plugins.stdout).toContain('MAPPER');
    const missing = await svc(['context', 'use', 'nowhere']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No context named 'nowhere'");
  });

  it("prints the server's message and exits 1 on a refusal, 2 on a wrong command line, and 0 with --help", async () => {
    const unknown = await svc(['plugins', 'NO_SUCH_TYPE']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: 404: .*NO_SUCH_TYPE/m);
    const wrong = await svc(['no-such-command']);
    expect(wrong.code).toBe(2);
    const help = await svc(['apply', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Example:');
    const unreachable = await svc(['plugins'], { SVCCLI_SERVER: 'http://127.0.0.1:9' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('Cannot reach the server at http://127.0.0.1:9');
  });

  it('runs a workflow with --follow to its end: exit 0 on COMPLETED, 1 on a failure with its error', async () => {
    expect(
      (await svc(['apply', repository('runs', { 'slow.yaml': SLOW, 'fails.yaml': FAILS })])).code,
    ).toBe(0);
    const completed = await svc(['run', 'runs/slow', '--payload', '{"n": 1}', '--follow']);
    expect(completed.code).toBe(0);
    expect(completed.stderr).toMatch(/^Started [\w-]+/);
    expect(completed.stdout).toContain('wait: RUNNING');
    expect(completed.stdout).toMatch(/print: COMPLETED in=1 out=\d+/);
    expect(completed.stdout).toMatch(/ COMPLETED\n$/);
    const failed = await svc(['run', 'runs/fails', '--follow']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/error: The run ended FAILED: .*boom/);
    const wrong = await svc(['run', 'runs', '--follow']);
    expect(wrong.code).toBe(2);
  });

  it('reads a run: status, the list of runs, results and log lines, as tables or JSON', async () => {
    const started = await svc(['run', 'runs/slow', '--payload', '{"n": 2}']);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    const logs = await svc(['logs', id, '-f', '--output', 'json']);
    expect(logs.code).toBe(0);
    const lines = logs.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { executionId: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.executionId === id)).toBe(true);
    const status = await svc(['status', id, '--output', 'json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ executionId: id, status: 'COMPLETED' });
    const table = await svc(['status', id]);
    expect(table.stdout).toMatch(/^NODE +STATUS +IN +OUT +RETRIES$/m);
    const results = await svc(['results', id, '--output', 'json']);
    expect(JSON.parse(results.stdout)).toEqual([expect.objectContaining({ nodeId: 'print' })]);
    const sent = await svc(['messages', id, 'wait', '--output', 'json']);
    const page = JSON.parse(sent.stdout) as { items: { port: string; payload: unknown }[] };
    expect(page).toEqual({ items: [expect.objectContaining({ port: 'out' })], nextCursor: null });
    const received = await svc(['messages', id, 'print', '--in']);
    const [header, row] = received.stdout.trim().split('\n');
    expect(header).toMatch(/^MESSAGE +PORT +PAYLOAD$/);
    expect(row).toMatch(/^\S+ +out +/);
    expect(row!.endsWith(JSON.stringify(page.items[0]!.payload))).toBe(true);
    const list = await svc(['ls', 'executions', '--session', 'runs', '--status', 'failed']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^EXECUTION +WORKFLOW +VERSION +STATUS +CREATED$/m);
    expect(list.stdout).toContain('runs/fails');
    expect(list.stdout).not.toContain('runs/slow');
  });

  it('lists, shows, redrives and deletes dead letters (docs/dead-letters.md)', async () => {
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'letters', name: 'letters', initiator: 'cli', workflows: [doubling()] },
    });
    const id = (await svc(['run', 'letters/doubling'])).stdout.trim();
    await endOf(server, id);
    const list = await svc(['dead-letters', 'list', '--session', 'letters', '--output', 'json']);
    expect(list.stderr).toBe('');
    const page = JSON.parse(list.stdout) as { items: { id: string; payload: unknown }[] };
    expect(page.items.map((letter) => letter.payload)).toEqual([-4, -2]);
    const table = await svc(['dead-letters', 'list', '--execution', id]);
    expect(table.stdout).toMatch(/^ID +CREATED +EXECUTION +NODE +ERROR +REDRIVEN AS$/m);
    const [first, second] = page.items;
    const shown = await svc(['dead-letters', 'show', first?.id ?? '']);
    expect(shown.stdout).toContain('attempt 1: ');
    const redriven = await svc(['dead-letters', 'redrive', first?.id ?? '', '--payload', '4']);
    expect(redriven.stderr).toBe('');
    expect(redriven.code).toBe(0);
    const again = redriven.stdout.split(' ')[0] ?? '';
    expect((await endOf(server, again)).status).toBe('COMPLETED');
    const deleted = await svc(['dead-letters', 'delete', second?.id ?? '']);
    expect(deleted.stdout.trim()).toBe(`${second?.id ?? ''} deleted`);
    const missing = await svc(['dead-letters', 'show', second?.id ?? '']);
    expect(missing.code).not.toBe(0);
  });

  it('restarts from a node with an input file of edits and --workflow-version (docs/run-repair.md)', async () => {
    const id = (await svc(['run', 'runs/slow', '--payload', '{"n": 3}'])).stdout.trim();
    await endOf(server, id);
    const received = await svc(['messages', id, 'print', '--in', '--output', 'json']);
    const [message] = (JSON.parse(received.stdout) as { items: { messageId: string }[] }).items;
    const edits = join(folder, 'edits.json');
    writeFileSync(edits, JSON.stringify([{ messageId: message?.messageId, payload: { n: 9 } }]));
    const restarted = await svc([
      'restart',
      id,
      '--from',
      'print',
      '--input-file',
      edits,
      '--workflow-version',
      '1',
    ]);
    expect(restarted.stderr).toBe('');
    expect(restarted.code).toBe(0);
    const again = restarted.stdout.split(' ')[0] ?? '';
    expect((await endOf(server, again)).status).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${again}/results`);
    expect(results.json.data[0].payload).toEqual({ n: 9 });
    const missing = await svc(['restart', id, '--workflow-version', '99']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("404: Version '99' of workflow 'slow' does not exist");
    const withoutNode = await svc(['restart', id, '--input-file', edits]);
    expect(withoutNode.code).toBe(2);
    expect(withoutNode.stderr).toContain('--input-file needs --from');
  });

  it('replay-checks a run against a saved version and a draft file, exiting 1 when a node differs (docs/run-repair.md)', async () => {
    const id = (await svc(['run', 'runs/slow', '--payload', '{"n": 3}'])).stdout.trim();
    await endOf(server, id);
    const same = await svc(['replay-check', id, '--workflow-version', '1']);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^NODE +SAME +RECORDED +REPLAYED +FIRST DIFFERENCE$/m);
    expect(same.stdout).toMatch(/^wait +yes +1 +1 *$/m);
    const draft = join(folder, 'slow-draft.yaml');
    writeFileSync(
      draft,
      SLOW.replace('type: DELAY', 'type: MAPPER').replace(
        '{ delayMs: 600 }',
        `{ expression: '{ "changed": true }' }`,
      ),
    );
    const differs = await svc(['replay-check', id, '--file', draft, '--output', 'json']);
    expect(differs.code).toBe(1);
    expect(differs.stderr).toContain('node(s) differ');
    const result = JSON.parse(differs.stdout) as {
      version: null;
      nodes: { nodeId: string; same: boolean; differences: unknown[] }[];
    };
    expect(result.version).toBeNull();
    expect(result.nodes.find((node) => node.nodeId === 'wait')).toMatchObject({
      same: false,
      differences: [{ replayed: { changed: true } }],
    });
    const neither = await svc(['replay-check', id]);
    expect(neither.code).toBe(2);
  });

  it('answers pending approvals, one by node or all at once', async () => {
    expect((await svc(['apply', repository('asks', { 'asks.yaml': ASKS })])).code).toBe(0);
    const started = await svc(['run', 'runs/asks', '--payload', '[{"item": "a"}, {"item": "b"}]']);
    const id = started.stdout.trim();
    const pending = () => server.call('GET', `/api/executions/${id}/approvals`);
    await eventually(pending, (answer) => answer.json.data.length === 2);
    const ambiguous = await svc(['approve', id]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('2 approvals are pending');
    const [first] = (await pending()).json.data as { messageId: string }[];
    const rejected = await svc(['approve', id, '--message', first!.messageId, '--reject']);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toBe(`Rejected ask ${first!.messageId}\n`);
    const approved = await svc(['approve', id, '--all', '--comment', 'fine', '--output', 'json']);
    expect(JSON.parse(approved.stdout)).toEqual([expect.objectContaining({ approved: true })]);
    expect((await endOf(server, id)).status).toBe('COMPLETED');
  });

  it('pauses and resumes a run', async () => {
    // A run held by its approval cannot end before the pause reaches it.
    const held = (await svc(['run', 'runs/asks', '--payload', '[{"item": "c"}]'])).stdout.trim();
    await eventually(
      () => server.call('GET', `/api/executions/${held}/approvals`),
      (answer) => answer.json.data.length === 1,
    );
    const paused = await svc(['pause', held]);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toMatch(/pause applied \(PAUSED\)/);
    expect((await svc(['resume', held])).code).toBe(0);
    expect((await svc(['approve', held])).code).toBe(0);
    expect((await endOf(server, held)).status).toBe('COMPLETED');
  });

  it('turns a workflow always on and off, and lists which are on (docs/always-on.md)', async () => {
    const on = await svc(['activate', 'runs/slow']);
    expect(on.code, on.stderr).toBe(0);
    const id = /^active; run (\S+)$/.exec(on.stdout.trim())?.[1] ?? '';
    expect(id).not.toBe('');
    const listed = await svc(['ls', 'workflows', 'runs']);
    expect(listed.stdout).toMatch(/^WORKFLOW +VERSION +ACTIVE +UPDATED$/m);
    expect(listed.stdout).toMatch(/^slow +\d+ +yes /m);
    expect(listed.stdout).toMatch(/^fails +\d+ +no /m);
    const off = await svc(['deactivate', 'runs/slow', '--output', 'json']);
    expect(JSON.parse(off.stdout)).toEqual({
      sessionId: 'runs',
      workflowId: 'slow',
      active: false,
      executionId: null,
    });
    expect((await svc(['activate', 'slow'])).code).toBe(2);
  });

  it('lists the waiting starts with what holds each back, and moves one up (docs/scheduler-queue.md)', async () => {
    const before = (await server.call('GET', '/api/scheduler/limits')).json.data;
    await server.call('POST', '/api/scheduler/limits?maxPerWorkflow=1&onLimit=QUEUE');
    try {
      const payload = '[{"item": "q"}]';
      const held = (await svc(['run', 'runs/asks', '--payload', payload])).stdout.trim();
      const waiting = (await svc(['run', 'runs/asks', '--payload', payload])).stdout.trim();
      const table = await svc(['queue']);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toMatch(/^# +EXECUTION +WORKFLOW +PRIORITY +QUEUED +WAITING FOR$/m);
      expect(table.stdout).toContain(`1  ${waiting}  runs/asks  0`);
      expect(table.stdout).toContain(
        "Workflow 'asks' runs 1 execution, at its limit of 1 (maxPerWorkflow)",
      );
      const moved = await svc(['priority', waiting, '7']);
      expect(moved.stdout).toBe(`${waiting} now has priority 7\n`);
      const json = JSON.parse((await svc(['queue', '-o', 'json'])).stdout);
      expect(json.items).toEqual([
        expect.objectContaining({ executionId: waiting, position: 1, priority: 7 }),
      ]);
      const notWaiting = await svc(['priority', held, '1']);
      expect(notWaiting.code).toBe(1);
      await eventually(
        () => server.call('GET', `/api/executions/${held}/approvals`),
        (answer) => answer.json.data.length === 1,
      );
      expect((await svc(['approve', held])).code).toBe(0);
      await eventually(
        () => server.call('GET', `/api/executions/${waiting}/approvals`),
        (answer) => answer.json.data.length === 1,
      );
      expect((await svc(['approve', waiting])).code).toBe(0);
      expect((await endOf(server, waiting)).status).toBe('COMPLETED');
    } finally {
      const restore = Object.entries(before as Record<string, number | string | null>)
        .map(([name, value]) => `${name}=${value === null ? 'off' : String(value)}`)
        .join('&');
      await server.call('POST', `/api/scheduler/limits?${restore}`);
    }
  });
});
