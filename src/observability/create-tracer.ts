// The server's tracer as the environment asks for it: an OpenTelemetry exporter when the
// standard `OTEL_*` variables turn tracing on, none otherwise (runs then make no spans).
import { OtelTracer } from './otel-tracer.js';
import type { Tracer } from './tracing.js';
import { tracingEnvironment } from './tracing-environment.js';
import type { Environment } from './tracing-environment.js';

export interface CreateTracerOptions {
  /** The server's version, as the traces' `service.version`. */
  readonly version: string;
  /** Where a setting that cannot be honoured, or a failed export, is told. */
  readonly warn: (message: string) => void;
}

export function createTracer(env: Environment, options: CreateTracerOptions): Tracer | undefined {
  const asked = tracingEnvironment(env);
  if (!asked.on) {
    if (asked.warning !== undefined) options.warn(asked.warning);
    return undefined;
  }
  return new OtelTracer({ environment: asked.tracing, ...options });
}
