// The control plane's view of its connected workers: their pools, plugin types and slots, and
// the placement port the engine asks for the runtime of a placed node (docs/workers.md).
import type { Clock, IdGenerator } from '../core/index.js';
import { randomIds } from '../core/index.js';
import type { NodePlacement, PlacedNode } from '../engine/index.js';
import { StepFailure } from '../plugin-api/index.js';
import type { Message, MessageProcessor, NodeContext, ProcessResult } from '../plugin-api/index.js';
import { WireError, encodePayload, fromWireEmit, toWireMessage } from './wire.js';
import type { ControlFrame, MeterFrame, Received, RegisterFrame, WorkerFrame } from './wire.js';

/** SPEC Errors, process-level failures: what a placed node fails with when no worker fits. */
export function noWorkerMessage(pool: string, type: string): string {
  return `No connected worker in pool '${pool}' serves plugin type '${type}' with a free slot`;
}

/** The connection to one worker, as the registry uses it. */
export interface WorkerLink {
  send(frame: ControlFrame): void;
  /** Drops the connection; the server then removes the worker. */
  close(reason: string): void;
}

export interface WorkerConnectionInfo {
  /** The worker's address as the control plane sees it. */
  readonly address: string;
  /** Whether the connection is TLS with a verified client certificate. */
  readonly secure: boolean;
}

/** CONTRACT 4 `GET /api/workers`: one connected worker. */
export interface WorkerView {
  readonly workerId: string;
  readonly name: string;
  readonly pool: string;
  readonly pluginTypes: readonly string[];
  readonly slots: number;
  readonly freeSlots: number;
  readonly address: string;
  readonly secure: boolean;
  readonly connectedAt: string;
  readonly lastSeenAt: string;
}

/** CONTRACT 4 `GET /api/workers`: the workers of one pool together. */
export interface PoolView {
  readonly pool: string;
  readonly workers: number;
  readonly slots: number;
  readonly freeSlots: number;
  /** Types at least one worker of the pool runs. */
  readonly pluginTypes: readonly string[];
}

export interface WorkersView {
  /** Whether this control plane accepts worker connections (docs/workers.md). */
  readonly accepting: boolean;
  readonly workers: readonly WorkerView[];
  readonly pools: readonly PoolView[];
}

interface PendingCall {
  readonly ctx: NodeContext;
  /** The Process frame, until a credit lets it go. */
  frame: ControlFrame | undefined;
  resolve(result: ProcessResult): void;
  reject(error: Error): void;
}

class ConnectedWorker {
  readonly id: string;
  readonly name: string;
  readonly pool: string;
  readonly slots: number;
  readonly pluginTypes: ReadonlySet<string>;
  readonly link: WorkerLink;
  readonly info: WorkerConnectionInfo;
  readonly connectedAt: number;
  lastSeenAt: number;
  /** Placed nodes it runs, by node reference: each holds one slot. */
  readonly leases = new Map<string, WorkerLease>();
  readonly calls = new Map<string, PendingCall>();
  /** Process frames the worker still takes before it grants more (docs/workers.md, credits). */
  credits: number;
  /** Calls waiting for a credit, in the order they came. */
  readonly waiting: string[] = [];
  gone = false;

  constructor(
    id: string,
    hello: RegisterFrame,
    link: WorkerLink,
    info: WorkerConnectionInfo,
    now: number,
  ) {
    this.id = id;
    this.name = hello.name;
    this.pool = hello.pool;
    this.slots = hello.slots;
    this.pluginTypes = new Set(hello.pluginTypes);
    this.credits = hello.credits;
    this.link = link;
    this.info = info;
    this.connectedAt = now;
    this.lastSeenAt = now;
  }

  get freeSlots(): number {
    return Math.max(0, this.slots - this.leases.size);
  }
}

/** One placed node of one run on one worker: the slot it holds and its runtime there. */
export class WorkerLease {
  constructor(
    readonly ref: string,
    readonly worker: ConnectedWorker,
  ) {}

  /** The worker went away: the next message needs a lease on a worker that is there. */
  get lost(): boolean {
    return this.worker.gone;
  }
}

export interface WorkerRegistryOptions {
  readonly clock: Clock;
  readonly ids?: IdGenerator;
}

export class WorkerRegistry implements NodePlacement {
  readonly #clock: Clock;
  readonly #ids: IdGenerator;
  readonly #workers = new Map<string, ConnectedWorker>();
  #nextRef = 0;
  #nextCall = 0;
  /** Set by the server while it listens for workers. */
  accepting = false;

  constructor(options: WorkerRegistryOptions) {
    this.#clock = options.clock;
    this.#ids = options.ids ?? randomIds;
  }

  /** Workers connected now (`svc.workers`). */
  get connected(): number {
    return this.#workers.size;
  }

