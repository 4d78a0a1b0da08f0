// What a running node may use: narrow on purpose, never the whole runtime.

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
