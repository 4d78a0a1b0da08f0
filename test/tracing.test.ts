// OpenTelemetry traces through a real server (SPEC Tracing): with the standard OTEL_* variables
// pointing at an in-process OTLP/HTTP receiver, a run exports one `svc.run` span, a `svc.node`
// span per node attempt under it, and client spans of its HTTP, MCP and model calls under
// those, whose `traceparent` reaches the callee; the execution record and the run's log lines
// carry the trace id. Without the variables nothing is exported and no trace id appears.
import { Writable } from 'node:stream';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoggers } from '../src/observability/index.js';
import { closeServer, listenForBodies } from '../src/plugins/testing/index.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';

/** A span as OTLP/JSON carries it, with its attributes made plain. */
interface ExportedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly status: { readonly code?: number; readonly message?: string };
  readonly attributes: Record<string, unknown>;
  readonly resource: Record<string, unknown>;
}

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
  readonly boolValue?: boolean;
  readonly doubleValue?: number;
}

interface OtlpAttribute {
  readonly key: string;
  readonly value: OtlpValue;
}

interface OtlpBody {
  readonly resourceSpans?: readonly {
    readonly resource?: { readonly attributes?: readonly OtlpAttribute[] };
    readonly scopeSpans?: readonly {
      readonly spans?: readonly (Omit<ExportedSpan, 'attributes' | 'resource'> & {
        readonly attributes?: readonly OtlpAttribute[];
      })[];
    }[];
  }[];
}

const SPAN_KIND_CLIENT = 3;
const STATUS_ERROR = 2;

function plain(attributes: readonly OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue === undefined ? undefined : Number(value.intValue)) ??
        value.boolValue ??
        value.doubleValue,
    ]),
  );
}

/** An OTLP/HTTP receiver: what was posted to /v1/traces, by content type. */
async function startReceiver() {
  const spans: ExportedSpan[] = [];
  const posts: { readonly contentType: string | undefined; readonly bytes: number }[] = [];
  const { server, origin } = await listenForBodies((received, response) => {
    posts.push({ contentType: received.headers['content-type'], bytes: received.body.length });
    if (received.url === '/v1/traces' && received.headers['content-type'] === 'application/json') {
      const body = JSON.parse(received.body) as OtlpBody;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = plain(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({ ...span, attributes: plain(span.attributes), resource });
          }
        }
      }
    }
    response.setHeader('content-type', 'application/json');
    response.end('{}');
  });
  return { server, origin, spans, posts };
}

/**
 * The callee of HTTP_REQUEST, which answers 503 to the first request and then `{ ok: true }`,
 * and of LLM_CALL, as an OpenAI-compatible model at the same origin.
 */
async function startCallee() {
  const traceparents: string[] = [];
  const modelTraceparents: string[] = [];
  let calls = 0;
  const { server, origin } = await listenForBodies((received, response) => {
    response.setHeader('content-type', 'application/json');
    if (received.url === '/v1/chat/completions') {
      modelTraceparents.push(String(received.headers.traceparent));
      response.end(
        JSON.stringify({
          model: 'tiny-1',
          choices: [{ finish_reason: 'stop', message: { content: 'done' } }],
          usage: { prompt_tokens: 9, completion_tokens: 2 },
        }),
      );
      return;
    }
    traceparents.push(String(received.headers.traceparent));
    if (calls++ === 0) {
      response.statusCode = 503;
      response.end();
      return;
    }
    response.end('{"ok":true}');
  });
  return {
    server,
    url: `${origin}/hook`,
    modelUrl: `${origin}/v1`,
    traceparents,
    modelTraceparents,
  };
}

type Callee = Awaited<ReturnType<typeof startCallee>>;

/** Log lines the server writes, as parsed JSON. */
function capturedLoggers() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const loggers = createLoggers({ root: 'INFO', app: 'WARN', engine: 'INFO' }, destination);
  return { loggers, lines };
}

let servers: (Server | undefined)[] = [];
let service: TestServer | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
  for (const server of servers) await closeServer(server);
  servers = [];
});

