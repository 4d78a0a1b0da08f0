// What a plugin learns when a run starts: its node, the server's limits and services.

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
