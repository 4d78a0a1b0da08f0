// SPEC "Authentication": keys, roles, session-limited keys, the answers of the access checks,
// host and origin protection, and the start-up check, through a real server.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_RULES, requiredRole, roleAllows, routeRule } from '../src/auth/index.js';
import type { Role, RouteRule } from '../src/auth/index.js';
import { apiKeysEnv } from './support/api-keys.js';
import { runServerToExit, startServerProcess } from './support/process.js';
import { call, openSse, rawRequest, startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { linearWorkflow } from './support/workflows.js';

interface TestKey {
  readonly label: string;
  readonly key: string | null;
  readonly role: Role;
  readonly sessions: readonly string[] | null;
}

const KEYS: readonly TestKey[] = [
  { label: 'no key', key: null, role: 'VIEWER', sessions: null },
  { label: 'VIEWER', key: 'viewer-key', role: 'VIEWER', sessions: null },
  { label: 'OPERATOR', key: 'operator-key', role: 'OPERATOR', sessions: null },
  { label: 'ADMIN', key: 'admin-key', role: 'ADMIN', sessions: null },
  { label: 'single svc.api-key', key: 'root-key', role: 'ADMIN', sessions: null },
  { label: 'ADMIN limited to session mine', key: 'limited-key', role: 'ADMIN', sessions: ['mine'] },
  {
    label: 'OPERATOR limited to session mine',
    key: 'limited-op-key',
    role: 'OPERATOR',
    sessions: ['mine'],
  },
];

const KEY_ENV: Record<string, string> = {
  SVC_API_KEY: 'root-key',
  ...apiKeysEnv({
    viewer: 'VIEWER',
    operator: 'OPERATOR',
    admin: 'ADMIN',
    limited: { role: 'ADMIN', sessions: 'mine' },
    'limited-op': { role: 'OPERATOR', sessions: 'mine' },
  }),
};

const ADMIN = { authorization: 'Bearer admin-key' };

function headersOf(key: TestKey, index: number): Record<string, string> {
  if (key.key === null) return {};
  // Both headers SPEC names are used, alternately.
  return index % 2 === 0 ? { authorization: `Bearer ${key.key}` } : { 'x-api-key': key.key };
}

type Expectation = 401 | 403 | 404 | 'allowed';

/** A stream that never ends: its status only, then the connection is dropped. */
async function statusOnly(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; headers: Headers }> {
  const client = await openSse(baseUrl, path, headers);
  client.close();
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(client.headers)) {
    if (typeof value === 'string') answerHeaders.set(name, value);
  }
  return { status: client.status, text: '', headers: answerHeaders };
}

function expectation(key: TestKey, rule: RouteRule, ownSession: boolean): Expectation {
  if (rule.scope === 'open') return 'allowed';
  if (key.key === null) return 401;
  // The tool endpoint lets every valid key in; each tool checks role and sessions
  // (test/mcp.test.ts holds every tool against every kind of key).
  if (rule.scope === 'tool') return 'allowed';
  if (!roleAllows(key.role, rule.role)) return 403;
  if (key.sessions === null) return 'allowed';
  // Any key of the role gets in; the service answers its sessions' records only
  // (test/dead-letters.test.ts holds a limited key to that).
  if (rule.scope === 'filtered') return 'allowed';
  if (rule.scope === 'global') return 403;
  if (ownSession) return 'allowed';
  // Another session's execution is answered like an unknown one (SPEC Errors).
  return rule.scope === 'execution' ? 404 : 403;
}

