// The starts waiting for a slot (SPEC "States and transitions", "Limits"): admission decides
// who runs, this keeps each waiting start with its queue clock. The queue clock is a run
// clock of the engine, so a pause freezes the queue wait like every other timer of a run and
// a resume gives it back the time it had left (SPEC rule 1).
import type { Clock } from '../core/index.js';
import { RunClock } from '../engine/index.js';
import type { TimerHandle, TimerScheduler } from '../engine/index.js';
import type { Meters } from '../observability/index.js';
import { Admission } from './admission.js';
import type { AdmissionLimits, Candidate, Decision, HeldBy } from './admission.js';
import { END_STATUS_EVENTS } from './execution-events.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { ExecutionNotifier } from './execution-notifier.js';
import type { ExecutionEntry } from './execution-registry.js';
import type { Launch } from './launch.js';

/** How a waiting start ends without running. */
export type WaitingEnd = 'STOPPED' | 'TIMED_OUT';

export interface AdmissionQueueOptions {
  readonly limits: AdmissionLimits;
  /** Starts of one workflow that may wait; 0 or absent: no limit of its own. */
  readonly queueCapacityPerWorkflow: number | undefined;
  readonly clock: Clock;
  /** How queue clocks arm their timers: real ones, or a manual scheduler in tests. */
  readonly timers: TimerScheduler;
  readonly meters: Meters;
  readonly notifier: ExecutionNotifier;
  readonly journal: ExecutionJournal | undefined;
  /** A waiting start got its slot: its run starts, paused when it was paused while it waited. */
  readonly admitted: (entry: ExecutionEntry, launch: Launch, paused: boolean) => void;
}

/** A waiting start as the queue view shows it. */
export interface WaitingStart {
  readonly entry: ExecutionEntry;
  readonly queuedAt: number;
  readonly paused: boolean;
  readonly heldBy: readonly HeldBy[];
}

/** A start waiting for a slot. A class: a full queue holds many. */
class Waiting {
  timer: TimerHandle | undefined = undefined;

  constructor(
    readonly entry: ExecutionEntry,
    readonly launch: Launch,
    readonly queuedAt: number,
    /** Frozen while the waiting start is paused. */
    readonly clock: RunClock,
  ) {}
}

export class AdmissionQueue {
  readonly #options: AdmissionQueueOptions;
  readonly #admission: Admission;
  readonly #waiting = new Map<string, Waiting>();

  constructor(options: AdmissionQueueOptions) {
    this.#options = options;
    this.#admission = new Admission(options.limits, options.queueCapacityPerWorkflow);
    // Read when the meters are collected: setting them on every start and end cost each run
    // four meter updates.
    const admission = this.#admission;
    options.meters.observe('svc.executions.running', () => admission.running);
    options.meters.observe('svc.executions.queued', () => admission.queued);
  }

  get limits(): AdmissionLimits {
    return this.#admission.limits;
  }

  /** Starts waiting for a slot. */
  get size(): number {
    return this.#waiting.size;
  }

  nextArrival(): number {
    return this.#admission.nextArrival();
  }

  /** Decides a new start; `run` holds its slot at once. */
  request(candidate: Candidate): Decision {
    return this.#admission.request(candidate);
  }

  /** An execution created QUEUED waits for its slot: admission has queued its candidate. */
  enqueue(entry: ExecutionEntry, launch: Launch): void {
    const { clock, timers, notifier } = this.#options;
    notifier.emit(entry, { kind: 'execution.queued', status: 'QUEUED', priority: entry.priority });
    const waiting = new Waiting(entry, launch, clock.now(), new RunClock(clock, timers));
    this.#waiting.set(entry.executionId, waiting);
    const limit = this.#admission.limits.queueTimeout;
    if (limit !== null) {
      waiting.timer = waiting.clock.after(limit, () => {
        this.#timedOut(waiting, limit);
      });
    }
  }

