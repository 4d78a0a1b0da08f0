// What the execution manager is built from: the stores, the plugin catalogue, the clocks and
// the settings the composition root hands it.
import type { Logger } from 'pino';
import type { Clock, IdGenerator } from '../core/index.js';
import type {
  CheckpointStore,
  ConfigResolver,
  DeadLetterNotice,
  NodePlacement,
  PluginCatalog,
  SessionStore,
  TimerScheduler,
} from '../engine/index.js';
import type { Meters, Tracer } from '../observability/index.js';
import type { SessionMemory } from '../plugin-api/index.js';
import type { IdempotencyStore } from '../stores/index.js';
import type { AdmissionLimits } from './admission.js';
import type { ExecutionEventSink } from './execution-events.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { ExecutionEntry, ExecutionRegistry } from './execution-registry.js';
import type { LeaderRole } from './leadership.js';

export interface ExecutionManagerDeps {
  readonly store: SessionStore;
  readonly catalog: PluginCatalog;
  readonly registry: ExecutionRegistry;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The stream engine's logger: node log lines and, at TRACE, message payloads. */
  readonly logger: Logger;
  readonly workers: boolean;
  /** SPEC `svc.session.execution-timeout-seconds`, in milliseconds. */
  readonly runDeadlineMs: number;
  /** How long a prepared workflow stays cached while unused (SPEC `workflow.cache.ttl.ms`). */
  readonly planTtlMs: number;
  /** How run and queue clocks arm their timers; real ones unless a test brings its own. */
  readonly timers?: TimerScheduler;
  readonly meters: Meters;
  /** Session histories of SESSION_MEMORY nodes, shared by every run of a session. */
  readonly sessionMemory?: SessionMemory;
  readonly resolveConfig?: ConfigResolver;
  /** Where nodes with `engine.placement` run (remote workers); absent in a build without. */
  readonly placement?: NodePlacement | undefined;
  /** Admission limits at start-up (SPEC `svc.execution.*`); off when absent. */
  readonly limits?: AdmissionLimits;
  /** Starts of one workflow that may wait for a slot; 0 or absent: no limit of its own. */
  readonly queueCapacityPerWorkflow?: number;
  /** SPEC `svc.start.idempotency-*`. */
  readonly idempotency?: { readonly maxKeys: number; readonly ttlMs: number };
  /**
   * Where idempotency keys are bound: the database with the relational stores, shared by the
   * servers of a pair; absent, this process's memory, bounded by `idempotency.maxKeys`.
   */
  readonly idempotencyStore?: IdempotencyStore;
  /** Where run and node events go (event streams, supervisors). */
  readonly events?: ExecutionEventSink;
  /** Where runs record what their nodes emit (SPEC Checkpoint); nothing is recorded without. */
  readonly checkpoints?: CheckpointStore;
  /** The execution log; only a durable one records anything. */
  readonly journal?: ExecutionJournal;
  /** `svc.limits.max-payload`: a larger emitted payload fails its message. */
  readonly maxPayloadBytes?: number;
  /** SPEC `svc.restart.retained-executions`: the newest executions that can be restarted. */
  readonly retainedForRestart?: number;
  /** SPEC Restart rule 6: how long a restart waits for its new run to be accepted. */
  readonly restartAcceptMs?: number;
  /** SPEC Tracing: receives `svc.run` and `svc.node` observations; none in the standard build. */
  readonly tracer?: Tracer;
  /** High availability: only the leader admits runs. Without it this server always leads. */
  readonly leadership?: LeaderRole;
  /** Where messages given up by `onError: DEAD_LETTER` go (docs/dead-letters.md). */
  readonly deadLettered?: (entry: ExecutionEntry, letter: DeadLetterNotice) => void;
}
