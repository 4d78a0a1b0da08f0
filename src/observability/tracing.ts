// SPEC "Tracing": each execution is one observation `svc.run`, parent of one `svc.node`
// observation per node (tags `module`, `status`). They become spans only when a tracing
// library is in the build; the standard build has none, so no tracer is set and nothing is
// recorded. Observations are handed over once they have ended, so a run holds nothing open.

export type ObservationName = 'svc.run' | 'svc.node';

export interface Observation {
  readonly name: ObservationName;
  readonly id: string;
  readonly parentId: string | null;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly endedAt: number;
  readonly tags: Readonly<Record<string, string>>;
}

/** Where ended observations go: a tracing library's exporter, or a recorder in tests. */
export interface Tracer {
  record(observation: Observation): void;
}

/** Keeps the newest observations in memory. */
export class RecordingTracer implements Tracer {
  readonly observations: Observation[] = [];

  constructor(readonly capacity = 10_000) {}

  record(observation: Observation): void {
    this.observations.push(observation);
    if (this.observations.length > this.capacity) this.observations.shift();
  }
}