/** Defines the traced workflow and runs it to its end; answers the execution id. */
async function runTracedWorkflow(running: TestServer, callee: Callee): Promise<string> {
  await running.call('POST', '/api/sessions', {
    body: { sessionId: 's', name: 's', initiator: 'i' },
  });
  const saved = await running.call('PUT', '/api/sessions/s/workflows/traced', {
    body: {
      workflowId: 'traced',
      description: 'calls an HTTP endpoint, an MCP tool and a model',
      nodes: [
        { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [{ n: 1 }] } },
        {
          nodeId: 'call',
          type: 'HTTP_REQUEST',
          config: {
            method: 'POST',
            url: callee.url,
            engine: { retry: { maxAttempts: 3, backoffMs: 1 } },
          },
        },
        {
          nodeId: 'tool',
          type: 'MCP_TOOL_CALL',
          config: { url: `${running.baseUrl}/mcp`, tool: 'list_sessions', arguments: {} },
        },
        {
          nodeId: 'ask',
          type: 'LLM_CALL',
          config: { provider: 'local', baseUrl: callee.modelUrl, model: 'tiny', prompt: 'go' },
        },
        { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'call' },
        { source: 'call', target: 'tool' },
        { source: 'tool', target: 'ask' },
        { source: 'ask', target: 'out' },
      ],
    },
  });
  expect(saved.status, saved.text).toBeLessThan(300);
  const start = await running.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: 'traced' },
  });
  expect(start.status, start.text).toBeLessThan(300);
  const executionId = start.json.data.executionId as string;
  const record = await endOf(running, executionId);
  expect(record.status).toBe('COMPLETED');
  return executionId;
}

