import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVICE_NAME, tracingEnvironment } from './tracing-environment.js';

describe('tracingEnvironment (SPEC Tracing, docs/tracing.md)', () => {
  it('leaves tracing off without OTEL_* variables, with OTEL_TRACES_EXPORTER=none, and with OTEL_SDK_DISABLED=true', () => {
    expect(tracingEnvironment({})).toEqual({ on: false });
    expect(tracingEnvironment({ OTEL_TRACES_EXPORTER: 'none' })).toEqual({ on: false });
    expect(
      tracingEnvironment({
        OTEL_SDK_DISABLED: 'TRUE',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      }),
    ).toEqual({ on: false });
  });

  it('turns tracing on with an OTLP endpoint, appending /v1/traces to the general one only', () => {
    const general = tracingEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
    expect(general).toMatchObject({
      on: true,
      tracing: {
        url: 'http://collector:4318/v1/traces',
        protocol: 'http/protobuf',
        serviceName: DEFAULT_SERVICE_NAME,
        sampler: { kind: 'parentbased_always_on' },
      },
    });
    const own = tracingEnvironment({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/in',
    });
    expect(own).toMatchObject({ on: true, tracing: { url: 'http://traces:9999/in' } });
  });

  it('turns tracing on with OTEL_TRACES_EXPORTER=otlp at the default endpoint', () => {
    expect(tracingEnvironment({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({
      on: true,
      tracing: { url: 'http://localhost:4318/v1/traces' },
    });
  });

  it('reads the protocol, headers, service name, resource attributes, sampler and batch options', () => {
    const asked = tracingEnvironment({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20t,x-tenant=a',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,deployment.environment.name=prod',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    expect(asked).toEqual({
      on: true,
      tracing: {
        url: 'http://localhost:4318/v1/traces',
        protocol: 'http/json',
        headers: { authorization: 'Bearer t', 'x-tenant': 'a' },
        timeoutMs: undefined,
        serviceName: 'from-attributes',
        resourceAttributes: { 'deployment.environment.name': 'prod' },
        sampler: { kind: 'parentbased_traceidratio', ratio: 0.25 },
        batch: { scheduledDelayMillis: 100 },
      },
    });
    expect(
      tracingEnvironment({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SERVICE_NAME: 'flows' }),
    ).toMatchObject({ tracing: { serviceName: 'flows' } });
  });

  it('leaves tracing off with a warning for an exporter or protocol it cannot use', () => {
    expect(tracingEnvironment({ OTEL_TRACES_EXPORTER: 'zipkin' })).toEqual({
      on: false,
      warning: 'OTEL_TRACES_EXPORTER=zipkin is not supported: tracing stays off (use otlp)',
    });
    expect(
      tracingEnvironment({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
      }),
    ).toMatchObject({ on: false, warning: expect.stringContaining("'grpc' is not supported") });
  });
});
