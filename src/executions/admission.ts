// Admission (SPEC "States and transitions", "Limits"): who may hold a slot, who waits, and in
// which order. A paused run keeps its slot. Queue order: higher priority first, then the
// session with the fewest running executions, then arrival.

/** What a start meets when no slot is free: a refusal, or a place in the queue. */
export const ON_LIMIT_MODES = ['REJECT', 'QUEUE'] as const;

export type OnLimit = (typeof ON_LIMIT_MODES)[number];

/** CONTRACT section 3: scheduler limits, `null` where off. */
export interface AdmissionLimits {
  readonly maxConcurrent: number | null;
  readonly maxPerSession: number | null;
  readonly maxPerWorkflow: number | null;
  readonly onLimit: OnLimit;
  readonly queueCapacity: number;
  /** Milliseconds a start may wait for a slot; null waits without limit. */
  readonly queueTimeout: number | null;
}

/** Every limit off: what a server without admission settings admits. */
export const LIMITS_OFF: AdmissionLimits = {
  maxConcurrent: null,
  maxPerSession: null,
  maxPerWorkflow: null,
  onLimit: 'REJECT',
  queueCapacity: 100,
  queueTimeout: null,
};

/** Why a start got no slot; the tags of `svc.executions.rejected`. */
export type RefusalReason = 'limit' | 'queue_full' | 'workflow_queue_full' | 'shutdown';

export const REFUSAL_MESSAGES: Readonly<Record<RefusalReason, string>> = {
  limit: 'Execution limit reached',
  queue_full: 'The queue is full',
  workflow_queue_full: 'The queue of this workflow is full',
  shutdown: 'The server is shutting down',
};

export interface Candidate {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  priority: number;
  /** Order of arrival, for ties. */
  readonly arrival: number;
}

/** A limit a waiting start is held back by, with what runs against it now. */
export interface HeldBy {
  readonly limit: 'maxConcurrent' | 'maxPerSession' | 'maxPerWorkflow';
  readonly running: number;
  readonly max: number;
}

/** A waiting start, in queue order, with the limits that hold it back. */
export interface QueuedStart {
  readonly candidate: Candidate;
  readonly heldBy: readonly HeldBy[];
}

export type Decision =
  | { readonly kind: 'run' }
  | { readonly kind: 'queue' }
  | { readonly kind: 'refuse'; readonly reason: RefusalReason };

/** A workflow is named within its session: two sessions may both have `orders`. */
function workflowKey(candidate: Candidate): string {
  return `${candidate.sessionId}\u0000${candidate.workflowId}`;
}

