// The writing rhythm the durable checkpoint writers share (file and PostgreSQL). What is
// recorded is buffered; a pump writes it in rounds, one at a time: a round takes everything
// buffered and every caller waiting when it starts, so end markers arriving while a write is
// under way share the single next round (group commit). A recording node waits once too much
// waits to be written (back-pressure), as it waits for a full edge. The pump also owns the
// writer's life: taking records, closing once, failing for good and being discarded. Adapters
// keep the buffer and say how a round is written.
import type { AppError } from '../../core/index.js';
import { checkpointFailure } from './checkpoint-errors.js';

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export interface RoundPumpLimits {
  /** Buffered bytes from which a round starts without a caller waiting. */
  readonly batchBytes: number;
  /** Buffered bytes from which a recording node waits for the pump. */
  readonly highWaterBytes: number;
}

export abstract class RoundPump<TRound> {
  readonly #limits: RoundPumpLimits;
  readonly #executionId: string;
  /** False once the writer closed, failed or was discarded. */
  #taking = true;
  #failure: AppError | undefined;
  #closing: Promise<void> | undefined;
  /** Callers waiting for what is buffered to be written, and forced to storage if `#sync`. */
  #waiters: Waiter[] = [];
  #sync = false;
  #pumping: Promise<void> | undefined;
  /** Settles once the pump has taken what a back-pressured node waits behind. */
  #drained: Promise<void> | undefined;
  #onDrained: (() => void) | undefined;

  protected constructor(limits: RoundPumpLimits, executionId: string) {
    this.#limits = limits;
    this.#executionId = executionId;
  }

  /** Writes what is buffered, forces it to storage and releases the writer; rejects after a failure. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  /** For a dropped execution: stops at once, without writing what is buffered. */
  async discard(): Promise<void> {
    this.fail(
      checkpointFailure(`the checkpoints of execution '${this.#executionId}' were dropped`),
    );
    this.clearBuffer();
    this.#releaseDrained();
    while (this.#pumping !== undefined) await this.#pumping;
    await this.release();
  }

  /** Bytes buffered and not yet taken by a round (an estimate is enough). */
  protected abstract get pendingBytes(): number;

  /** Takes everything buffered, leaving the buffer empty. */
  protected abstract takeRound(): TRound;

  /**
   * Writes a round, forcing it to storage when `sync`; answers the failure that ends the
   * writer, if any. Not called again once it answered one.
   */
  protected abstract writeRound(round: TRound, sync: boolean): Promise<AppError | undefined>;

  /** Throws away what is buffered (the execution was dropped). */
  protected abstract clearBuffer(): void;

  /** Lets go of the writer's storage once it wrote its last round or was discarded. */
  protected abstract release(): Promise<void> | void;

  /** Whether records are still taken: not once the writer closed, failed or was discarded. */
  protected get taking(): boolean {
    return this.#taking;
  }

  /** The failure that ended the writer; its rounds are not written. */
  protected get failure(): AppError | undefined {
    return this.#failure;
  }

  /** Ends the writer for good; the first failure stands and is answered. */
  protected fail(failure: AppError): AppError {
    this.#taking = false;
    this.#failure ??= failure;
    return this.#failure;
  }

  /** Why a record that must be written is refused: the failure, or the close. */
  protected refusal(): AppError | undefined {
    if (this.#failure !== undefined) return this.#failure;
    if (!this.#taking) return checkpointFailure('the checkpoint writer is closed');
    return undefined;
  }

  /** A round is done with (written or not): its buffers may be reused. */
  protected roundDone?(round: TRound): void;

  /**
   * After an append of `pending` bytes: starts a round once a batch is buffered, and answers a
   * promise for the node to wait on once too much is.
   */
  protected afterAppend(pending: number): Promise<void> | undefined {
    if (pending < this.#limits.batchBytes) return undefined;
    this.#startPump();
    if (pending < this.#limits.highWaterBytes) return undefined;
    return (this.#drained ??= new Promise<void>((resolve) => {
      this.#onDrained = resolve;
    }));
  }

  /**
   * Resolves once everything buffered so far is written, and forced to storage if `sync`;
   * rejects with the failure that ended the writer.
   */
  protected request(sync: boolean): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const done = new Promise<void>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    if (sync) this.#sync = true;
    this.#startPump();
    return done;
  }

  /** Lets nodes held by back-pressure go on: the pump took their records, or they were dropped. */
  #releaseDrained(): void {
    const resolve = this.#onDrained;
    this.#drained = undefined;
    this.#onDrained = undefined;
    resolve?.();
  }

  async #close(): Promise<void> {
    this.#taking = false;
    try {
      await this.request(true);
    } finally {
      await this.release();
    }
  }

  #startPump(): void {
    if (this.#pumping !== undefined) return;
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = undefined;
      // Work queued after the last round looked but before this pump settled.
      if (this.#waiters.length > 0 || this.pendingBytes >= this.#limits.batchBytes) {
        this.#startPump();
      }
    });
  }

  async #pump(): Promise<void> {
    // Markers of the same turn of the event loop share the first round.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#waiters.length > 0 || this.pendingBytes >= this.#limits.batchBytes) {
      const round = this.takeRound();
      this.#releaseDrained();
      const waiters = this.#waiters;
      const sync = this.#sync;
      this.#waiters = [];
      this.#sync = false;
      const failure = this.#failure ?? (await this.writeRound(round, sync));
      this.roundDone?.(round);
      for (const waiter of waiters) {
        if (failure === undefined) waiter.resolve();
        else waiter.reject(failure);
      }
    }
  }
}
