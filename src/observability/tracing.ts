// SPEC "Tracing": each execution is one span `svc.run`, parent of one `svc.node` span per node
// attempt (a message's try, or a whole-stream node's run), parent in turn of the client spans
// of the calls a plugin makes. This is the seam: the OpenTelemetry tracer (`otel-tracer.ts`)
// exports the spans, a recorder keeps them in tests, and without a tracer nothing is made.
import { messageOf } from '../core/index.js';
import type { AttemptSpan, AttemptStart, AttemptStatus, RunTracing } from '../engine/index.js';
import type { CallSpan, OutgoingCall, SpanAttributes } from '../plugin-api/index.js';

/** What starts the span of one execution. */
export interface RunStart {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly workflowVersion: number;
  /** The run of the node that started this one as a sub-workflow, when it is traced. */
  readonly parent: RunSpan | undefined;
}

/** The span of one execution: the engine's `RunTracing`, ended with the execution. */
export interface RunSpan extends RunTracing {
  /** 32 hex characters: the execution record and the run's log lines carry it. */
  readonly traceId: string;
  /** 16 hex characters. */
  readonly spanId: string;
  /** Ends the span with the execution's final status; an error status when it FAILED. */
  end(status: string, error: string | null): void;
}

/** Where spans go: an exporter, or a recorder in tests. */
export interface Tracer {
  startRun(run: RunStart): RunSpan;
  /** Sends what is still buffered and stops: the server is stopping. */
  shutdown(): Promise<void>;
}

export type ObservationName = 'svc.run' | 'svc.node' | 'client';

/** An ended span as the recorder keeps it. */
export interface Observation {
  readonly name: ObservationName;
  /** The client span's own name (`GET`, `tools/call add`); the name otherwise. */
  readonly title: string;
  readonly id: string;
  readonly traceId: string;
  readonly parentId: string | null;
  readonly tags: Readonly<Record<string, string>>;
  readonly attributes: SpanAttributes;
  readonly error: string | undefined;
}

/** Keeps the newest ended spans in memory, with ids counted up. */
export class RecordingTracer implements Tracer {
  readonly observations: Observation[] = [];
  #ids = 0;

  constructor(readonly capacity = 10_000) {}

  startRun(run: RunStart): RunSpan {
    const traceId = run.parent?.traceId ?? this.#id(32);
    const spanId = this.#id(16);
    const record = (observation: Observation): void => {
      this.#record(observation);
    };
    const nextId = (): string => this.#id(16);
    return {
      traceId,
      spanId,
      startAttempt: (attempt) => recordedAttempt(attempt, traceId, spanId, nextId, record),
      end: (status, error) => {
        record({
          name: 'svc.run',
          title: 'svc.run',
          id: spanId,
          traceId,
          parentId: run.parent?.spanId ?? null,
          tags: { executionId: run.executionId, workflowId: run.workflowId, status },
          attributes: {},
          error: error ?? undefined,
        });
      },
    };
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  #id(length: number): string {
    return (++this.#ids).toString(16).padStart(length, '0');
  }

  #record(observation: Observation): void {
    this.observations.push(observation);
    if (this.observations.length > this.capacity) this.observations.shift();
  }
}

function recordedAttempt(
  attempt: AttemptStart,
  traceId: string,
  parentId: string,
  nextId: () => string,
  record: (observation: Observation) => void,
): AttemptSpan {
  const spanId = nextId();
  return {
    spanId,
    traceCall: (call: OutgoingCall): CallSpan => {
      const id = nextId();
      const attributes: Record<string, SpanAttributes[string]> = { ...call.attributes };
      let ended = false;
      return {
        headers: { traceparent: `00-${traceId}-${id}-01` },
        set: (more) => {
          Object.assign(attributes, more);
        },
        end: (error?: unknown) => {
          if (ended) return;
          ended = true;
          record({
            name: 'client',
            title: call.name,
            id,
            traceId,
            parentId: spanId,
            tags: {},
            attributes,
            error: error === undefined ? undefined : messageOf(error),
          });
        },
      };
    },
    end: (status: AttemptStatus, error?: unknown) => {
      record({
        name: 'svc.node',
        title: 'svc.node',
        id: spanId,
        traceId,
        parentId,
        tags: {
          nodeId: attempt.nodeId,
          module: attempt.type,
          attempt: String(attempt.attempt),
          status,
        },
        attributes: {},
        error: error === undefined ? undefined : messageOf(error),
      });
    },
  };
}
