// The web UI (SPEC "Deployment facts", "Open paths") through a real listening server, with the
// UI `npm run build` makes (the test setup builds it when it is missing or stale).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_UI_DIR, loadUiBundle, uiRoutes } from '../src/http/index.js';
import { createBareHttpServer } from '../src/http/testing/index.js';
import { call, rawRequest, startTestServer } from './support/server.js';
import type { HttpAnswer, TestServer } from './support/server.js';

const YEAR = 'public, max-age=31536000, immutable';

/** The directives of a Content-Security-Policy header, by name. */
function policyOf(header: string | null): Map<string, string> {
  const directives = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name !== undefined && name !== '') directives.set(name, sources.join(' '));
  }
  return directives;
}

function expectPage(answer: HttpAnswer): void {
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.text).toContain('<div id="root"></div>');
  const policy = policyOf(answer.headers.get('content-security-policy'));
  expect(policy.get('default-src')).toBe("'self'");
  expect(policy.get('script-src')).toBe("'self'");
  expect(policy.get('style-src')).toBe("'self'");
  expect(policy.get('connect-src')).toBe("'self'");
  expect(policy.get('object-src')).toBe("'none'");
  expect(policy.get('frame-ancestors')).toBe("'none'");
}

/** A GET whose body is kept as sent: fetch would undo a content encoding. */
function rawBody(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ headers: res.headers, body: Buffer.concat(chunks) });
      });
    })
      .on('error', reject)
      .end();
  });
}

/** The script and style sheet the built page names. */
function assetsOf(page: string): string[] {
  return [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1] ?? '');
}

