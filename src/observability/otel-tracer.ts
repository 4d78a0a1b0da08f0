// The OpenTelemetry tracer: spans of runs, node attempts and outgoing calls, batched and sent
// to a collector over OTLP/HTTP. Parents are passed explicitly (no context manager, no
// patching of modules), so only what the engine and plugins hand over becomes a span.
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapSetter,
  trace,
} from '@opentelemetry/api';
import type { Context, Span, Tracer as ApiTracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator, setGlobalErrorHandler } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { AttemptSpan, AttemptStart, AttemptStatus } from '../engine/index.js';
import type { CallSpan, OutgoingCall, SpanAttributes } from '../plugin-api/index.js';
import { messageOf } from '../core/index.js';
import type { RunSpan, RunStart, Tracer } from './tracing.js';
import type { SamplerChoice, TracingEnvironment } from './tracing-environment.js';

/** Run statuses whose span is an error (SPEC Tracing). */
const ERROR_STATUSES: ReadonlySet<string> = new Set(['FAILED', 'TIMED_OUT']);
/** At most one warning a minute about spans that could not be sent. */
const WARNING_INTERVAL_MS = 60_000;

export interface OtelTracerOptions {
  readonly environment: TracingEnvironment;
  /** `service.version` of the resource. */
  readonly version: string;
  /** Where a failed export is told, at most once a minute. */
  readonly warn: (message: string) => void;
}

export class OtelTracer implements Tracer {
  readonly #provider: TracerProvider;
  readonly #tracer: ApiTracer;
  readonly #propagator = new W3CTraceContextPropagator();

  constructor(options: OtelTracerOptions) {
    const { environment } = options;
    const exporterOptions = {
      url: environment.url,
      headers: { ...environment.headers },
      ...(environment.timeoutMs === undefined ? {} : { timeoutMillis: environment.timeoutMs }),
    };
    const exporter: SpanExporter =
      environment.protocol === 'http/json'
        ? new JsonExporter(exporterOptions)
        : new ProtobufExporter(exporterOptions);
    this.#provider = new TracerProvider({
      resource: resourceFromAttributes({
        ...environment.resourceAttributes,
        [ATTR_SERVICE_NAME]: environment.serviceName,
        [ATTR_SERVICE_VERSION]: options.version,
      }),
      sampler: samplerOf(environment.sampler),
      spanProcessors: [new BatchSpanProcessor({ exporter, ...environment.batch })],
    });
    this.#tracer = this.#provider.getTracer('workflow-service', options.version);
    // The SDK reports export failures to a process-wide handler; silent by default, which
    // would leave an operator with a wrong endpoint wondering where the traces went.
    let warnedAt = -Infinity;
    setGlobalErrorHandler((error) => {
      const now = Date.now();
      if (now - warnedAt < WARNING_INTERVAL_MS) return;
      warnedAt = now;
      options.warn(`Traces could not be sent to ${environment.url}: ${messageOf(error)}`);
    });
  }

  startRun(run: RunStart): RunSpan {
    const parent = run.parent instanceof OtelRunSpan ? run.parent.context : ROOT_CONTEXT;
    const span = this.#tracer.startSpan(
      'svc.run',
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'svc.execution.id': run.executionId,
          'svc.session.id': run.sessionId,
          'svc.workflow.id': run.workflowId,
          'svc.workflow.version': run.workflowVersion,
        },
      },
      parent,
    );
    return new OtelRunSpan(this.#tracer, this.#propagator, span, run.executionId);
  }

  async shutdown(): Promise<void> {
    await this.#provider.shutdown();
  }
}

function samplerOf(choice: SamplerChoice): Sampler {
  switch (choice.kind) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(choice.ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(choice.ratio) });
  }
}

class OtelRunSpan implements RunSpan {
  readonly #tracer: ApiTracer;
  readonly #propagator: W3CTraceContextPropagator;
  readonly #span: Span;
  readonly #executionId: string;
  /** The context whose active span is the run's: the parent of its attempts. */
  readonly context: Context;

  constructor(
    tracer: ApiTracer,
    propagator: W3CTraceContextPropagator,
    span: Span,
    executionId: string,
  ) {
    this.#tracer = tracer;
    this.#propagator = propagator;
    this.#span = span;
    this.#executionId = executionId;
    this.context = trace.setSpan(ROOT_CONTEXT, span);
  }

  get traceId(): string {
    return this.#span.spanContext().traceId;
  }

  get spanId(): string {
    return this.#span.spanContext().spanId;
  }

  startAttempt(attempt: AttemptStart): AttemptSpan {
    const span = this.#tracer.startSpan(
      'svc.node',
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'svc.execution.id': this.#executionId,
          'svc.node.id': attempt.nodeId,
          'svc.node.type': attempt.type,
          'svc.node.attempt': attempt.attempt,
          ...(attempt.messageId === undefined ? {} : { 'svc.message.id': attempt.messageId }),
        },
      },
      this.context,
    );
    return new OtelAttemptSpan(this.#tracer, this.#propagator, span);
  }

  end(status: string, error: string | null): void {
    this.#span.setAttribute('svc.execution.status', status);
    if (ERROR_STATUSES.has(status)) {
      this.#span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(error === null ? {} : { message: error }),
      });
    }
    this.#span.end();
  }
}

class OtelAttemptSpan implements AttemptSpan {
  readonly #tracer: ApiTracer;
  readonly #propagator: W3CTraceContextPropagator;
  readonly #span: Span;

  constructor(tracer: ApiTracer, propagator: W3CTraceContextPropagator, span: Span) {
    this.#tracer = tracer;
    this.#propagator = propagator;
    this.#span = span;
  }

  get spanId(): string {
    return this.#span.spanContext().spanId;
  }

  traceCall(call: OutgoingCall): CallSpan {
    const span = this.#tracer.startSpan(
      call.name,
      { kind: SpanKind.CLIENT, attributes: call.attributes },
      trace.setSpan(ROOT_CONTEXT, this.#span),
    );
    const headers: Record<string, string> = {};
    this.#propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
    return new OtelCallSpan(span, headers);
  }

  end(status: AttemptStatus, error?: unknown): void {
    this.#span.setAttribute('svc.node.status', status);
    if (status === 'FAILED') failed(this.#span, error);
    this.#span.end();
  }
}

class OtelCallSpan implements CallSpan {
  readonly #span: Span;
  readonly headers: Readonly<Record<string, string>>;
  #ended = false;
  /** The plugin named the error itself (an HTTP status): it is kept. */
  #typed = false;

  constructor(span: Span, headers: Readonly<Record<string, string>>) {
    this.#span = span;
    this.headers = headers;
  }

  set(attributes: SpanAttributes): void {
    if ('error.type' in attributes) this.#typed = true;
    this.#span.setAttributes(attributes);
  }

  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (error !== undefined) failed(this.#span, error, !this.#typed);
    this.#span.end();
  }
}

/** An error status with the failure's message, which plugins keep free of secrets. */
function failed(span: Span, error: unknown, typed = true): void {
  span.setStatus({
    code: SpanStatusCode.ERROR,
    ...(error === undefined ? {} : { message: messageOf(error) }),
  });
  if (typed && error instanceof Error) span.setAttribute('error.type', error.name);
}
