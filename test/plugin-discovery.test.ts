// CONTRACT section 4: GET /api/plugins and /api/plugins/{type} describe every plugin type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';

const CORE_TYPES = [
  'MANUAL',
  'CONSTANT_SOURCE',
  'API_TRIGGER',
  'CRON',
  'CONSOLE_TERMINAL',
  'NOTIFY_TERMINAL',
  'FILTER',
  'BRANCH',
  'SPLITTER',
  'AGGREGATOR',
  'RECIPIENT_LIST',
  'MAPPER',
  'CONTENT_FILTER',
  'DELAY',
  'LOOP_PREDICATE',
  'LOOP_STREAM',
  'SUB_WORKFLOW',
  'WAIT_FOR_SIGNAL',
];
const OPTIONAL_TYPES = [
  'PROCESS_EXECUTOR',
  'HTTP_REQUEST',
  'FILE_READ',
  'FILE_WRITE',
  'SQL_QUERY',
  'LLM_CALL',
  'SESSION_MEMORY',
  'SCORE',
  'ANOMALY',
  'GATE',
  'CLASSIFY',
  'ASK',
  'DEDUPE',
  'MCP_TOOL_CALL',
  'MCP_LIST_TOOLS',
];

describe('Plugin discovery (CONTRACT 4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists every type SPEC and CONTRACT section 1 name in the default build', async () => {
    const answer = await server.call('GET', '/api/plugins');
    expect(answer.status).toBe(200);
    const types = answer.json.data.map((p: { type: string }) => p.type);
    expect(types).toEqual(expect.arrayContaining([...CORE_TYPES, ...OPTIONAL_TYPES]));
  });

  it('describes one type with its kind, JSON Schema of the config and ports', async () => {
    const answer = await server.call('GET', '/api/plugins/FILTER');
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({
      type: 'FILTER',
      kind: 'processor',
      ports: ['out', 'rejected'],
    });
    expect(answer.json.data.configSchema.type).toBe('object');
    expect(answer.json.data.configSchema.properties).toHaveProperty('expression');
    expect((await server.call('GET', '/api/plugins/MANUAL')).json.data.kind).toBe('trigger');
    expect((await server.call('GET', '/api/plugins/CONSOLE_TERMINAL')).json.data.kind).toBe(
      'terminal',
    );
  });

  it('answers an unknown type with 404', async () => {
    const answer = await server.call('GET', '/api/plugins/TELEPORT');
    expect(answer.status).toBe(404);
    expect(answer.json.message).toContain('TELEPORT');
  });
});

describe('Build-time plugin choice (SPEC Build-time choices)', () => {
  it('leaves optional types out of a build without them and explains why in validation', async () => {
    const server = await startTestServer({
      buildInfo: {
        version: 'x',
        commit: 'x',
        buildTime: 'x',
        plugins: [],
        persistence: false,
        workers: false,
      },
    });
    try {
      const types = (await server.call('GET', '/api/plugins')).json.data.map(
        (p: { type: string }) => p.type,
      );
      expect(types).toEqual(expect.arrayContaining(CORE_TYPES));
      expect(types).not.toContain('HTTP_REQUEST');
      const result = await server.call('POST', '/api/sessions/validate', {
        body: {
          workflowId: 'w',
          description: '',
          nodes: [
            { nodeId: 't', type: 'MANUAL' },
            { nodeId: 'h', type: 'HTTP_REQUEST', config: { url: 'http://127.0.0.1/' } },
          ],
          edges: [{ source: 't', target: 'h' }],
        },
      });
      expect(result.json.data.valid).toBe(false);
      expect(result.json.data.message).toContain('http-request');
    } finally {
      await server.close();
    }
  });
});
