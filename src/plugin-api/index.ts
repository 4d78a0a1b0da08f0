// The only surface a plugin compiles against. Built-in plugins import nothing else.
import { z } from 'zod';

export { z };
export { messageOf } from '../core/index.js';

export type NodeKind = 'trigger' | 'processor' | 'terminal';

export interface MessageHeaders {
  /** 1 on the first attempt, incremented by each retry of the same message. */
  readonly attempt: number;
  readonly [name: string]: unknown;
}

/**
 * CONTRACT section 1: a message; `id` is stable across replays and resumes. Messages and
 * payloads are shared, not copied: every child of a node gets the same object, and
 * checkpoints record it as emitted. A plugin treats the message it gets and the payload it
 * emits as read-only; to change a payload it emits a new value.
 */
export interface Message {
  readonly id: string;
  readonly payload: unknown;
  readonly headers: MessageHeaders;
}

/**
 * A plugin type: what it is, the configuration it accepts and the ports it emits on.
 * Engine settings (`timeoutSeconds`, `onError`, `engine.*`) are the runtime's and are
 * checked by it; `configSchema` covers the plugin's own keys and may accept more keys.
 */
export interface PluginDefinition<Config> {
  readonly type: string;
  readonly kind: NodeKind;
  /** One sentence for plugin discovery and docs. */
  readonly description: string;
  readonly configSchema: z.ZodType<Config>;
  /** Output ports for a valid configuration; every node has `out`. */
  readonly outputPorts: (config: Config) => readonly string[];
  /** Idle timeout applied when the node sets no `timeoutSeconds`; none when absent. */
  readonly defaultTimeoutSeconds?: number;
  /** The run-time part; a type without one cannot run yet and fails to prepare. */
  readonly create?: NodeFactory<Config>;
}

/** Declares a plugin type with its configuration type inferred from the schema. */
export function definePlugin<Schema extends z.ZodType>(
  definition: PluginDefinition<z.output<Schema>> & { readonly configSchema: Schema },
): PluginDefinition<z.output<Schema>> {
  return definition;
}

// ---------------------------------------------------------------------------------------
// Run time: what a node does with messages. The engine's node runner wraps every plugin the
// same way (control gate, retries, timeouts, onError, checkpoints, accounting), so plugins
// only transform messages.

/** One message a node emits; `port` defaults to `out`. */
export interface Emit {
  readonly payload: unknown;
  readonly port?: string;
  /** Headers added to the emitted message; `attempt` is the runtime's own. */
  readonly headers?: Readonly<Record<string, unknown>>;
}

/** What one call of `process` emits: nothing, one message or several, in order. */
export type ProcessResult = Emit | readonly Emit[] | undefined;

/**
 * A plugin failure that says whether a retry can help (retries repeat per message). Bad
 * input is never retried: fail it with `nonRetryable`. Any other thrown error counts as a
 * retryable failure.
 */
export class StepFailure extends Error {
  readonly retryable: boolean;

  private constructor(message: string, retryable: boolean, cause: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'StepFailure';
    this.retryable = retryable;
  }

  static retryable(message: string, cause?: unknown): StepFailure {
    return new StepFailure(message, true, cause);
  }

  static nonRetryable(message: string, cause?: unknown): StepFailure {
    return new StepFailure(message, false, cause);
  }
}

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
  /** Adds to one of the SPEC meters that belong to plugins (`PluginMeasure`). */
  measure(measure: PluginMeasure): void;
}

/**
 * What a plugin adds to the SPEC meters of its own: the duration of an `MCP_TOOL_CALL`
 * (`svc.mcp.call`), model tokens (`llm.tokens`) and model cost (`llm.cost`).
 */
export type PluginMeasure =
  | {
      readonly meter: 'svc.mcp.call';
      readonly tool: string;
      readonly outcome: string;
      readonly milliseconds: number;
    }
  | {
      readonly meter: 'llm.tokens';
      readonly provider: string;
      readonly direction: 'input' | 'output';
      readonly amount: number;
    }
  | { readonly meter: 'llm.cost'; readonly provider: string; readonly amount: number };

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

/** Most plugins: called once per message; the runtime adds retries, timeouts and onError. */
export interface MessageProcessor {
  process(message: Message, ctx: NodeContext): ProcessResult | Promise<ProcessResult>;
  /** Called once when the node ends, however it ends. */
  close?(): void | Promise<void>;
}

