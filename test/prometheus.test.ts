// SPEC "Meters" as Prometheus scrapes them from /actuator/prometheus: the text format read
// strictly, promtool's naming rules on every family, the default process and Node.js meters
// beside the service's own, and the ADMIN key a scrape needs once keys are set.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METER_CATALOGUE, prometheusName } from '../src/observability/index.js';
import { checkMetrics, parseExposition } from './support/prometheus-lint.js';
import type { MetricFamily } from './support/prometheus-lint.js';
import { promtoolPath } from './support/promtool.js';
import { startTestServer } from './support/server.js';
import type { CallOptions, TestServer } from './support/server.js';
import { endOf } from './support/wait.js';
import { linearWorkflow } from './support/workflows.js';

const KEY = 'prometheus-admin-key';

/** The families prom-client 15 collects by default on every platform that dashboards read most. */
const PROCESS_FAMILIES = [
  ['process_cpu_seconds_total', 'counter'],
  ['process_cpu_user_seconds_total', 'counter'],
  ['process_cpu_system_seconds_total', 'counter'],
  ['process_start_time_seconds', 'gauge'],
  ['process_resident_memory_bytes', 'gauge'],
  ['nodejs_heap_size_total_bytes', 'gauge'],
  ['nodejs_heap_size_used_bytes', 'gauge'],
  ['nodejs_external_memory_bytes', 'gauge'],
  ['nodejs_heap_space_size_used_bytes', 'gauge'],
  ['nodejs_eventloop_lag_seconds', 'gauge'],
  ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
  ['nodejs_gc_duration_seconds', 'histogram'],
  ['nodejs_active_handles', 'gauge'],
  ['nodejs_active_requests', 'gauge'],
  ['nodejs_active_resources', 'gauge'],
  ['nodejs_version_info', 'gauge'],
] as const;

describe('Prometheus exposition (SPEC Meters)', () => {
  let server: TestServer;
  let scrape: string;
  let families: MetricFamily[];
  const admin = {
    call: (method: string, path: string, options: CallOptions = {}) =>
      server.call(method, path, {
        ...options,
        headers: { authorization: `Bearer ${KEY}`, ...options.headers },
      }),
  };

  beforeAll(async () => {
    server = await startTestServer({
      env: { SVC_API_KEY: KEY, SVC_API_KEYS_0_NAME: 'viewer', SVC_API_KEYS_0_KEY: 'viewer-key' },
    });
    await admin.call('POST', '/api/sessions', {
      body: { sessionId: 'p', name: 'p', initiator: 'i', workflows: [linearWorkflow('w')] },
    });
    const start = await admin.call('POST', '/api/workflow/start', {
      body: { sessionId: 'p', workflowId: 'w' },
    });
    await endOf(admin, start.json.data.executionId as string);
    // One measurement with every tag on each meter, as the parts and plugins that own them
    // would record it, so every family that can appear is in the scrape with its labels.
    const { meters } = server.app;
    for (const spec of METER_CATALOGUE) {
      const tags = Object.fromEntries(spec.tags.map((tag) => [tag, 'sample']));
      if (spec.type === 'counter') meters.count(spec.name, tags);
      else if (spec.type === 'timer') meters.time(spec.name, tags, 250);
      else meters.set(spec.name, 1);
    }
    const answer = await admin.call('GET', '/actuator/prometheus');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    scrape = answer.text;
    families = parseExposition(scrape);
  });
  afterAll(async () => {
    await server.close();
  });

  it('needs an unrestricted ADMIN key once keys are set, sent as Authorization: Bearer or X-API-Key', async () => {
    expect((await server.call('GET', '/actuator/prometheus')).status).toBe(401);
    const viewer = await server.call('GET', '/actuator/prometheus', {
      headers: { authorization: 'Bearer viewer-key' },
    });
    expect(viewer.status).toBe(403);
    const viaHeader = await server.call('GET', '/actuator/prometheus', {
      headers: { 'x-api-key': KEY },
    });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.text).toContain('# TYPE svc_node_executions_total counter');
  });

  it('serves text in which every sample belongs to a declared family, with valid labels and numeric values', () => {
    // parseExposition refuses anything else; what it read must be the whole answer.
    const sampleLines = scrape.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(families.reduce((total, family) => total + family.samples.length, 0)).toBe(
      sampleLines.length,
    );
  });

  it('breaks none of the naming rules of promtool check metrics, on any family', () => {
    expect(checkMetrics(scrape)).toEqual([]);
  });

  it('names each SPEC meter for Prometheus: a counter with _total, a timer as a histogram in seconds', () => {
    const byName = new Map(families.map((family) => [family.name, family]));
    for (const spec of METER_CATALOGUE) {
      const family = byName.get(prometheusName(spec));
      expect(family, spec.name).toBeDefined();
      expect(family?.type, spec.name).toBe(
        spec.type === 'timer' ? 'histogram' : spec.type === 'counter' ? 'counter' : 'gauge',
      );
      expect(family?.help, spec.name).toBe(spec.description);
      expect(family?.samples.length, spec.name).toBeGreaterThan(0);
    }
    expect(byName.get('svc_node_executions_total')?.samples).toContainEqual(
      expect.objectContaining({ labels: { module: 'MAPPER', status: 'COMPLETED' }, value: 1 }),
    );
    expect(byName.get('svc_node_duration_seconds')?.samples).toContainEqual(
      expect.objectContaining({
        name: 'svc_node_duration_seconds_count',
        labels: { module: 'MAPPER' },
        value: 1,
      }),
    );
    expect(byName.has('svc_node_executions')).toBe(false);
  });

  it('serves the default process and Node.js meters under their standard names beside the svc_* ones', () => {
    const types = new Map(families.map((family) => [family.name, family.type]));
    for (const [name, type] of PROCESS_FAMILIES) expect(types.get(name), name).toBe(type);
    const resident = families.find((family) => family.name === 'process_resident_memory_bytes');
    expect(resident?.samples[0]?.value).toBeGreaterThan(0);
  });

  it('keeps the SPEC names, and only them, on /actuator/metrics', async () => {
    const list = await admin.call('GET', '/actuator/metrics');
    expect(list.json.names).toEqual(METER_CATALOGUE.map((spec) => spec.name).sort());
    const meter = await admin.call('GET', '/actuator/metrics/svc.node.executions');
    expect(meter.json.name).toBe('svc.node.executions');
  });

  it('names every meter with its Prometheus name in docs/observability.md', () => {
    const doc = readFileSync(new URL('../docs/observability.md', import.meta.url), 'utf8');
    for (const spec of METER_CATALOGUE) {
      const row = new RegExp(
        `^\\| \`${spec.name.replace(/\./g, '\\.')}\`\\s*\\| \`${prometheusName(spec)}\`\\s*\\|$`,
        'm',
      );
      expect(doc, spec.name).toMatch(row);
    }
  });

  const promtool = promtoolPath();
  it.skipIf(promtool === undefined)(
    'passes promtool check metrics, where promtool is on the PATH',
    () => {
      const run = spawnSync(promtool ?? 'promtool', ['check', 'metrics'], {
        input: scrape,
        encoding: 'utf8',
      });
      expect(run.stderr + run.stdout).toBe('');
      expect(run.status).toBe(0);
    },
  );
});
