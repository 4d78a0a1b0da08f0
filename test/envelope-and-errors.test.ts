// SPEC "Response envelope" and "Errors": every answer, success or failure, in one envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../src/stores/index.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';

const session = { name: 'Demo', initiator: 'alice' };

describe('SPEC Response envelope and Errors', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('wraps a success in timestamp, status, message and data', async () => {
    const answer = await server.call('POST', '/api/sessions', { body: session });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ status: 201, message: 'Session created' });
    expect(Date.parse(answer.json.timestamp)).not.toBeNaN();
    expect(answer.json.data.name).toBe('Demo');
    expect(answer.json.error).toBeUndefined();
  });

  it("refuses an unknown field with 'Invalid request body' and Unknown field: '<name>'", async () => {
    const answer = await server.call('POST', '/api/sessions', {
      body: { ...session, color: 'red' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      status: 400,
      error: 'Bad Request',
      message: 'Invalid request body',
      path: '/api/sessions',
    });
    expect(answer.json.errors).toEqual([{ field: 'color', message: "Unknown field: 'color'" }]);
  });

  it('refuses an unknown field nested inside a workflow node', async () => {
    const answer = await server.call('POST', '/api/sessions/validate', {
      body: {
        workflowId: 'w',
        description: '',
        nodes: [{ nodeId: 'a', type: 'MANUAL', x: 1 }],
        edges: [],
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Invalid request body');
    expect(answer.json.errors).toEqual([{ field: 'nodes[0].x', message: "Unknown field: 'x'" }]);
  });

  it('refuses a body that is not valid JSON with 400 in the envelope', async () => {
    const answer = await server.call('POST', '/api/sessions', { body: '{"name": "x",' });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Invalid request body');
    expect(answer.json.errors[0].field).toBe('body');
    expect(answer.json.path).toBe('/api/sessions');
  });

  it('refuses a JSON body that is not an object', async () => {
    const answer = await server.call('POST', '/api/sessions', { body: '[1,2]' });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Invalid request body');
  });

  it("names each missing mandatory field: 'Session name is mandatory'", async () => {
    const answer = await server.call('POST', '/api/sessions', { body: {} });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Validation failed');
    expect(answer.json.errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Session name is mandatory' },
        { field: 'initiator', message: 'Session initiator is mandatory' },
      ]),
    );
  });

  it('treats a blank name as missing and a mistyped one as invalid', async () => {
    const blank = await server.call('POST', '/api/sessions', {
      body: { name: '  ', initiator: 'a' },
    });
    expect(blank.json.errors).toEqual([{ field: 'name', message: 'Session name is mandatory' }]);
    const typed = await server.call('POST', '/api/sessions', { body: { name: 5, initiator: 'a' } });
    expect(typed.status).toBe(400);
    expect(typed.json.message).toBe('Validation failed');
    expect(typed.json.errors).toEqual([
      { field: 'name', message: 'Session name must be a string' },
    ]);
  });

  it('answers a POST without any body with the mandatory fields', async () => {
    const answer = await server.call('POST', '/api/sessions');
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toContainEqual({
      field: 'name',
      message: 'Session name is mandatory',
    });
  });

  it('answers an unknown path with 404 in the envelope', async () => {
    const answer = await server.call('GET', '/api/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({
      status: 404,
      error: 'Not Found',
      path: '/api/nothing-here',
    });
    expect(typeof answer.json.message).toBe('string');
  });

  it('answers a known path with the wrong method with 405, the envelope and Allow', async () => {
    const answer = await server.call('PATCH', '/api/sessions');
    expect(answer.status).toBe(405);
    expect(answer.json).toMatchObject({
      status: 405,
      error: 'Method Not Allowed',
      path: '/api/sessions',
    });
    expect(answer.headers.get('allow')).toContain('GET');
    expect(answer.headers.get('allow')).toContain('POST');
  });

  it('answers 405 for a path with parameters too', async () => {
    const answer = await server.call('POST', '/api/sessions/abc/workflows/wf/graph');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toContain('GET');
  });

  it('answers a body over the 1 MiB default limit with 413 in the envelope', async () => {
    const big = JSON.stringify({ ...session, description: 'x'.repeat(1024 * 1024) });
    const answer = await server.call('POST', '/api/sessions', { body: big });
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ status: 413, error: 'Payload Too Large' });
    expect(answer.json.message).toContain('1048576');
  });

  it('answers a body that is not JSON with 415 in the envelope', async () => {
    const answer = await server.call('POST', '/api/sessions', {
      body: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(415);
    expect(answer.json).toMatchObject({ status: 415, error: 'Unsupported Media Type' });
  });

  it('leaves errors out of an answer not tied to fields and puts it in a field failure (SPEC Response envelope, Errors)', async () => {
    const notTiedToFields = [
      await server.call('GET', '/api/sessions/unknown-session'),
      await server.call('GET', '/api/nothing-here'),
      await server.call('PATCH', '/api/sessions'),
      await server.call('POST', '/api/sessions', {
        body: 'name=x',
        headers: { 'content-type': 'text/plain' },
      }),
    ];
    expect(notTiedToFields.map((answer) => answer.status)).toEqual([404, 404, 405, 415]);
    for (const answer of notTiedToFields) {
      expect(Object.keys(answer.json).sort()).toEqual(
        ['error', 'message', 'path', 'status', 'timestamp'].sort(),
      );
    }
    const fieldFailure = await server.call('POST', '/api/sessions', {
      body: { initiator: 'alice' },
    });
    expect(fieldFailure.status).toBe(400);
    expect(fieldFailure.json.errors).toEqual([
      { field: 'name', message: 'Session name is mandatory' },
    ]);
  });

  it('puts X-Request-ID on every answer, success and error alike', async () => {
    const ok = await server.call('GET', '/api/sessions');
    const missing = await server.call('GET', '/api/sessions/none');
    const unknown = await server.call('GET', '/nowhere');
    for (const answer of [ok, missing, unknown]) {
      expect(answer.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
    }
    expect(ok.headers.get('x-request-id')).not.toBe(missing.headers.get('x-request-id'));
  });

  it("keeps a caller's own X-Request-ID", async () => {
    const answer = await server.call('GET', '/api/sessions', {
      headers: { 'x-request-id': 'trace-42' },
    });
    expect(answer.headers.get('x-request-id')).toBe('trace-42');
  });
});

describe('SPEC Errors: 413 follows SVC_LIMITS_MAX_BODY', () => {
  it('refuses a body over a configured limit of 2KB and accepts one under it', async () => {
    const server = await startTestServer({ env: { SVC_LIMITS_MAX_BODY: '2KB' } });
    try {
      const over = await server.call('POST', '/api/sessions', {
        body: { ...session, description: 'y'.repeat(3000) },
      });
      expect(over.status).toBe(413);
      expect(over.json.message).toContain('2048');
      const under = await server.call('POST', '/api/sessions', {
        body: { ...session, description: 'y'.repeat(100) },
      });
      expect(under.status).toBe(201);
    } finally {
      await server.close();
    }
  });
});

describe('SPEC Errors: 500', () => {
  it('answers an unexpected failure with a reference equal to X-Request-ID and no stack trace', async () => {
    class BrokenStore extends MemorySessionStore {
      override putSession(): Promise<void> {
        return Promise.reject(new Error('disk on fire at /secret/path'));
      }
    }
    const server = await startTestServer({ store: new BrokenStore() });
    try {
      const answer = await server.call('POST', '/api/sessions', { body: session });
      expect(answer.status).toBe(500);
      const reference = answer.headers.get('x-request-id');
      expect(answer.json).toMatchObject({
        status: 500,
        error: 'Internal Server Error',
        message: `An unexpected error occurred. Reference: ${reference}`,
      });
      expect(answer.text).not.toContain('disk on fire');
      expect(answer.text).not.toMatch(/at .+\.(ts|js):\d+/);
    } finally {
      await server.close();
    }
  });

  it('answers an unexpected failure without an errors member (SPEC Errors)', async () => {
    class BrokenStore extends MemorySessionStore {
      override putSession(): Promise<void> {
        return Promise.reject(new Error('disk on fire'));
      }
    }
    const server = await startTestServer({ store: new BrokenStore() });
    try {
      const answer = await server.call('POST', '/api/sessions', { body: session });
      expect(answer.status).toBe(500);
      expect(answer.json).not.toHaveProperty('errors');
    } finally {
      await server.close();
    }
  });
});