function increment(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

export class Admission {
  #limits: AdmissionLimits;
  /** Starts of one workflow that may wait; 0: no limit of its own, only the whole queue's. */
  readonly #workflowQueueCapacity: number;
  #shuttingDown = false;
  #arrivals = 0;
  readonly #running = new Map<string, Candidate>();
  readonly #runningBySession = new Map<string, number>();
  readonly #runningByWorkflow = new Map<string, number>();
  readonly #queued = new Map<string, Candidate>();
  readonly #queuedByWorkflow = new Map<string, number>();
  /**
   * The queue indexed for admission: per priority, per session, in arrival order. Giving a
   * slot looks at each session's first starts, not at the whole queue.
   */
  readonly #levels = new Map<number, Map<string, Candidate[]>>();

  constructor(limits: AdmissionLimits, workflowQueueCapacity = 0) {
    this.#limits = limits;
    this.#workflowQueueCapacity = workflowQueueCapacity;
  }

  get limits(): AdmissionLimits {
    return this.#limits;
  }

  get running(): number {
    return this.#running.size;
  }

  get queued(): number {
    return this.#queued.size;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  nextArrival(): number {
    return ++this.#arrivals;
  }

  /**
   * Decides a new start; `run` and `queue` take effect at once. Waiting starts never fit at
   * rest (every release admits those that do), so a start that fits overtakes no one.
   */
  request(candidate: Candidate): Decision {
    if (this.#shuttingDown) return { kind: 'refuse', reason: 'shutdown' };
    if (this.#fits(candidate)) {
      this.#hold(candidate);
      return { kind: 'run' };
    }
    const { onLimit, queueCapacity } = this.#limits;
    if (onLimit === 'REJECT') return { kind: 'refuse', reason: 'limit' };
    if (this.#queued.size >= queueCapacity) return { kind: 'refuse', reason: 'queue_full' };
    const perWorkflow = this.#workflowQueueCapacity;
    if (
      perWorkflow > 0 &&
      (this.#queuedByWorkflow.get(workflowKey(candidate)) ?? 0) >= perWorkflow
    ) {
      return { kind: 'refuse', reason: 'workflow_queue_full' };
    }
    this.#enqueue(candidate);
    return { kind: 'queue' };
  }

  /** A run ended: its slot is free. Answers the queued starts that now get a slot, in order. */
  release(executionId: string): Candidate[] {
    const held = this.#running.get(executionId);
    if (held !== undefined) {
      this.#running.delete(executionId);
      increment(this.#runningBySession, held.sessionId, -1);
      increment(this.#runningByWorkflow, workflowKey(held), -1);
    }
    return this.admitWaiting();
  }

  /** Removes a start from the queue (timed out, stopped); false when it was not queued. */
  dequeue(executionId: string): boolean {
    const queued = this.#queued.get(executionId);
    if (queued === undefined) return false;
    this.#queued.delete(executionId);
    increment(this.#queuedByWorkflow, workflowKey(queued), -1);
    const sessions = this.#levels.get(queued.priority);
    const list = sessions?.get(queued.sessionId);
    if (sessions !== undefined && list !== undefined) {
      const index = list.indexOf(queued);
      if (index !== -1) list.splice(index, 1);
      if (list.length === 0) sessions.delete(queued.sessionId);
      if (sessions.size === 0) this.#levels.delete(queued.priority);
    }
    return true;
  }

  #enqueue(candidate: Candidate): void {
    this.#queued.set(candidate.executionId, candidate);
    increment(this.#queuedByWorkflow, workflowKey(candidate), 1);
    let sessions = this.#levels.get(candidate.priority);
    if (sessions === undefined) {
      sessions = new Map();
      this.#levels.set(candidate.priority, sessions);
    }
    let list = sessions.get(candidate.sessionId);
    if (list === undefined) {
      list = [];
      sessions.set(candidate.sessionId, list);
    }
    // Arrival order within a session; a start moved to another priority keeps its place.
    let index = list.length;
    while (index > 0 && (list[index - 1]?.arrival ?? 0) > candidate.arrival) index--;
    list.splice(index, 0, candidate);
  }

  isQueued(executionId: string): boolean {
    return this.#queued.has(executionId);
  }

  /** SPEC rule 3: the priority of a start can change only while it waits for a slot. */
  reprioritise(executionId: string, priority: number): boolean {
    const queued = this.#queued.get(executionId);
    if (queued === undefined) return false;
    this.dequeue(executionId);
    queued.priority = priority;
    this.#enqueue(queued);
    return true;
  }

  /** Changes the limits live; answers the queued starts the new limits admit. */
  setLimits(limits: AdmissionLimits): Candidate[] {
    this.#limits = limits;
    return this.admitWaiting();
  }

  /** Stops admitting; answers the queued starts, which are refused. */
  shutdown(): Candidate[] {
    this.#shuttingDown = true;
    const refused = [...this.#queued.values()];
    for (const candidate of refused) this.dequeue(candidate.executionId);
    return refused;
  }

  /** Gives free slots to the best waiting starts that fit, one at a time. */
  admitWaiting(): Candidate[] {
    const admitted: Candidate[] = [];
    for (;;) {
      const best = this.#best();
      if (best === undefined) return admitted;
      this.dequeue(best.executionId);
      this.#hold(best);
      admitted.push(best);
    }
  }

  /**
   * The start the queue order puts first among those that fit: highest priority, then the
   * session with the fewest running executions, then arrival.
   */
  #best(): Candidate | undefined {
    const { maxConcurrent } = this.#limits;
    if (this.#queued.size === 0) return undefined;
    if (maxConcurrent !== null && this.#running.size >= maxConcurrent) return undefined;
    const priorities = [...this.#levels.keys()].sort((a, b) => b - a);
    for (const priority of priorities) {
      let best: Candidate | undefined;
      for (const list of this.#levels.get(priority)?.values() ?? []) {
        // A session's first start that fits; a later one only when an earlier one is held
        // back by its workflow's limit.
        const first = list.find((candidate) => this.#fits(candidate));
        if (first !== undefined && (best === undefined || this.#before(first, best))) best = first;
      }
      if (best !== undefined) return best;
    }
    return undefined;
  }

  /** Queue order: higher priority, then the session with fewest running, then arrival. */
  #before(a: Candidate, b: Candidate): boolean {
    if (a.priority !== b.priority) return a.priority > b.priority;
    const runningA = this.#runningBySession.get(a.sessionId) ?? 0;
    const runningB = this.#runningBySession.get(b.sessionId) ?? 0;
    if (runningA !== runningB) return runningA < runningB;
    return a.arrival < b.arrival;
  }

  /**
   * The waiting starts in the order the queue takes them now (priority, then the session with
   * the fewest running, then arrival), each with the limits that hold it back. A start behind
   * another of its session is held by the same limits.
   */
  waiting(): QueuedStart[] {
    return [...this.#queued.values()]
      .sort((a, b) => (this.#before(a, b) ? -1 : this.#before(b, a) ? 1 : 0))
      .map((candidate) => ({ candidate, heldBy: this.#heldBy(candidate) }));
  }

  #fits(candidate: Candidate): boolean {
    const { maxConcurrent, maxPerSession, maxPerWorkflow } = this.#limits;
    if (maxConcurrent !== null && this.#running.size >= maxConcurrent) return false;
    if (
      maxPerSession !== null &&
      (this.#runningBySession.get(candidate.sessionId) ?? 0) >= maxPerSession
    ) {
      return false;
    }
    if (
      maxPerWorkflow !== null &&
      (this.#runningByWorkflow.get(workflowKey(candidate)) ?? 0) >= maxPerWorkflow
    ) {
      return false;
    }
    return true;
  }

  /** The limits `candidate` does not fit under now; #fits says whether there is none. */
  #heldBy(candidate: Candidate): HeldBy[] {
    const { maxConcurrent, maxPerSession, maxPerWorkflow } = this.#limits;
    const counts: [HeldBy['limit'], number, number | null][] = [
      ['maxConcurrent', this.#running.size, maxConcurrent],
      ['maxPerSession', this.#runningBySession.get(candidate.sessionId) ?? 0, maxPerSession],
      ['maxPerWorkflow', this.#runningByWorkflow.get(workflowKey(candidate)) ?? 0, maxPerWorkflow],
    ];
    return counts.flatMap(([limit, running, max]) =>
      max !== null && running >= max ? [{ limit, running, max }] : [],
    );
  }

  #hold(candidate: Candidate): void {
    this.#running.set(candidate.executionId, candidate);
    increment(this.#runningBySession, candidate.sessionId, 1);
    increment(this.#runningByWorkflow, workflowKey(candidate), 1);
  }
}
