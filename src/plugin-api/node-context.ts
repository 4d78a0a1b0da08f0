// What a running node may use: narrow on purpose, never the whole runtime.
import type { CallSpan, OutgoingCall } from './call-span.js';

export interface NodeLog {
  trace(message: string, fields?: Readonly<Record<string, unknown>>): void;
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

export interface SubWorkflowRequest {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly payload: unknown;
}

/** What a running node may use. Narrow on purpose: never the whole runtime. */
export interface NodeContext {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly nodeId: string;
  /** Aborted when the run is stopped or cancelled, or the node times out. */
  readonly signal: AbortSignal;
  readonly log: NodeLog;
  /** The start request's `payload` (read by `API_TRIGGER`). */
  readonly startPayload: unknown;
  /** Milliseconds since the epoch on the run's clock. */
  now(): number;
  /**
   * Waits on the run's clock (a pause stops the wait); rejects when `signal` aborts, or
   * when the caller's own `options.signal` does (to drop a wait it no longer needs).
   */
  sleep(ms: number, options?: { readonly signal?: AbortSignal }): Promise<void>;
  /**
   * Runs another workflow as a child execution (nesting depth at most 5) and answers the
   * payloads its terminal nodes received, in order. Rejects when the child does not complete.
   */
  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]>;
  /**
   * Waits for a human's approval of `messageId` (WAIT_FOR_SIGNAL). The node shows WAITING;
   * the wait is listed as a pending approval and answered through the signal call. The time
   * runs on the run's clock (a pause freezes it); when it passes the node ends TIMED_OUT.
   */
  awaitSignal(request: SignalRequest): Promise<SignalAnswer>;
  /**
   * Counts something operators should see, in `svc.plugin.events` tagged `plugin` = `event`
   * and `outcome`: e.g. `report('llm.budget.exceeded', 'refused')`. Keep both to a few
   * fixed words: every distinct pair is a series of its own.
   */
  report(event: string, outcome: string): void;
  /** The server's meters that plugins add to (SPEC Meters). */
  readonly meter: PluginMeter;
  /**
   * Starts the client span of a call to another service (SPEC Tracing), a child of this
   * attempt's span: send its `headers` with the request and `end` it when the answer is in.
   * With tracing off it answers an inert span without headers.
   */
  traceCall(call: OutgoingCall): CallSpan;
  /**
   * How many messages the node's emits can have under way downstream at once: the input
   * buffers of every node below it, plus one each for the message it works on. A consumer of
   * a broker holds at most this many unsettled messages (`Credits`). Undefined where the host
   * cannot tell (a remote worker).
   */
  readonly credit?: number | undefined;
}

/** Tags of one measurement: each distinct set is a series of its own, so keep them few. */
export type MeterTags = Readonly<Record<string, string>>;

/**
 * What a plugin adds to the SPEC meters that belong to plugins: `svc.plugin.events` (also
 * through `report`), `svc.mcp.call` (a timer), `llm.tokens` and `llm.cost` (counters). The
 * host checks each call against the meter catalogue: another name, a counter observed, a timer
 * counted or a tag the meter does not have throws.
 */
export interface PluginMeter {
  /** Adds `amount` (1 by default) to the counter `name`. */
  count(name: string, tags?: MeterTags, amount?: number): void;
  /** Records `value` on the timer `name`, in milliseconds. */
  observe(name: string, value: number, tags?: MeterTags): void;
}

/**
 * How many messages a plugin that waits for a signal per message should wait on at once
 * (`MessageProcessor.concurrency`): each is a pending approval listed and answered on its own;
 * further messages stay in the node's input, pacing its parents.
 */
export const SIGNAL_WAITS_PER_NODE = 1000;

export interface SignalRequest {
  readonly messageId: string;
  readonly payload: unknown;
  readonly prompt: string | null;
  readonly timeoutMs: number;
}

/** CONTRACT section 4: the body of a signal. */
export interface SignalAnswer {
  readonly approved: boolean;
  readonly payload?: unknown;
  readonly comment?: string | null;
}
