// SPEC "Errors": answers made before any route runs (the HTTP parser, the router, the body
// parser) are in the same envelope with an X-Request-ID. Sent as raw bytes, since fetch and
// node:http refuse to send most of these requests.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  // Answers are read field by field in assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
}

/** Writes `bytes` on a new connection and reads the one answer until the server closes. */
function sendRaw(baseUrl: string, bytes: string | Buffer): Promise<RawAnswer> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      resolve(parseAnswer(Buffer.concat(chunks).toString('utf8')));
    });
  });
}

function parseAnswer(raw: string): RawAnswer {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = raw.slice(split + 4);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: the test reads `text`.
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, json };
}

function request(requestLine: string, headers: Record<string, string> = {}, body?: string): string {
  const all: Record<string, string> = { Host: '127.0.0.1', Connection: 'close', ...headers };
  if (body !== undefined) {
    all['Content-Type'] ??= 'application/json';
    all['Content-Length'] = String(Buffer.byteLength(body));
  }
  const head = Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${requestLine}\r\n${head.join('')}\r\n${body ?? ''}`;
}

function expectEnvelope(answer: RawAnswer, status: number, path: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.json).toMatchObject({ status, path });
  expect(Object.keys(answer.json as object).sort()).toEqual(
    ['error', 'message', 'path', 'status', 'timestamp'].sort(),
  );
  expect(typeof answer.json.message).toBe('string');
  expect(Date.parse(answer.json.timestamp as string)).not.toBeNaN();
}

// One open server for the rules below; the keyed server is started by its own test.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('SPEC Errors: answers made before a route runs are in the envelope', () => {
  it('answers a malformed URL (a lone percent sign) with 400 in the envelope', async () => {
    const answer = await sendRaw(
      server.baseUrl,
      request('POST /api/executions/%/priority?priority=1 HTTP/1.1'),
    );
    expectEnvelope(answer, 400, '/api/executions/%/priority');
    expect(answer.json.error).toBe('Bad Request');
    expect(answer.json.message).toContain('Malformed URL');
  });

  it('answers bad percent-encoding and encoded bytes that are not UTF-8 with 400 in the envelope', async () => {
    for (const path of ['/api/sessions/%zz', '/api/sessions/%C3%28']) {
      const answer = await sendRaw(server.baseUrl, request(`GET ${path} HTTP/1.1`));
      expectEnvelope(answer, 400, path);
    }
  });

  it('answers a raw non-ASCII byte in the path with 400 in the envelope', async () => {
    const bytes = Buffer.concat([
      Buffer.from('GET /api/sessions/caf'),
      Buffer.from([0xe9]),
      Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    ]);
    const answer = await sendRaw(server.baseUrl, bytes);
    expect(answer.status).toBe(400);
    expect(answer.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
    expect(answer.json).toMatchObject({ status: 400, error: 'Bad Request' });
    expect(answer.json.message).toContain('Malformed HTTP request');
  });

  it('answers a request line that is not HTTP with 400 in the envelope', async () => {
    const answer = await sendRaw(server.baseUrl, 'HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
    expect(answer.json).toMatchObject({ status: 400, error: 'Bad Request', path: '' });
  });

  it('answers a malformed Content-Length with 400 in the envelope', async () => {
    const answer = await sendRaw(
      server.baseUrl,
      request('POST /api/sessions HTTP/1.1', { 'Content-Length': 'abc' }),
    );
    expectEnvelope(answer, 400, '/api/sessions');
  });

  it('answers a path parameter over the 128-character id limit with 414 in the envelope', async () => {
    const path = `/api/sessions/${'a'.repeat(129)}`;
    const answer = await sendRaw(server.baseUrl, request(`GET ${path} HTTP/1.1`));
    expectEnvelope(answer, 414, path);
    expect(answer.json.error).toBe('URI Too Long');
    expect(answer.json.message).toContain('128');
  });

  it('answers headers too large with 431 in the envelope', async () => {
    const answer = await sendRaw(
      server.baseUrl,
      request('GET /api/sessions HTTP/1.1', { 'X-Padding': 'p'.repeat(20_000) }),
    );
    expectEnvelope(answer, 431, '/api/sessions');
    expect(answer.json.error).toBe('Request Header Fields Too Large');
  });

  it('answers a URL too large with 431 in the envelope', async () => {
    const answer = await sendRaw(
      server.baseUrl,
      request(`GET /api/sessions?padding=${'p'.repeat(20_000)} HTTP/1.1`),
    );
    expectEnvelope(answer, 431, '/api/sessions');
  });
});

describe('SPEC Errors: X-Request-ID on answers written past Fastify', () => {
  it('puts X-Request-ID on answers of the tool endpoint too', async () => {
    const answer = await server.call('POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'no/such-method' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
  });
});

describe('SPEC Errors: ids accepted on create can be read and deleted (path and schema limits agree)', () => {
  it('reads and deletes sessions with 120- and 128-character ids', async () => {
    for (const length of [120, 128]) {
      const sessionId = 's'.repeat(length);
      const created = await server.call('POST', '/api/sessions', {
        body: { sessionId, name: 'Long id', initiator: 'alice' },
      });
      expect(created.status).toBe(201);
      expect((await server.call('GET', `/api/sessions/${sessionId}`)).status).toBe(200);
      expect((await server.call('DELETE', `/api/sessions/${sessionId}`)).status).toBe(200);
    }
  });

  it('reads a workflow with a 128-character id whose characters are percent-encoded in the path', async () => {
    const workflowId = 'é'.repeat(128);
    const sessionId = 'accents';
    const created = await server.call('POST', '/api/sessions', {
      body: {
        sessionId,
        name: 'Accents',
        initiator: 'alice',
        workflows: [{ workflowId, description: '', nodes: [{ nodeId: 'm', type: 'MANUAL' }] }],
      },
    });
    expect(created.status).toBe(201);
    const read = await server.call(
      'GET',
      `/api/sessions/${sessionId}/workflows/${encodeURIComponent(workflowId)}`,
    );
    expect(read.status).toBe(200);
    expect(read.json.data.workflowId).toBe(workflowId);
  });

  it('refuses a 129-character session id on create with 400', async () => {
    const answer = await server.call('POST', '/api/sessions', {
      body: { sessionId: 's'.repeat(129), name: 'Too long', initiator: 'alice' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      { field: 'sessionId', message: 'Session id must be at most 128 characters' },
    ]);
  });

  it('refuses a node id a node control path could not carry', async () => {
    const answer = await server.call('POST', '/api/sessions/validate', {
      body: {
        workflowId: 'w',
        description: '',
        nodes: [{ nodeId: 'n'.repeat(129), type: 'MANUAL' }],
        edges: [],
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      { field: 'nodes[0].nodeId', message: 'Node id must be at most 128 characters' },
    ]);
  });
});

describe('SPEC Errors: bodies the JSON parser refuses name what is wrong', () => {
  it('refuses a __proto__ key with its own message, not as malformed JSON', async () => {
    const answer = await server.call('POST', '/api/sessions', {
      body: '{"name":"a","initiator":"b","__proto__":{"admin":true}}',
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
    expect(answer.json).toMatchObject({ message: 'Invalid request body', path: '/api/sessions' });
    expect(answer.json.errors).toEqual([
      {
        field: '__proto__',
        message: "Field '__proto__' is not allowed: it could change the prototype of objects",
      },
    ]);
  });

  it('names the place of a __proto__ key nested in free-form node configuration', async () => {
    const answer = await server.call('POST', '/api/sessions/validate', {
      body: '{"workflowId":"w","nodes":[{"nodeId":"m","type":"MANUAL","config":{"a":{"__proto__":{}}}}]}',
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0].field).toBe('nodes[0].config.a.__proto__');
  });

  it('refuses constructor.prototype the same way', async () => {
    const answer = await server.call('POST', '/api/sessions', {
      body: '{"name":"a","initiator":"b","constructor":{"prototype":{"x":1}}}',
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0]).toMatchObject({ field: 'constructor' });
  });

  it('refuses a body nested deeper than 100 levels with 400, not a failure of the server', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const answer = await server.call('POST', '/api/workflow/start', {
      body: `{"sessionId":"s","workflowId":"w","payload":${deep}}`,
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0].message).toBe('Request body is nested deeper than 100 levels');
  });

  it('keeps malformed JSON a malformed-JSON refusal with the parser reason', async () => {
    const answer = await server.call('POST', '/api/sessions', { body: '{"name": "x",' });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0]).toMatchObject({ field: 'body' });
    expect(answer.json.errors[0].message).toMatch(/^Malformed JSON: /);
  });
});

describe('SPEC Errors: with a key set, router refusals are still in the envelope', () => {
  it('answers a malformed URL with the envelope, and a missing key stays a bodiless 401', async () => {
    const keyed = await startTestServer({ env: { SVC_API_KEY: 'secret-key' } });
    try {
      const malformed = await sendRaw(keyed.baseUrl, request('GET /api/sessions/%zz HTTP/1.1'));
      expectEnvelope(malformed, 400, '/api/sessions/%zz');
      const missingKey = await sendRaw(keyed.baseUrl, request('GET /api/sessions HTTP/1.1'));
      expect(missingKey.status).toBe(401);
      expect(missingKey.text).toBe('');
    } finally {
      await keyed.close();
    }
  });
});
