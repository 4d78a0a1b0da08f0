// What a plugin learns when a run starts: its node and the server's services. The settings it
// reads come with it (plugin-settings.ts), never the whole server's.

/** What the engine tells a plugin about its node when a run starts. */
export interface NodeSetup {
  readonly nodeId: string;
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