describe('OpenTelemetry traces (SPEC Tracing)', () => {
  it('exports a run span, node attempt spans under it and client spans under those, with traceparent sent and the trace id in the record and log lines', async () => {
    const receiver = await startReceiver();
    const callee = await startCallee();
    servers = [receiver.server, callee.server];
    const { loggers, lines } = capturedLoggers();
    service = await startTestServer({
      loggers,
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.origin}/v1/traces`,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'traced-service',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
        OTEL_BSP_SCHEDULE_DELAY: '20',
      },
    });
    const executionId = await runTracedWorkflow(service, callee);

    const runSpans = await eventually(
      () => Promise.resolve(receiver.spans.filter((span) => span.name === 'svc.run')),
      (found) => found.length > 0,
    );
    expect(runSpans).toHaveLength(1);
    const run = runSpans[0]!;
    expect(run.parentSpanId || undefined).toBeUndefined();
    expect(run.attributes).toMatchObject({
      'svc.execution.id': executionId,
      'svc.session.id': 's',
      'svc.workflow.id': 'traced',
      'svc.workflow.version': 1,
      'svc.execution.status': 'COMPLETED',
    });
    expect(run.resource).toMatchObject({
      'service.name': 'traced-service',
      'deployment.environment.name': 'test',
    });
    const { traceId } = run;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    // Every attempt is a child of the run; the retried request has two, the first failed.
    const attempts = receiver.spans.filter((span) => span.name === 'svc.node');
    for (const attempt of attempts) {
      expect(attempt.traceId).toBe(traceId);
      expect(attempt.parentSpanId).toBe(run.spanId);
      expect(attempt.attributes['svc.execution.id']).toBe(executionId);
    }
    const attemptsOf = (nodeId: string) =>
      attempts
        .filter((span) => span.attributes['svc.node.id'] === nodeId)
        .sort(
          (a, b) =>
            Number(a.attributes['svc.node.attempt']) - Number(b.attributes['svc.node.attempt']),
        );
    expect(attemptsOf('in')).toHaveLength(1);
    const calls = attemptsOf('call');
    expect(calls.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'svc.node.type': 'HTTP_REQUEST',
        'svc.node.attempt': 1,
        'svc.node.status': 'FAILED',
      }),
      expect.objectContaining({
        'svc.node.type': 'HTTP_REQUEST',
        'svc.node.attempt': 2,
        'svc.node.status': 'COMPLETED',
      }),
    ]);
    expect(calls[0]!.status.code).toBe(STATUS_ERROR);
    expect(attemptsOf('tool')).toHaveLength(1);
    const out = attemptsOf('out');
    expect(out).toHaveLength(1);

    // One client span per request, each under its attempt, whose id the callee received.
    const requests = receiver.spans.filter((span) => span.name === 'POST');
    expect(requests).toHaveLength(2);
    for (const [index, request] of requests
      .sort(
        (a, b) =>
          calls.findIndex((c) => c.spanId === a.parentSpanId) -
          calls.findIndex((c) => c.spanId === b.parentSpanId),
      )
      .entries()) {
      expect(request.kind).toBe(SPAN_KIND_CLIENT);
      expect(request.traceId).toBe(traceId);
      expect(request.parentSpanId).toBe(calls[index]!.spanId);
      expect(request.attributes).toMatchObject({
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'url.full': callee.url,
        'http.response.status_code': index === 0 ? 503 : 200,
      });
    }
    expect(callee.traceparents.sort()).toEqual(
      requests.map((request) => `00-${traceId}-${request.spanId}-01`).sort(),
    );

    const [tool] = receiver.spans.filter((span) => span.name === 'tools/call list_sessions');
    expect(tool).toMatchObject({
      kind: SPAN_KIND_CLIENT,
      traceId,
      parentSpanId: attemptsOf('tool')[0]!.spanId,
    });
    expect(tool!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'list_sessions',
    });

    const [chat] = receiver.spans.filter((span) => span.name === 'chat tiny');
    expect(chat).toMatchObject({
      kind: SPAN_KIND_CLIENT,
      traceId,
      parentSpanId: attemptsOf('ask')[0]!.spanId,
    });
    expect(chat!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'local',
      'gen_ai.request.model': 'tiny',
      'gen_ai.response.model': 'tiny-1',
      'gen_ai.usage.input_tokens': 9,
      'gen_ai.usage.output_tokens': 2,
      'http.response.status_code': 200,
    });
    expect(callee.modelTraceparents).toEqual([`00-${traceId}-${chat!.spanId}-01`]);

    // The trace id in both record answers, and in the run's log lines.
    const record = await service.call('GET', `/api/executions/${executionId}`);
    expect(record.json.data.traceId).toBe(traceId);
    const status = await service.call('GET', `/api/workflow/s/status/${executionId}`);
    expect(status.json.data.traceId).toBe(traceId);
    const logs = await service.call('GET', `/api/executions/${executionId}/logs`);
    const logLines = logs.json.data as { nodeId: string; traceId?: string; spanId?: string }[];
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line.traceId).toBe(traceId);
    expect(logLines.find((line) => line.nodeId === 'out')?.spanId).toBe(out[0]!.spanId);
    const written = lines.filter((line) => line.executionId === executionId);
    expect(written.length).toBeGreaterThan(0);
    for (const line of written) expect(line.traceId).toBe(traceId);
    expect(written.find((line) => line.nodeId === 'out')?.spanId).toBe(out[0]!.spanId);
  });

  it('sends OTLP/HTTP protobuf when no protocol is set (the specification default)', async () => {
    const receiver = await startReceiver();
    const callee = await startCallee();
    servers = [receiver.server, callee.server];
    service = await startTestServer({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin, OTEL_BSP_SCHEDULE_DELAY: '20' },
    });
    await runTracedWorkflow(service, callee);
    const posts = await eventually(
      () => Promise.resolve(receiver.posts),
      (found) => found.length > 0,
    );
    expect(posts[0]).toMatchObject({ contentType: 'application/x-protobuf' });
    expect(posts[0]!.bytes).toBeGreaterThan(0);
  });

  it('exports nothing and gives no trace id without the OTEL_* variables, or with OTEL_SDK_DISABLED=true', async () => {
    const receiver = await startReceiver();
    servers = [receiver.server];
    for (const env of [
      {},
      { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin },
    ]) {
      const callee = await startCallee();
      servers.push(callee.server);
      const { loggers, lines } = capturedLoggers();
      service = await startTestServer({ env, loggers });
      const executionId = await runTracedWorkflow(service, callee);
      const record = await service.call('GET', `/api/executions/${executionId}`);
      expect(record.json.data).not.toHaveProperty('traceId');
      const logs = await service.call('GET', `/api/executions/${executionId}/logs`);
      expect(logs.json.data.length).toBeGreaterThan(0);
      for (const line of logs.json.data) expect(line).not.toHaveProperty('traceId');
      for (const line of lines) expect(line).not.toHaveProperty('traceId');
      expect(callee.traceparents).toEqual(['undefined', 'undefined']);
      expect(callee.modelTraceparents).toEqual(['undefined']);
      // A stop sends what a tracer holds: after it, nothing has come, so nothing will.
      await service.close();
      service = undefined;
    }
    expect(receiver.posts).toEqual([]);
  });
});
