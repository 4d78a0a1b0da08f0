// Engine settings a node carries inside its `config` (CONTRACT section 2): timeouts, error
// handling, retries, edge buffers, trigger rules and placement, parsed into NodeSettings.
import { z } from 'zod';
import { parseFields } from './field-errors.js';
import type { FieldResult } from './field-errors.js';

export const ON_ERROR_MODES = ['FAIL', 'SKIP', 'ERROR_PORT', 'DEAD_LETTER'] as const;
export const TRIGGER_RULES = ['ALL_SUCCESS', 'ALL_DONE', 'ONE_SUCCESS'] as const;
export const EDGE_OVERFLOW_POLICIES = ['DROP_OLDEST', 'DROP_NEWEST'] as const;

export type OnError = (typeof ON_ERROR_MODES)[number];
export type TriggerRule = (typeof TRIGGER_RULES)[number];
export type EdgeOverflow = (typeof EDGE_OVERFLOW_POLICIES)[number];

/** The port a node with `onError: ERROR_PORT` emits `{ error, message }` on. */
export const ERROR_PORT = 'error';

const positiveInt = () => z.number().int().positive();

// Strict below `engine`: a misspelt engine setting would otherwise be ignored silently,
// while the top level stays loose because it is shared with the plugin's own keys.
const engineSchema = z.strictObject({
  deadlineMs: positiveInt().optional(),
  elementTimeoutMs: positiveInt().optional(),
  retry: z
    .strictObject({
      maxAttempts: z.number().int().min(1).max(10).optional(),
      backoffMs: z.number().int().min(0).optional(),
    })
    .optional(),
  edgeBuffer: z
    .strictObject({
      size: z.number().int().min(1).max(100_000),
      overflow: z.enum(EDGE_OVERFLOW_POLICIES).optional(),
    })
    .optional(),
  trigger: z.enum(TRIGGER_RULES).optional(),
  placement: z.string().min(1).optional(),
});

/** The engine's keys of a node's `config`; other keys belong to the plugin. */
export const nodeSettingsSchema = z.looseObject({
  // Armed in steps on the run's clock; 2^31-1 s (68 years) only refuses absurd values.
  timeoutSeconds: z
    .number()
    .positive()
    .max(2 ** 31 - 1)
    .optional(),
  onError: z.enum(ON_ERROR_MODES).optional(),
  engine: engineSchema.optional(),
});

/** A node's engine settings with the defaults of CONTRACT section 2 applied. */
export interface NodeSettings {
  /** Idle timeout; absent means the plugin's default applies. */
  readonly timeoutSeconds?: number;
  readonly onError: OnError;
  readonly deadlineMs?: number;
  readonly elementTimeoutMs?: number;
  /** `maxAttempts` counts the first attempt: 1 means no retry. */
  readonly retry: { readonly maxAttempts: number; readonly backoffMs: number };
  /** Absent means no buffer: delivery is lossless and paces the parents. */
  readonly edgeBuffer?: { readonly size: number; readonly overflow: EdgeOverflow };
  readonly trigger: TriggerRule;
  readonly placement?: string;
}

export interface NodeSettingsOptions {
  /** Whether this build includes remote workers, the only place `engine.placement` can go. */
  readonly workers: boolean;
}

export const NO_WORKERS_MESSAGE =
  'The node cannot be placed on a remote worker because this build does not include remote workers';

/** Leaves out undefined values, so optional settings are absent rather than undefined. */
function definedOnly<T extends Record<string, unknown>>(
  values: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/**
 * Reads the engine settings of a node configuration. Fields of the errors start with
 * `config.` (e.g. `config.engine.retry.maxAttempts`), relative to the node.
 */
export function parseNodeSettings(
  config: Readonly<Record<string, unknown>>,
  options: NodeSettingsOptions,
): FieldResult<NodeSettings> {
  const parsed = parseFields(nodeSettingsSchema, config, 'config');
  if (!parsed.ok) return parsed;
  const { timeoutSeconds, onError, engine = {} } = parsed.value;
  if (engine.placement !== undefined && !options.workers) {
    return {
      ok: false,
      errors: [{ field: 'config.engine.placement', message: NO_WORKERS_MESSAGE }],
    };
  }
  const { retry, edgeBuffer, trigger = 'ALL_SUCCESS' } = engine;
  return {
    ok: true,
    value: {
      ...definedOnly({
        timeoutSeconds,
        deadlineMs: engine.deadlineMs,
        elementTimeoutMs: engine.elementTimeoutMs,
        placement: engine.placement,
      }),
      onError: onError ?? 'FAIL',
      retry: { maxAttempts: retry?.maxAttempts ?? 1, backoffMs: retry?.backoffMs ?? 0 },
      ...(edgeBuffer && {
        edgeBuffer: { size: edgeBuffer.size, overflow: edgeBuffer.overflow ?? 'DROP_OLDEST' },
      }),
      trigger,
    },
  };
}
