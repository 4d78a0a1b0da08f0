// Whether and where to send traces, from the standard OpenTelemetry variables (`OTEL_*`), so
// that a collector is pointed at the server the way it is at any other service. Off unless
// they ask for it: tracing is never on by surprise.

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type SamplerChoice =
  | { readonly kind: 'always_on' | 'always_off' }
  | { readonly kind: 'traceidratio'; readonly ratio: number }
  | {
      readonly kind: 'parentbased_always_on' | 'parentbased_always_off';
    }
  | { readonly kind: 'parentbased_traceidratio'; readonly ratio: number };

export interface TracingEnvironment {
  /** Where spans are posted: the full OTLP/HTTP traces URL. */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number | undefined;
  readonly serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, decoded; `service.name` is in `serviceName`. */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: SamplerChoice;
  readonly batch: BatchOptions;
}

/** The batch span processor's `OTEL_BSP_*` options that are set. */
export interface BatchOptions {
  readonly scheduledDelayMillis?: number;
  readonly exportTimeoutMillis?: number;
  readonly maxQueueSize?: number;
  readonly maxExportBatchSize?: number;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/** The service's name in traces when `OTEL_SERVICE_NAME` sets none. */
export const DEFAULT_SERVICE_NAME = 'workflow-service';
const DEFAULT_ENDPOINT = 'http://localhost:4318';

/**
 * The tracing the variables ask for: `{ on: false }` when they ask for none, with the reason
 * to tell the operator when they ask for something this server cannot do.
 */
export function tracingEnvironment(
  env: Environment,
):
  | { readonly on: true; readonly tracing: TracingEnvironment }
  | { readonly on: false; readonly warning?: string } {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { on: false };
  const exporters = value(env, 'OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const endpoint =
    value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  // The specification's default exporter is otlp, but an unset variable leaves tracing off:
  // only an endpoint or an explicit `otlp` turns it on.
  if (exporters === undefined ? endpoint === undefined : !exporters.includes('otlp')) {
    const others = exporters?.filter((name) => name !== 'none') ?? [];
    return others.length === 0
      ? { on: false }
      : {
          on: false,
          warning: `OTEL_TRACES_EXPORTER=${others.join(',')} is not supported: tracing stays off (use otlp)`,
        };
  }
  const protocol =
    value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    return {
      on: false,
      warning: `OTLP protocol '${protocol}' is not supported: tracing stays off (use http/protobuf or http/json)`,
    };
  }
  const resourceAttributes = keyValues(value(env, 'OTEL_RESOURCE_ATTRIBUTES'));
  const { 'service.name': named, ...otherAttributes } = resourceAttributes;
  return {
    on: true,
    tracing: {
      url: tracesUrl(env),
      protocol,
      headers: keyValues(
        value(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') ?? value(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ),
      timeoutMs: number(
        value(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ?? value(env, 'OTEL_EXPORTER_OTLP_TIMEOUT'),
      ),
      serviceName: value(env, 'OTEL_SERVICE_NAME') ?? named ?? DEFAULT_SERVICE_NAME,
      resourceAttributes: otherAttributes,
      sampler: samplerOf(env),
      batch: {
        ...option('scheduledDelayMillis', number(value(env, 'OTEL_BSP_SCHEDULE_DELAY'))),
        ...option('exportTimeoutMillis', number(value(env, 'OTEL_BSP_EXPORT_TIMEOUT'))),
        ...option('maxQueueSize', number(value(env, 'OTEL_BSP_MAX_QUEUE_SIZE'))),
        ...option('maxExportBatchSize', number(value(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'))),
      },
    },
  };
}

/** A set, non-blank variable, trimmed. */
function value(env: Environment, name: string): string | undefined {
  const text = env[name]?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/**
 * The signal's own endpoint is used as it is; the general one gets `/v1/traces` appended
 * (OTLP exporter specification).
 */
function tracesUrl(env: Environment): string {
  const own = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (own !== undefined) return own;
  const base = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? DEFAULT_ENDPOINT;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** `key1=value1,key2=value2` with percent-encoded keys and values (W3C Baggage format). */
function keyValues(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of text?.split(',') ?? []) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    try {
      pairs[decodeURIComponent(item.slice(0, at).trim())] = decodeURIComponent(
        item.slice(at + 1).trim(),
      );
    } catch {
      // A pair that does not decode is left out, as the SDKs do.
    }
  }
  return pairs;
}

function number(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

function option<K extends string>(key: K, given: number | undefined): Partial<Record<K, number>> {
  return given === undefined ? {} : ({ [key]: given } as Record<K, number>);
}

/** `OTEL_TRACES_SAMPLER` and its argument; the specification's default is parent-based on. */
function samplerOf(env: Environment): SamplerChoice {
  const name = value(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on';
  const argument = number(value(env, 'OTEL_TRACES_SAMPLER_ARG'));
  const ratio = argument === undefined ? 1 : Math.min(1, argument);
  switch (name) {
    case 'always_on':
    case 'always_off':
    case 'parentbased_always_on':
    case 'parentbased_always_off':
      return { kind: name };
    case 'traceidratio':
    case 'parentbased_traceidratio':
      return { kind: name, ratio };
    default:
      return { kind: 'parentbased_always_on' };
  }
}