  /** Free node slots across workers (`svc.worker.slots`). */
  get freeSlots(): number {
    let free = 0;
    for (const worker of this.#workers.values()) free += worker.freeSlots;
    return free;
  }

  /** A worker passed the handshake; answers its id. */
  add(hello: RegisterFrame, link: WorkerLink, info: WorkerConnectionInfo): string {
    const worker = new ConnectedWorker(this.#ids(), hello, link, info, this.#clock.now());
    this.#workers.set(worker.id, worker);
    return worker.id;
  }

  /**
   * A worker's connection ended. Its calls fail retryably, so that `engine.retry` can move the
   * message to another worker; its nodes find a new worker for their next message.
   */
  remove(workerId: string, reason: string): void {
    const worker = this.#workers.get(workerId);
    if (worker === undefined) return;
    this.#workers.delete(workerId);
    worker.gone = true;
    const calls = [...worker.calls.values()];
    worker.calls.clear();
    worker.waiting.length = 0;
    worker.leases.clear();
    for (const call of calls) {
      call.reject(
        StepFailure.retryable(
          `Worker '${worker.name}' left while processing the message: ${reason}`,
        ),
      );
    }
  }

  /**
   * Something arrived from a worker: it is alive, and it may answer a call or grant credit.
   * A frame this side cannot read ends the worker's call.
   */
  receive(workerId: string, frame: Received<WorkerFrame>): void {
    const worker = this.#workers.get(workerId);
    if (worker === undefined) return;
    worker.lastSeenAt = this.#clock.now();
    if (frame.credit !== undefined) {
      worker.credits += frame.credit.count;
      this.#drain(worker);
    } else if (frame.result !== undefined) {
      const call = this.#take(worker, frame.result.call);
      call?.resolve(frame.result.emits.map(fromWireEmit));
    } else if (frame.failed !== undefined) {
      const { call: callId, error, retryable } = frame.failed;
      this.#take(worker, callId)?.reject(
        retryable ? StepFailure.retryable(error) : StepFailure.nonRetryable(error),
      );
    } else if (frame.report !== undefined) {
      // A call already given up on (cancelled, timed out) has nobody left to count for.
      worker.calls.get(frame.report.call)?.ctx.report(frame.report.event, frame.report.outcome);
    } else if (frame.meter !== undefined) {
      this.#meter(worker.calls.get(frame.meter.call)?.ctx, frame.meter);
    } else {
      throw new WireError(`Unexpected '${frame.frame ?? 'empty'}' frame after registration`);
    }
  }

  /** Sends waiting calls while the worker has credit for them. */
  #drain(worker: ConnectedWorker): void {
    while (worker.credits > 0 && !worker.gone) {
      const callId = worker.waiting.shift();
      if (callId === undefined) return;
      const call = worker.calls.get(callId);
      if (call?.frame === undefined) continue;
      worker.credits--;
      const frame = call.frame;
      call.frame = undefined;
      worker.link.send(frame);
    }
  }

  /** Calls sent to a worker and not answered yet, and calls waiting for its credit. */
  inFlight(workerId: string): { sent: number; waiting: number } | undefined {
    const worker = this.#workers.get(workerId);
    if (worker === undefined) return undefined;
    const waiting = worker.waiting.length;
    return { sent: worker.calls.size - waiting, waiting };
  }