describe('The web UI (SPEC Deployment facts)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers GET / with the page, never cached, allowing only same-origin scripts, styles and connections, no framing and no objects', async () => {
    expectPage(await server.call('GET', '/'));
  });

  it('answers any other GET path outside the API, management, tool-endpoint and documentation paths with the same page', async () => {
    const home = await server.call('GET', '/');
    for (const path of ['/executions/abc', '/sessions/s1/workflows/w1?tab=versions', '/nowhere']) {
      const answer = await server.call('GET', path);
      expectPage(answer);
      expect(answer.text, path).toBe(home.text);
    }
    const head = await server.call('HEAD', '/executions/abc');
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(head.text).toBe('');
  });

  it('never caches the page, also when it is asked for as /index.html', async () => {
    expectPage(await server.call('GET', '/index.html'));
  });

  it('serves the built assets under /assets/ cached for a year, as the build wrote them', async () => {
    const assets = assetsOf((await server.call('GET', '/')).text);
    expect(assets.some((path) => path.endsWith('.js'))).toBe(true);
    expect(assets.some((path) => path.endsWith('.css'))).toBe(true);
    for (const path of assets) {
      const answer = await fetch(`${server.baseUrl}${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('cache-control'), path).toBe(YEAR);
      expect(answer.headers.get('content-type'), path).toBe(
        path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(
        readFileSync(join(WEB_UI_DIR, path.slice(1))),
      );
    }
  });

  it('serves top-level assets cached for a year', async () => {
    const icon = await server.call('GET', '/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe(YEAR);
    expect(icon.text).toContain('<svg');
  });

  it('answers an asset the build did not make with the 404 envelope, not the page', async () => {
    const answer = await server.call('GET', '/assets/missing-0000.js');
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ status: 404, path: '/assets/missing-0000.js' });
    expect(answer.headers.get('cache-control')).toBeNull();
  });

  it('keeps unknown API paths answered with the JSON 404 envelope, and known ones with 405 for other methods', async () => {
    for (const [method, path] of [
      ['GET', '/api'],
      ['GET', '/api/nowhere'],
      ['GET', '/api/sessions/s1/nowhere/deeper'],
      ['POST', '/api/nowhere'],
    ] as const) {
      const answer = await server.call(method, path);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.json).toMatchObject({ status: 404, error: 'Not Found', path });
    }
    const wrongMethod = await server.call('DELETE', '/api/sessions');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('leaves management, tool-endpoint and documentation paths to their own answers', async () => {
    const health = await server.call('GET', '/actuator/health');
    expect(health.json).toMatchObject({ status: 'UP' });
    for (const path of ['/actuator/nowhere', '/mcp/nowhere', '/v3/api-docs/nowhere']) {
      const answer = await server.call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.json).toMatchObject({ status: 404, path });
    }
    const tool = await server.call('GET', '/mcp');
    expect(tool.status).toBe(405);
    const docs = await server.call('GET', '/v3/api-docs');
    expect(docs.json.openapi).toMatch(/^3\./);
    const swagger = await rawRequest(server.baseUrl, 'GET', '/swagger-ui.html');
    expect(swagger.status).toBe(302);
    const swaggerPage = await server.call('GET', '/swagger-ui/');
    expect(swaggerPage.text).toContain('swagger');
    expect(swaggerPage.text).not.toContain('<div id="root"></div>');
  });

  it('answers other methods on UI paths like any path without an endpoint: 404 in the envelope', async () => {
    for (const path of ['/', '/executions/abc']) {
      const answer = await server.call('POST', path, { body: {} });
      expect(answer.status, path).toBe(404);
      expect(answer.json).toMatchObject({ status: 404, path });
    }
  });

  it('adds no route: the UI is in neither the API description nor the route mappings', async () => {
    const uiRoutes = server.app.routes.filter(
      (route) => route.url === '/' || route.url === '/*' || route.url.startsWith('/assets'),
    );
    expect(uiRoutes).toEqual([]);
    const docs = await server.call('GET', '/v3/api-docs');
    const paths = Object.keys(docs.json.paths);
    expect(paths.filter((path) => path === '/' || path.startsWith('/assets'))).toEqual([]);
  });
});

describe('The web UI on a server with a key (SPEC Open paths)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { SVC_API_KEY: 'ui-key' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves the page, deep links and assets without a key while the API calls the UI makes need it', async () => {
    const page = await server.call('GET', '/');
    expectPage(page);
    expectPage(await server.call('GET', '/executions/abc'));
    for (const asset of assetsOf(page.text)) {
      expect((await server.call('GET', asset)).status, asset).toBe(200);
    }
    const refused = await server.call('GET', '/api/sessions');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    const allowed = await server.call('GET', '/api/sessions', {
      headers: { authorization: 'Bearer ui-key' },
    });
    expect(allowed.status).toBe(200);
  });

  it('still refuses an ambiguous UI path with 400 before anything else answers', async () => {
    const answer = await rawRequest(server.baseUrl, 'GET', '/assets/%2e%2e/index.html');
    expect(answer.status).toBe(400);
    expect(answer.text).toBe('');
  });
});

describe('The web UI in the prod profile (SPEC Runtime profiles)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ argv: ['prod'] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('compresses assets over 1 KB as the profile compresses answers, keeping their year-long cache', async () => {
    const page = await server.call('GET', '/');
    const script = assetsOf(page.text).find((path) => path.endsWith('.js')) ?? '';
    const original = readFileSync(join(WEB_UI_DIR, script.slice(1)));
    for (const encoding of ['br', 'gzip']) {
      const answer = await rawBody(server.baseUrl, script, { 'accept-encoding': encoding });
      expect(answer.headers['content-encoding'], encoding).toBe(encoding);
      expect(answer.headers.vary).toBe('accept-encoding');
      expect(answer.headers['cache-control']).toBe(YEAR);
      const decoded =
        encoding === 'br' ? brotliDecompressSync(answer.body) : gunzipSync(answer.body);
      expect(decoded.equals(original), encoding).toBe(true);
    }
    const plain = await rawBody(server.baseUrl, script, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
  });
});

describe('A server whose web UI is not built', () => {
  const empty = mkdtempSync(join(tmpdir(), 'svc-no-ui-'));
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const { fastify } = await createBareHttpServer({ bodyLimit: 1024 * 1024 });
    await fastify.register(uiRoutes, { dir: empty });
    await fastify.listen({ host: '127.0.0.1', port: 0 });
    const address = fastify.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    close = () => fastify.close();
  });
  afterAll(async () => {
    await close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('starts, and answers the UI paths 404 with a plain page saying the UI is not built', async () => {
    for (const path of ['/', '/executions/abc', '/assets/index.js']) {
      const answer = await call(baseUrl, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.text).toContain('The web UI is not built');
      expect(answer.text).toContain('npm run build');
    }
    const api = await call(baseUrl, 'GET', '/api/nowhere');
    expect(api.status).toBe(404);
    expect(api.json).toMatchObject({ status: 404, path: '/api/nowhere' });
  });
});

describe('The web UI build (CONTRACT 6)', () => {
  const out = mkdtempSync(join(tmpdir(), 'svc-web-build-'));
  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
  });

  it('makes one page and the hashed assets it names, with the production build of React', async () => {
    const build = spawnSync(
      process.execPath,
      [
        fileURLToPath(new URL('../scripts/build-web.mjs', import.meta.url)),
        '--quiet',
        `--out-dir=${out}`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' } },
    );
    expect(build.status, build.stderr).toBe(0);
    const bundle = await loadUiBundle(out);
    expect(bundle).toBeDefined();
    const named = assetsOf(bundle?.page.body.toString('utf8') ?? '');
    expect(named.length).toBeGreaterThanOrEqual(2);
    for (const path of named) {
      expect(bundle?.assets.has(path), path).toBe(true);
      expect(path).toMatch(/^\/assets\/[\w-]+-[\w-]{8}\.(?:js|css)$/);
    }
    const script = named.find((path) => path.endsWith('.js')) ?? '';
    // React's development build greets the console with this; its production build does not.
    const text = bundle?.assets.get(script)?.body.toString('utf8') ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(text.includes('Download the React DevTools'), 'a development build of React').toBe(
      false,
    );
  });
});
