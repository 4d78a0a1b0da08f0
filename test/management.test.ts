// SPEC "Management and documentation endpoints", "Meters" and "Versioning" 1: actuator
// endpoints, their exposure per profile, and the OpenAPI description.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METER_CATALOGUE } from '../src/observability/index.js';
import { rawRequest, startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf } from './support/wait.js';
import { linearWorkflow } from './support/workflows.js';

describe('Management endpoints in dev (SPEC Management and documentation endpoints)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'm', name: 'm', initiator: 'i', workflows: [linearWorkflow('w')] },
    });
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'm', workflowId: 'w' },
    });
    await endOf(server, start.json.data.executionId as string);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers health UP, with details for an authorized caller (an open server)', async () => {
    const health = await server.call('GET', '/actuator/health');
    expect(health.status).toBe(200);
    expect(health.json.status).toBe('UP');
    expect(health.json.components.sessionStore.status).toBe('UP');
  });

  it('describes the build (version, commit, build time, included plugins) and the Node.js it runs on', async () => {
    const info = await server.call('GET', '/actuator/info');
    expect(info.status).toBe(200);
    expect(info.json.runtime).toEqual({ name: 'node', version: process.versions.node });
    expect(info.json.build).toMatchObject({ version: '0.0.1-SNAPSHOT', commit: 'test' });
    expect(info.json.build.plugins).toContain('http-request');
    expect(info.json.build.time).toEqual(expect.any(String));
  });

  it('lists every meter of SPEC and reads one with measurements, available tags and tag filters', async () => {
    const list = await server.call('GET', '/actuator/metrics');
    expect(list.json.names).toEqual(
      expect.arrayContaining(METER_CATALOGUE.map((spec) => spec.name)),
    );
    const meter = await server.call('GET', '/actuator/metrics/svc.node.executions');
    expect(meter.status).toBe(200);
    expect(meter.json.name).toBe('svc.node.executions');
    expect(meter.json.measurements[0]).toEqual({ statistic: 'COUNT', value: 3 });
    expect(meter.json.availableTags).toContainEqual({
      tag: 'module',
      values: ['CONSOLE_TERMINAL', 'MANUAL', 'MAPPER'],
    });
    const filtered = await server.call(
      'GET',
      '/actuator/metrics/svc.node.executions?tag=module:MAPPER',
    );
    expect(filtered.json.measurements[0].value).toBe(1);
    expect((await server.call('GET', '/actuator/metrics/svc.nothing')).status).toBe(404);
    expect(
      (await server.call('GET', '/actuator/metrics/svc.node.executions?tag=broken')).status,
    ).toBe(400);
  });

  it('serves the meters in the Prometheus text format', async () => {
    const text = await server.call('GET', '/actuator/prometheus');
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toContain('text/plain');
    expect(text.text).toContain('svc_node_executions_total{module="MAPPER",status="COMPLETED"} 1');
  });

  it('reads and changes a log level at run time', async () => {
    const before = await server.call('GET', '/actuator/loggers/engine');
    expect(before.json).toEqual({ configuredLevel: null, effectiveLevel: 'OFF' });
    const change = await server.call('POST', '/actuator/loggers/engine', {
      body: { configuredLevel: 'DEBUG' },
    });
    expect(change.status).toBe(204);
    expect(server.app.loggers.engine.level).toBe('debug');
    const after = await server.call('GET', '/actuator/loggers');
    expect(after.json.loggers.engine).toEqual({
      configuredLevel: 'DEBUG',
      effectiveLevel: 'DEBUG',
    });
    await server.call('POST', '/actuator/loggers/engine', { body: { configuredLevel: null } });
    expect(server.app.loggers.engine.level).toBe('silent');
    expect(
      (await server.call('POST', '/actuator/loggers/nobody', { body: { configuredLevel: 'INFO' } }))
        .status,
    ).toBe(400);
  });

  it('lists every route in the mappings', async () => {
    const mappings = await server.call('GET', '/actuator/mappings');
    expect(mappings.json.routes).toContainEqual({ method: 'POST', url: '/api/workflow/start' });
    expect(mappings.json.routes).toContainEqual({ method: 'GET', url: '/actuator/mappings' });
  });

  it('answers the thread dump with the event loop, active resources and the diagnostic report', async () => {
    const dump = await server.call('GET', '/actuator/threaddump');
    expect(dump.status).toBe(200);
    expect(dump.json.eventLoop.delayMs).toHaveProperty('p99');
    expect(Array.isArray(dump.json.activeResources)).toBe(true);
    expect(dump.json.report.header).toHaveProperty('nodejsVersion');
  });
});