  /** The waiting starts in queue order, with what holds each back and whether it is paused. */
  waiting(): WaitingStart[] {
    return this.#admission.waiting().flatMap(({ candidate, heldBy }) => {
      const waiting = this.#waiting.get(candidate.executionId);
      return waiting === undefined
        ? []
        : [
            {
              entry: waiting.entry,
              queuedAt: waiting.queuedAt,
              paused: waiting.clock.paused,
              heldBy,
            },
          ];
    });
  }

  isWaiting(executionId: string): boolean {
    return this.#waiting.has(executionId);
  }

  /** SPEC rule 3: the priority changes only while the start waits; false when it does not. */
  reprioritise(executionId: string, priority: number): boolean {
    return this.#admission.reprioritise(executionId, priority);
  }

  /** Ends a waiting start without a run; false when it was not waiting. */
  end(executionId: string, status: WaitingEnd, error: string): boolean {
    const waiting = this.#waiting.get(executionId);
    if (waiting === undefined) return false;
    this.#end(waiting, status, error);
    return true;
  }

  /**
   * Pauses or resumes a waiting start (SPEC rule 1): its queue clock freezes, and it stays
   * QUEUED; false when it was not waiting.
   */
  pause(executionId: string, pause: boolean): boolean {
    const waiting = this.#waiting.get(executionId);
    if (waiting === undefined) return false;
    if (waiting.clock.paused === pause) return true;
    if (pause) waiting.clock.pause();
    else waiting.clock.resume();
    this.#options.notifier.emit(waiting.entry, {
      kind: pause ? 'execution.paused' : 'execution.resumed',
      status: 'QUEUED',
    });
    return true;
  }

  /** A run ended: its slot goes to the waiting starts that now fit. */
  release(executionId: string): void {
    for (const next of this.#admission.release(executionId)) this.#admit(next);
  }

  /** Changes the limits live; waiting starts that now fit begin. */
  setLimits(limits: AdmissionLimits): void {
    for (const next of this.#admission.setLimits(limits)) this.#admit(next);
  }

  /**
   * Stops admitting for good (shutdown, fencing): every waiting start ends STOPPED with
   * `error`; answers how many did.
   */
  close(error: string): number {
    let ended = 0;
    for (const candidate of this.#admission.shutdown()) {
      if (this.end(candidate.executionId, 'STOPPED', error)) ended++;
    }
    return ended;
  }

  /** A waiting start got its slot. */
  #admit(candidate: Candidate): void {
    const waiting = this.#waiting.get(candidate.executionId);
    if (waiting === undefined) {
      // It ended while being admitted: give the slot back.
      for (const next of this.#admission.release(candidate.executionId)) this.#admit(next);
      return;
    }
    this.#waiting.delete(candidate.executionId);
    waiting.clock.dispose();
    const { clock, meters, admitted } = this.#options;
    meters.time('svc.execution.queue.wait', {}, clock.now() - waiting.queuedAt);
    // Paused while it waited: it keeps its slot and starts paused.
    admitted(waiting.entry, waiting.launch, waiting.clock.paused);
  }

  #timedOut(waiting: Waiting, limit: number): void {
    if (this.#waiting.get(waiting.entry.executionId) !== waiting) return;
    this.#options.meters.count('svc.executions.rejected', { reason: 'queue_timeout' });
    this.#end(waiting, 'TIMED_OUT', `Waited longer than ${limit} ms for a slot`);
  }

  #end(waiting: Waiting, status: WaitingEnd, error: string): void {
    const { entry } = waiting;
    const { clock, notifier, journal } = this.#options;
    this.#waiting.delete(entry.executionId);
    this.#admission.dequeue(entry.executionId);
    waiting.clock.dispose();
    entry.transition(status);
    entry.error = error;
    entry.endedAt = clock.now();
    notifier.emit(entry, { kind: END_STATUS_EVENTS[status], status, error });
    journal?.ended(entry.executionId, status, error, entry.endedAt);
    entry.markFinished();
  }
}