  /**
   * Counts a plugin's meter call made on a worker. The worker checked it already; one that is
   * still refused here (a worker of another build) has no plugin left to tell, so it is dropped.
   */
  #meter(ctx: NodeContext | undefined, frame: MeterFrame): void {
    try {
      if (frame.kind === 'COUNT') ctx?.meter.count(frame.name, frame.tags, frame.value);
      else ctx?.meter.observe(frame.name, frame.value, frame.tags);
    } catch {
      // Refused by the catalogue: see above.
    }
  }

  #take(worker: ConnectedWorker, callId: string): PendingCall | undefined {
    const call = worker.calls.get(callId);
    worker.calls.delete(callId);
    return call;
  }

  /** The engine's placement port: a runtime that sends the node's messages to a worker. */
  runtimeFor(node: PlacedNode): MessageProcessor {
    return new RemoteNodeRuntime(this, node);
  }

  /**
   * Takes a slot on the worker of the node's pool that serves its type and has the most free
   * slots, and opens the node there; undefined when no worker fits.
   */
  lease(node: PlacedNode): WorkerLease | undefined {
    let best: ConnectedWorker | undefined;
    for (const worker of this.#workers.values()) {
      if (worker.pool !== node.pool || !worker.pluginTypes.has(node.type)) continue;
      if (worker.freeSlots > (best?.freeSlots ?? 0)) best = worker;
    }
    if (best === undefined) return undefined;
    const lease = new WorkerLease(`n${++this.#nextRef}`, best);
    best.leases.set(lease.ref, lease);
    const startPayload = encodePayload(node.startPayload);
    best.link.send({
      open: {
        node: lease.ref,
        executionId: node.executionId,
        sessionId: node.sessionId,
        workflowId: node.workflowId,
        nodeId: node.nodeId,
        nodeType: node.type,
        configJson: JSON.stringify(node.config),
        ...(startPayload === undefined ? {} : { startPayload }),
      },
    });
    return lease;
  }

  /** The node ended: its runtime on the worker is closed and its slot is free again. */
  release(lease: WorkerLease): void {
    const { worker } = lease;
    if (!worker.leases.delete(lease.ref) || worker.gone) return;
    worker.link.send({ close: { node: lease.ref } });
  }

  /**
   * Sends one message to the node's runtime on its worker. An abort of the context's signal
   * (a stop, a node timeout, an element timeout) cancels the call there and fails it here at
   * once, whatever the worker does next.
   */
  call(lease: WorkerLease, message: Message, ctx: NodeContext): Promise<ProcessResult> {
    const { worker } = lease;
    const signal = ctx.signal;
    if (signal.aborted) return Promise.reject(abortError(signal));
    const callId = `c${++this.#nextCall}`;
    return new Promise<ProcessResult>((resolve, reject) => {
      const onAbort = (): void => {
        const call = worker.calls.get(callId);
        if (call === undefined) return;
        worker.calls.delete(callId);
        // A call still waiting for credit never reached the worker: nothing to cancel there.
        if (call.frame !== undefined) worker.waiting.splice(worker.waiting.indexOf(callId), 1);
        else if (!worker.gone) worker.link.send({ cancel: { call: callId } });
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      worker.calls.set(callId, {
        ctx,
        frame: {
          process: { call: callId, node: lease.ref, message: toWireMessage(message) },
        },
        resolve: (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      worker.waiting.push(callId);
      this.#drain(worker);
    });
  }

  /** Drops every worker connection (the server is closing). */
  closeAll(reason: string): void {
    for (const worker of [...this.#workers.values()]) {
      worker.link.close(reason);
      this.remove(worker.id, reason);
    }
  }

  view(): WorkersView {
    const workers = [...this.#workers.values()].map((worker): WorkerView => ({
      workerId: worker.id,
      name: worker.name,
      pool: worker.pool,
      pluginTypes: [...worker.pluginTypes].sort(),
      slots: worker.slots,
      freeSlots: worker.freeSlots,
      address: worker.info.address,
      secure: worker.info.secure,
      connectedAt: new Date(worker.connectedAt).toISOString(),
      lastSeenAt: new Date(worker.lastSeenAt).toISOString(),
    }));
    const pools = new Map<
      string,
      { workers: number; slots: number; free: number; types: Set<string> }
    >();
    for (const worker of workers) {
      const pool = pools.get(worker.pool) ?? { workers: 0, slots: 0, free: 0, types: new Set() };
      pool.workers++;
      pool.slots += worker.slots;
      pool.free += worker.freeSlots;
      for (const type of worker.pluginTypes) pool.types.add(type);
      pools.set(worker.pool, pool);
    }
    return {
      accepting: this.accepting,
      workers,
      pools: [...pools.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([pool, totals]) => ({
          pool,
          workers: totals.workers,
          slots: totals.slots,
          freeSlots: totals.free,
          pluginTypes: [...totals.types].sort(),
        })),
    };
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('The call was cancelled');
}

/**
 * A placed node's runtime on the control plane: the node keeps the worker (and the plugin
 * runtime there) it got for its first message until it ends, and finds a new one only when
 * that worker leaves. Without a worker the message fails retryably (SPEC Errors), so
 * `engine.retry` with a backoff waits for one.
 */
class RemoteNodeRuntime implements MessageProcessor {
  readonly #registry: WorkerRegistry;
  readonly #node: PlacedNode;
  #lease: WorkerLease | undefined;

  constructor(registry: WorkerRegistry, node: PlacedNode) {
    this.#registry = registry;
    this.#node = node;
  }

  process(message: Message, ctx: NodeContext): Promise<ProcessResult> {
    let lease = this.#lease;
    if (lease === undefined || lease.lost) {
      lease = this.#registry.lease(this.#node);
      this.#lease = lease;
      if (lease === undefined) {
        return Promise.reject(
          StepFailure.retryable(noWorkerMessage(this.#node.pool, this.#node.type)),
        );
      }
    }
    return this.#registry.call(lease, message, ctx);
  }

  close(): void {
    if (this.#lease !== undefined) this.#registry.release(this.#lease);
    this.#lease = undefined;
  }
}
