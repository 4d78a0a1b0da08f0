// Settlement of a trigger's messages (docs/brokers.md): a trigger's message with a
// `Settlement` gets a tracker that counts the deliveries of it and of everything descended
// from it still under way. A delivery is one message sent to one child; it ends when the
// child has dealt with it (emitted what it led to, or nothing: a terminal, a filter). When
// the count reaches zero the message is done; a failure after retries settles it failed at
// once; the run's end settles what is left cancelled. Messages without trackers pay one
// property read per hop.
import type {
  Message,
  Settlement,
  SettlementFailure,
  SettlementOutcome,
} from '../../plugin-api/index.js';
import { messageOf } from '../../core/index.js';
import { plainLineage } from './message-ids.js';
import type { RunEventSink } from './run-ports.js';

/** Where a tracked message keeps its trackers; plugins neither see nor copy it. */
const TRACKERS: unique symbol = Symbol('settlement trackers');

interface TrackedMessage extends Message {
  [TRACKERS]?: readonly SettlementTracker[];
}

/** One trigger message's count of deliveries under way. */
export class SettlementTracker {
  /** Starts at one: the emit itself, released once it has been sent. */
  #open = 1;
  #settled = false;
  readonly #settlements: RunSettlements;
  readonly #onSettled: (outcome: SettlementOutcome, failure?: SettlementFailure) => void;

  constructor(
    settlements: RunSettlements,
    onSettled: (outcome: SettlementOutcome, failure?: SettlementFailure) => void,
  ) {
    this.#settlements = settlements;
    this.#onSettled = onSettled;
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** Deliveries under way. */
  get open(): number {
    return this.#open;
  }

  /** `count` more deliveries of a descendant. */
  add(count: number): void {
    this.#open += count;
  }

  /** One delivery has been dealt with. */
  release(): void {
    if (--this.#open === 0) this.settle('done');
  }

  /** Settles once; later calls do nothing. */
  settle(outcome: 'done' | 'cancelled'): void;
  settle(outcome: 'failed', failure: SettlementFailure): void;
  settle(outcome: SettlementOutcome, failure?: SettlementFailure): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#settlements.forget(this);
    this.#onSettled(outcome, failure);
  }
}

/** The trackers a message carries, if any. */
export function trackersOf(message: Message): readonly SettlementTracker[] | undefined {
  return (message as TrackedMessage)[TRACKERS];
}

/** Gives `message` its trackers, each counting one delivery per target. */
export function carry(
  message: Message,
  trackers: readonly SettlementTracker[],
  targets: number,
): void {
  (message as TrackedMessage)[TRACKERS] = trackers;
  if (targets === 0) return;
  for (const tracker of trackers) tracker.add(targets);
}

/** A child has dealt with its delivery of `message`. */
export function release(message: Message): void {
  const trackers = trackersOf(message);
  if (trackers === undefined) return;
  for (const tracker of trackers) tracker.release();
}

/** `message` failed after its retries and onError: its trigger messages settle failed. */
export function fail(message: Message, failure: SettlementFailure): void {
  const trackers = trackersOf(message);
  if (trackers === undefined) return;
  for (const tracker of trackers) tracker.settle('failed', failure);
}

/**
 * Ends the delivery of `message` once `pending` (its handling by node `nodeId`) is over: a
 * failure of the handling fails it.
 */
export function releaseAfter(
  message: Message,
  pending: Promise<void> | undefined,
  nodeId: string,
): Promise<void> | undefined {
  if (trackersOf(message) === undefined) return pending;
  if (pending === undefined) {
    release(message);
    return undefined;
  }
  return pending.then(
    () => {
      release(message);
    },
    (error: unknown) => {
      fail(message, { nodeId, error: messageOf(error) });
      release(message);
      throw error;
    },
  );
}

/** Trackers held by a whole-stream node: each delivery it took since its last emit. */
export class HeldDeliveries {
  #held: SettlementTracker[] = [];

  /** The node took `message`. */
  take(message: Message): void {
    const trackers = trackersOf(message);
    if (trackers !== undefined) for (const tracker of trackers) this.#held.push(tracker);
  }

  /** Whether any delivery is held. */
  get empty(): boolean {
    return this.#held.length === 0;
  }

  /** The trackers an emit now descends from, each once. */
  trackers(): readonly SettlementTracker[] | undefined {
    if (this.#held.length === 0) return undefined;
    return [...new Set(this.#held)];
  }

  /** Ends every held delivery: a `failure` settles their messages failed first. */
  releaseAll(failure?: SettlementFailure): void {
    const held = this.#held;
    this.#held = [];
    for (const tracker of held) {
      if (failure !== undefined) tracker.settle('failed', failure);
      tracker.release();
    }
  }
}

/** What a run's settlements need of it: whose ids they key, and where a failed callback goes. */
export interface SettlementScope {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly events: Pick<RunEventSink, 'log'>;
}

/**
 * One per run: its open trackers, settled cancelled when the run ends. It costs a run nothing
 * beyond itself until a trigger's message carries a settlement, since most runs have none and
 * many sit parked for hours.
 */
export class RunSettlements {
  #open: Set<SettlementTracker> | undefined;
  #scope: string | undefined;
  readonly #run: SettlementScope;
  readonly #done: Promise<unknown>;

  /** `done` resolves when the run ends. */
  constructor(run: SettlementScope, done: Promise<unknown>) {
    this.#run = run;
    this.#done = done;
  }

  /**
   * Whether any message of the run may carry trackers: false until a trigger's first message
   * with a settlement, so that the other runs skip the look at every message's trackers.
   */
  get tracking(): boolean {
    return this.#open !== undefined;
  }

  /** Trackers not settled yet. */
  get open(): number {
    return this.#open?.size ?? 0;
  }

  /** A tracker for a trigger's emit with a settlement. */
  track(settlement: Settlement, nodeId: string): SettlementTracker {
    const tracker = new SettlementTracker(this, (outcome, failure) => {
      try {
        settlement.onSettled(outcome, failure);
      } catch (error) {
        this.#run.events.log({
          nodeId,
          level: 'ERROR',
          message: 'Settlement callback failed',
          fields: { error: messageOf(error) },
        });
      }
    });
    if (this.#open === undefined) {
      this.#open = new Set();
      // What is still open when the run ends settles cancelled.
      void this.#done.then(() => {
        this.cancelAll();
      });
    }
    this.#open.add(tracker);
    return tracker;
  }

  /** The id of a trigger's message keyed `key`, the same in every run of the workflow. */
  keyedId(nodeKey: string, key: string): string {
    // The workflow's name: keyed ids are the same in every run of it.
    this.#scope ??= `${this.#run.sessionId}.${this.#run.workflowId}`;
    return plainLineage(`${this.#scope}.${nodeKey}.k.${key}`);
  }

  /** The run ended: whatever is still open settles cancelled. */
  cancelAll(): void {
    if (this.#open === undefined) return;
    for (const tracker of [...this.#open]) tracker.settle('cancelled');
  }

  forget(tracker: SettlementTracker): void {
    this.#open?.delete(tracker);
  }
}