describe('Management exposure (SPEC Runtime profiles)', () => {
  it('exposes health, info and metrics in prod, and nothing else', async () => {
    const server = await startTestServer({ argv: ['prod'] });
    try {
      for (const path of ['/actuator/health', '/actuator/info', '/actuator/metrics']) {
        expect((await server.call('GET', path)).status, path).toBe(200);
      }
      for (const path of ['/actuator/loggers', '/actuator/mappings', '/actuator/threaddump']) {
        expect((await server.call('GET', path)).status, path).toBe(404);
      }
    } finally {
      await server.close();
    }
  });

  it('replaces the profile list with svc.management.exposure.include', async () => {
    const server = await startTestServer({
      env: { SVC_MANAGEMENT_EXPOSURE_INCLUDE: 'health,loggers' },
    });
    try {
      expect((await server.call('GET', '/actuator/loggers')).status).toBe(200);
      expect((await server.call('GET', '/actuator/info')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('exposes every management endpoint with svc.management.exposure.include=*, even in prod (CONTRACT 5)', async () => {
    const server = await startTestServer({
      argv: ['prod'],
      env: { SVC_MANAGEMENT_EXPOSURE_INCLUDE: '*' },
    });
    try {
      for (const path of [
        '/actuator/health',
        '/actuator/info',
        '/actuator/metrics',
        '/actuator/prometheus',
        '/actuator/loggers',
        '/actuator/mappings',
        '/actuator/threaddump',
      ]) {
        expect((await server.call('GET', path)).status, path).toBe(200);
      }
      const links = await server.call('GET', '/actuator');
      expect(Object.keys(links.json._links).sort()).toEqual(
        ['health', 'info', 'loggers', 'mappings', 'metrics', 'prometheus', 'threaddump'].sort(),
      );
    } finally {
      await server.close();
    }
  });

  it('shows health details only to an unrestricted ADMIN key once keys are set', async () => {
    const server = await startTestServer({
      env: {
        SVC_API_KEY: 'root',
        SVC_API_KEYS_0_NAME: 'viewer',
        SVC_API_KEYS_0_KEY: 'viewer-key',
      },
    });
    try {
      const anonymous = await server.call('GET', '/actuator/health');
      expect(anonymous.json).toEqual({ status: 'UP' });
      const viewer = await server.call('GET', '/actuator/health', {
        headers: { 'x-api-key': 'viewer-key' },
      });
      expect(viewer.json).toEqual({ status: 'UP' });
      const admin = await server.call('GET', '/actuator/health', {
        headers: { 'x-api-key': 'root' },
      });
      expect(admin.json.components).toBeDefined();
    } finally {
      await server.close();
    }
  });
});

describe('OpenAPI description (SPEC Versioning 1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { SVC_API_KEY: 'root' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('names itself version 0.0.1-SNAPSHOT and states it is pre-beta, without a key', async () => {
    const docs = await server.call('GET', '/v3/api-docs');
    expect(docs.status).toBe(200);
    expect(docs.json.openapi).toMatch(/^3\./);
    expect(docs.json.info.version).toBe('0.0.1-SNAPSHOT');
    expect(docs.json.info.description).toMatch(/pre-beta/i);
    expect(docs.json.info.description).toContain('v0.1.0');
  });

  it('describes every registered route with its request schema and required role', async () => {
    const docs = await server.call('GET', '/v3/api-docs');
    const paths = docs.json.paths as Record<string, Record<string, { 'x-required-role'?: string }>>;
    const documented = server.app.routes.filter(
      (route) =>
        route.method !== 'HEAD' &&
        !route.url.startsWith('/swagger-ui') &&
        !['/v3/api-docs', '/swagger-ui.html'].includes(route.url),
    );
    for (const route of documented) {
      const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = paths[openApiPath]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      expect(operation?.['x-required-role'], `${route.method} ${route.url}`).toBeDefined();
    }
    const create = paths['/api/sessions']?.post as {
      requestBody?: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(create.requestBody?.content['application/json']?.schema.required).toEqual([
      'name',
      'initiator',
    ]);
  });

  it('keeps the descriptions and date-time formats of the answer schemas', async () => {
    const docs = await server.call('GET', '/v3/api-docs');
    const execution = docs.json.components.schemas.Execution as {
      properties: Record<string, { description?: string; format?: string }>;
    };
    expect(execution.properties.createdAt?.format).toBe('date-time');
    expect(execution.properties.startedAt?.format).toBe('date-time');
    expect(execution.properties.restartOf?.description).toMatch(/restarts/);
    expect(docs.json.components.schemas.ErrorEnvelope.description).toBe('Every error answer');
  });

  it('serves the interactive page at /swagger-ui.html without a key', async () => {
    const redirect = await rawRequest(server.baseUrl, 'GET', '/swagger-ui.html');
    expect(redirect.status).toBe(302);
    const page = await server.call('GET', '/swagger-ui.html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger');
  });
});
