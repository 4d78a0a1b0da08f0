// The request-rate limit per API caller (SPEC Limits: "Request-rate limit for API callers";
// the decision is in docs/architecture.md), through a real server.
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeysEnv } from './support/api-keys.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('request-rate limit', () => {
  it('answers 429 with Retry-After once a caller is over its requests per minute, for each key apart', async () => {
    server = await startTestServer({
      env: {
        SVC_RATE_LIMIT_REQUESTS_PER_MINUTE: '2',
        ...apiKeysEnv({ ops: 'ADMIN', ci: 'VIEWER' }),
      },
    });
    const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    expect((await server.call('GET', '/api/sessions', as('ops-key'))).status).toBe(200);
    expect((await server.call('GET', '/api/plugins', as('ops-key'))).status).toBe(200);
    const refused = await server.call('GET', '/api/sessions', as('ops-key'));
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({
      status: 429,
      error: 'Too Many Requests',
      path: '/api/sessions',
    });
    expect(refused.json.message).toMatch(
      /^Too many requests: at most 2 a minute per caller; retry in \d+ s$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another key has a bucket of its own; health and the UI are not limited.
    expect((await server.call('GET', '/api/sessions', as('ci-key'))).status).toBe(200);
    expect((await server.call('GET', '/actuator/health')).status).toBe(200);
    expect((await server.call('GET', '/actuator/health')).status).toBe(200);
    expect((await server.call('GET', '/actuator/health')).status).toBe(200);
  });

  it('limits nothing by default', async () => {
    server = await startTestServer();
    for (let i = 0; i < 30; i++) {
      expect((await server.call('GET', '/api/sessions')).status).toBe(200);
    }
  });
});