describe('Authorization matrix: every route against every kind of key (SPEC Roles)', () => {
  let server: TestServer;
  const executions: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ env: KEY_ENV });
    for (const sessionId of ['mine', 'theirs']) {
      await server.call('POST', '/api/sessions', {
        headers: ADMIN,
        body: { sessionId, name: sessionId, initiator: 'ops', workflows: [linearWorkflow('wf')] },
      });
      const start = await server.call('POST', '/api/workflow/start', {
        headers: ADMIN,
        body: { sessionId, workflowId: 'wf' },
      });
      executions[sessionId] = start.json.data.executionId;
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('declares a rule for every registered route, matching the role derived from its path (SPEC Roles)', () => {
    const registered = server.app.routes.filter((route) => route.method !== 'HEAD');
    for (const route of registered) {
      expect(routeRule(route.method, route.url), `${route.method} ${route.url}`).toBeDefined();
    }
    for (const rule of ROUTE_RULES) {
      if (rule.scope === 'open' || rule.scope === 'tool') continue;
      expect(requiredRole(rule.method, rule.url.replace(/:\w+/g, 'x'))).toBe(rule.role);
    }
  });

  function concretePath(rule: RouteRule, session: string): string {
    return rule.url
      .replace(':sessionId', session)
      .replace(':workflowId', 'wf')
      .replace(':version', '1')
      .replace(':type', 'FILTER')
      .replace(':nodeId', 'shape')
      .replace('/actuator/metrics/:name', '/actuator/metrics/svc.node.executions')
      .replace('/actuator/loggers/:name', '/actuator/loggers/app')
      .replace(':id', executions[session] ?? 'none');
  }

  function bodyFor(rule: RouteRule, session: string): unknown {
    if (rule.method === 'GET' || rule.method === 'DELETE') return undefined;
    if (rule.url === '/api/sessions') return { name: 'n', initiator: 'i' };
    if (rule.url === '/api/sessions/validate') return linearWorkflow('draft');
    if (rule.url.endsWith('/workflows/:workflowId')) return linearWorkflow('wf');
    if (rule.url === '/api/workflow/start') return { sessionId: session, workflowId: 'wf' };
    if (rule.url === '/api/workflow/:sessionId/start') return { workflowId: 'wf' };
    if (rule.url === '/actuator/loggers/:name') return { configuredLevel: 'INFO' };
    if (rule.url === '/api/executions/:id/breakpoints') return { nodeIds: [] };
    if (rule.url.endsWith('/signal')) return { approved: true };
    if (rule.url === '/api/executions/:id/replay-check') return { version: 1 };
    return undefined;
  }

  const cases = ROUTE_RULES.flatMap((rule) =>
    (['global', 'tool', 'filtered'].includes(rule.scope) ? [true] : [true, false]).map((own) => ({
      rule,
      own,
    })),
  );

  it.each(
    cases.map((entry) => [
      `${entry.rule.method} ${entry.rule.url}${entry.own ? '' : ' (other session)'}`,
      entry,
    ]),
  )('%s answers each key exactly as its role and sessions allow', async (_name, { rule, own }) => {
    const session = own ? 'mine' : 'theirs';
    for (const [index, key] of KEYS.entries()) {
      const expected = expectation(key, rule, own);
      const answer =
        rule.url === '/api/events'
          ? await statusOnly(server.baseUrl, concretePath(rule, session), headersOf(key, index))
          : await server.call(rule.method, concretePath(rule, session), {
              headers: headersOf(key, index),
              body: bodyFor(rule, session),
            });
      const context = `${key.label} -> ${rule.method} ${concretePath(rule, session)}: ${answer.status} ${answer.text}`;
      if (expected === 'allowed') {
        expect([401, 403, 500], context).not.toContain(answer.status);
      } else {
        if (expected === 404) {
          // The same answer as for an unknown id: validation comes first for both.
          const id = executions[session] ?? 'none';
          const unknown = await server.call(
            rule.method,
            concretePath(rule, session).replace(id, 'unknown-execution'),
            { headers: headersOf(key, index), body: bodyFor(rule, session) },
          );
          expect(answer.status, context).toBe(unknown.status);
          expect(answer.status, context).not.toBe(403);
          continue;
        }
        expect(answer.status, context).toBe(expected);
        expect(answer.text, context).toBe('');
        if (expected === 401) expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      }
    }
  });

  it('refuses session-limited keys every path outside their sessions, also unknown ones', async () => {
    for (const path of [
      '/api/sessions',
      '/api/executions',
      '/api/events',
      '/api/workers',
      '/api/control/audit',
      '/actuator/metrics',
    ]) {
      const answer = await server.call('GET', path, {
        headers: { authorization: 'Bearer limited-key' },
      });
      expect(answer.status, path).toBe(403);
    }
  });

  it('lets a VIEWER key send OPTIONS on any /api path: no 403, the path answers its methods (SPEC Roles)', async () => {
    for (const path of ['/api/sessions', `/api/executions/${executions.mine}/stop`]) {
      const answer = await rawRequest(server.baseUrl, 'OPTIONS', path, {
        authorization: 'Bearer viewer-key',
      });
      expect(answer.status, path).toBe(405);
      expect(answer.headers.allow, path).toBeTruthy();
    }
  });

  it('answers 404 to a session path naming an execution of another session', async () => {
    const answer = await server.call('GET', `/api/workflow/mine/status/${executions.theirs}`, {
      headers: { authorization: 'Bearer limited-key' },
    });
    expect(answer.status).toBe(404);
  });

  it('refuses an ambiguous path with 400 and no body while a key is set', async () => {
    for (const path of [
      '/api/sessions;x',
      '/api//sessions',
      '/api/sessions/%2e%2e',
      '/api/sessions/a%2Fb',
      '/api/sessions/%25',
    ]) {
      const answer = await rawRequest(server.baseUrl, 'GET', path, ADMIN);
      expect(answer.status, path).toBe(400);
      expect(answer.text).toBe('');
    }
  });

  it('answers 401 with WWW-Authenticate: Bearer for a wrong key, and no body', async () => {
    const answer = await server.call('GET', '/api/sessions', {
      headers: { authorization: 'Bearer wrong' },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    expect(answer.text).toBe('');
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  it('asks for a key on unknown paths too, so route existence does not leak', async () => {
    expect((await server.call('GET', '/api/nothing')).status).toBe(401);
    expect((await server.call('GET', '/api/nothing', { headers: ADMIN })).status).toBe(404);
  });

  it('needs no key for the open paths (SPEC Open paths)', async () => {
    for (const path of ['/actuator/health', '/swagger-ui.html', '/v3/api-docs', '/']) {
      const answer = await server.call('GET', path);
      expect(answer.status, path).not.toBe(401);
    }
  });

  it('keeps /actuator/** for an unrestricted ADMIN key', async () => {
    expect(
      (
        await server.call('GET', '/actuator/info', {
          headers: { authorization: 'Bearer operator-key' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await server.call('GET', '/actuator/info', {
          headers: { authorization: 'Bearer limited-key' },
        })
      ).status,
    ).toBe(403);
    expect((await server.call('GET', '/actuator/info', { headers: ADMIN })).status).not.toBe(403);
  });

  it('refuses an unparseable POST body with 403 for any key but an unrestricted ADMIN key', async () => {
    const limited = await server.call('POST', '/api/workflow/mine/start', {
      headers: { authorization: 'Bearer limited-op-key' },
      body: '{"workflowId": ',
    });
    expect(limited.status).toBe(403);
    expect(limited.text).toBe('');
    const admin = await server.call('POST', '/api/workflow/mine/start', {
      headers: ADMIN,
      body: '{"workflowId": ',
    });
    expect(admin.status).toBe(400);
  });

  it('refuses a POST body over 1 MiB with 413 for any key but an unrestricted ADMIN key', async () => {
    const big = JSON.stringify({ workflowId: 'wf', payload: 'x'.repeat(1024 * 1024) });
    const answer = await server.call('POST', '/api/workflow/start', {
      headers: { authorization: 'Bearer operator-key' },
      body: big,
    });
    expect(answer.status).toBe(413);
  });

  it('records the caller as the version author: key:<name>, key:default for the single key beside named keys', async () => {
    await server.call('POST', '/api/sessions', {
      headers: ADMIN,
      body: { sessionId: 'authors', name: 'a', initiator: 'i' },
    });
    await server.call('PUT', '/api/sessions/authors/workflows/authored', {
      headers: ADMIN,
      body: linearWorkflow('authored'),
    });
    await server.call('PUT', '/api/sessions/authors/workflows/authored', {
      headers: { authorization: 'Bearer root-key' },
      body: linearWorkflow('authored'),
    });
    const versions = await server.call('GET', '/api/sessions/authors/workflows/authored/versions', {
      headers: ADMIN,
    });
    expect(versions.json.data.map((v: { author: string }) => v.author)).toEqual([
      'key:default',
      'key:admin',
    ]);
  });
});

describe('Single key alone (SPEC Authentication 3)', () => {
  it('guards the API with one ADMIN key, records no audit actor, and names key:default as the version author', async () => {
    const server = await startTestServer({ env: { SVC_API_KEY: 'only' } });
    try {
      expect((await server.call('GET', '/api/sessions')).status).toBe(401);
      const created = await server.call('POST', '/api/sessions', {
        headers: { 'x-api-key': 'only' },
        body: { sessionId: 's', name: 'n', initiator: 'i', workflows: [linearWorkflow('w')] },
      });
      expect(created.status).toBe(201);
      const versions = await server.call('GET', '/api/sessions/s/workflows/w/versions', {
        headers: { 'x-api-key': 'only' },
      });
      expect(versions.json.data[0].author).toBe('key:default');
    } finally {
      await server.close();
    }
  });

  it('lets svc.mcp.api-key guard /mcp alone and leaves the REST API open', async () => {
    const server = await startTestServer({ env: { SVC_MCP_API_KEY: 'tools' } });
    try {
      expect((await server.call('GET', '/api/sessions')).status).toBe(200);
      expect((await server.call('POST', '/mcp', { body: {} })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('Host and Origin protection without keys (SPEC Host and Origin protection)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        SVC_ALLOWED_HOSTS: 'app.internal',
        SVC_ALLOWED_ORIGINS: 'https://editor.example:8443',
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const raw = (method: string, headers: Record<string, string>, body?: string) =>
    rawRequest(server.baseUrl, method, '/api/sessions', headers, body);

  it('accepts localhost, 127.0.0.1, [::1] and listed hosts, and refuses others with 403 and no body', async () => {
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:9', 'app.internal']) {
      expect((await raw('GET', { host })).status, host).toBe(200);
    }
    const refused = await raw('GET', { host: 'attacker.example' });
    expect(refused.status).toBe(403);
    expect(refused.text).toBe('');
  });

  it('refuses a changing request from a foreign origin with 403, and accepts same-origin and listed origins', async () => {
    const body = JSON.stringify({ name: 'n', initiator: 'i' });
    const json = { 'content-type': 'application/json' };
    const foreign = await raw(
      'POST',
      { ...json, host: 'localhost:8080', origin: 'https://attacker.example' },
      body,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.text).toBe('');
    expect(
      (
        await raw(
          'POST',
          { ...json, host: 'localhost:8080', origin: 'http://localhost:8080' },
          body,
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await raw(
          'POST',
          { ...json, host: 'localhost:8080', origin: 'https://editor.example:8443' },
          body,
        )
      ).status,
    ).toBe(201);
    expect(
      (await raw('GET', { host: 'localhost:8080', origin: 'https://attacker.example' })).status,
    ).toBe(200);
  });

  it('turns both checks off once any key is configured', async () => {
    const keyed = await startTestServer({ env: { SVC_API_KEY: 'k' } });
    try {
      const foreignHost = await rawRequest(keyed.baseUrl, 'GET', '/api/sessions', {
        host: 'attacker.example',
        authorization: 'Bearer k',
      });
      expect(foreignHost.status).toBe(200);
      const foreignOrigin = await rawRequest(
        keyed.baseUrl,
        'POST',
        '/api/sessions',
        {
          host: 'localhost:8080',
          origin: 'https://attacker.example',
          authorization: 'Bearer k',
          'content-type': 'application/json',
        },
        JSON.stringify({ name: 'n', initiator: 'i' }),
      );
      expect(foreignOrigin.status).toBe(201);
    } finally {
      await keyed.close();
    }
  });
});

describe('Body limit of restricted keys (SPEC Roles)', () => {
  it('caps a restricted key at 1 MiB even when the server accepts larger bodies', async () => {
    const server = await startTestServer({ env: { ...KEY_ENV, SVC_LIMITS_MAX_BODY: '4MB' } });
    try {
      const body = JSON.stringify({
        sessionId: 'none',
        workflowId: 'wf',
        payload: 'x'.repeat(2 * 1024 * 1024),
      });
      const operator = await server.call('POST', '/api/workflow/start', {
        headers: { authorization: 'Bearer operator-key' },
        body,
      });
      expect(operator.status).toBe(413);
      expect(operator.json.message).toContain('1048576');
      const admin = await server.call('POST', '/api/workflow/start', { headers: ADMIN, body });
      expect(admin.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('Start-up check (SPEC Authentication 7)', () => {
  it('refuses to listen on a non-loopback address without a key', async () => {
    const result = await runServerToExit(['--svc.server.address=0.0.0.0']);
    expect(result.code).not.toBe(0);
    expect(result.stderr.startsWith('Refusing to listen on')).toBe(true);
  });

  it('listens on a non-loopback address once a key is set', async () => {
    const server = await startServerProcess(['--svc.server.address=0.0.0.0'], {
      SVC_API_KEY: 'secret-key',
    });
    try {
      const answer = await call(server.baseUrl, 'GET', '/api/sessions', {
        headers: { authorization: 'Bearer secret-key' },
      });
      expect(answer.status).toBe(200);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited();
    }
  });

  it('listens on a non-loopback address with only the tool-endpoint key, leaving REST open (SPEC Authentication 6)', async () => {
    const server = await startServerProcess(['--svc.server.address=0.0.0.0'], {
      SVC_MCP_API_KEY: 'tool-key',
    });
    try {
      expect((await call(server.baseUrl, 'GET', '/api/sessions')).status).toBe(200);
      expect((await call(server.baseUrl, 'POST', '/mcp', { body: {} })).status).toBe(401);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited();
    }
  });

  it('refuses a malformed key entry at start-up, naming the entry', async () => {
    const result = await runServerToExit([], {
      SVC_API_KEYS_0_NAME: 'bad',
      SVC_API_KEYS_0_KEY: 'sha256:abc',
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('svc.api-keys[0]');
  });
});

describe('a body refused before it is read, sent with a key limited to sessions', () => {
  it('leaves the kept-alive connection able to answer the next request', async () => {
    const server = await startTestServer({
      env: {
        SVC_API_KEY: 'root-key',
        // The sessions as a list, one variable an entry.
        SVC_API_KEYS_0_NAME: 'operator',
        SVC_API_KEYS_0_KEY: 'operator-key',
        SVC_API_KEYS_0_ROLE: 'OPERATOR',
        SVC_API_KEYS_0_SESSIONS_0: 's',
      },
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port: new URL(server.baseUrl).port,
            method,
            path,
            agent,
            timeout: 5_000,
            headers: { authorization: 'Bearer operator-key', ...headers },
          },
          (response) => {
            response.resume();
            response.on('end', () => {
              resolve(response.statusCode ?? 0);
            });
          },
        );
        request.on('timeout', () => {
          request.destroy(new Error(`no answer to ${method} ${path}`));
        });
        request.on('error', reject);
        request.end(body);
      });
    try {
      // Larger than what the connection buffers: unread, it would hold the next request back.
      const refused = await send(
        'POST',
        '/api/workflow/s/start',
        { 'content-type': 'application/x-unknown' },
        'x'.repeat(256 * 1024),
      );
      expect(refused).toBe(415);
      expect(await send('GET', '/api/sessions/s/approvals', {})).toBe(200);
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});