/**
 * Triggers and stateful plugins (aggregator, loops): the whole input stream in, the whole
 * output stream out. Pulled: the engine asks for the next emit only when its children can
 * take it, so back-pressure needs nothing more. Clean up in `finally`.
 */
export interface StreamNode {
  /** A plain iterable suits a plugin that never waits (it costs no promise per message). */
  run(input: AsyncIterable<Message>, ctx: NodeContext): AsyncIterable<Emit> | Iterable<Emit>;
}

export type NodeRuntime = MessageProcessor | StreamNode;

export function isStreamNode(runtime: NodeRuntime): runtime is StreamNode {
  return 'run' in runtime;
}

/** Server-wide limits on what workflow authors may do (SPEC "Workflow-author safeguards"). */
export interface Safeguards {
  /** Executables `PROCESS_EXECUTOR` may run, matched exactly; empty means none unless allowAny. */
  readonly processAllowedCommands: readonly string[];
  /** Any executable; effective only while the allow-list is empty. */
  readonly processAllowAny: boolean;
  readonly scriptTimeoutMs: number;
  readonly scriptMaxStatements: number;
  /** The directory `FILE_READ` and `FILE_WRITE` work in; null: file access is off. */
  readonly filesBaseDir: string | null;
  /** Tools `MCP_TOOL_CALL` may call; empty allows any. */
  readonly mcpAllowedTools: readonly string[];
  /** Most bytes of JSON arguments per `MCP_TOOL_CALL`. */
  readonly mcpMaxArgumentBytes: number;
  /** Patterns the JSON arguments of an `MCP_TOOL_CALL` must not match. */
  readonly mcpDenyArgumentPatterns: readonly RegExp[];
  /** Patterns the prompt and system text of an `LLM_CALL` must not match. */
  readonly llmDenyInputPatterns: readonly RegExp[];
  /** Patterns a model's answer and its tool-call arguments must not match. */
  readonly llmDenyOutputPatterns: readonly RegExp[];
  /** Most prompt characters (system text included) per `LLM_CALL`; 0: no limit. */
  readonly llmMaxInputChars: number;
  /** Requests per minute to each model provider, over the whole server. */
  readonly llmRequests: LlmRequestLimiter;
}

/** Holds model calls to `svc.llm.rate-limit.<provider>` requests per minute. */
export interface LlmRequestLimiter {
  /** Takes a slot for one request, waiting with `sleep` while the provider is at its rate. */
  acquire(provider: string, sleep: (ms: number) => Promise<void>): Promise<void>;
}

/** What a plugin learns about its node when a run starts. */
export interface NodeSetup {
  readonly nodeId: string;
  readonly safeguards: Safeguards;
  /** The server's session memory (`SESSION_MEMORY`); absent where there is none. */
  readonly sessionMemory?: SessionMemory | undefined;
}

/**
 * Histories kept per session and key, shared by every run of the session (`SESSION_MEMORY`).
 * Entries are payloads as they were appended, oldest first.
 */
export interface SessionMemory {
  /** Appends an entry, then keeps at most `maxEntries` (the newest); answers the count kept. */
  append(sessionId: string, key: string, entry: unknown, maxEntries?: number): Promise<number>;
  /** The newest `last` entries (all without it), oldest first. */
  read(sessionId: string, key: string, last?: number): Promise<readonly unknown[]>;
  /** Forgets a history; answers how many entries it held. */
  clear(sessionId: string, key: string): Promise<number>;
}

/** No process, default script limits: for tests and tools. */
export const DEFAULT_SAFEGUARDS: Safeguards = Object.freeze({
  processAllowedCommands: [],
  processAllowAny: false,
  scriptTimeoutMs: 10_000,
  scriptMaxStatements: 50_000_000,
  filesBaseDir: null,
  mcpAllowedTools: [],
  mcpMaxArgumentBytes: 65_536,
  mcpDenyArgumentPatterns: [],
  llmDenyInputPatterns: [],
  llmDenyOutputPatterns: [],
  llmMaxInputChars: 0,
  llmRequests: { acquire: () => Promise.resolve() },
});

/** Makes the run-time part of a plugin for one node and its parsed configuration. */
export type NodeFactory<Config> = (config: Config, setup: NodeSetup) => NodeRuntime;
