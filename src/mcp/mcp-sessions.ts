// The MCP sessions of the tool endpoint: a client that sends `initialize` gets an
// Mcp-Session-Id, and the server keeps its connection so that it can be sent notifications
// (subscriptions, progress, questions) after a request ends. Sessions are bounded in number
// and in idle time, and each belongs to the key that opened it.
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Principal } from '../auth/index.js';
import type { McpConnection } from './mcp-server.js';

/** Sessions kept at most; opening one more ends the one used least recently. */
export const MAX_MCP_SESSIONS = 1000;
/** A session with no request and no open stream for this long is ended. */
export const MCP_SESSION_IDLE_MS = 30 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;

export interface McpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly connection: McpConnection;
  readonly principal: Principal | null;
  readonly owner: string;
  lastUsed: number;
  /** Server-sent-event streams of the session still open (its GET stream, calls running). */
  streams: number;
}

/**
 * Who a session belongs to: the same key (name, role, sessions) must come back, so that one key
 * cannot use the session, and with it the rights, of another.
 */
export function ownerOf(principal: Principal | null): string {
  if (principal === null) return 'open';
  return JSON.stringify([principal.caller, principal.role, principal.sessions]);
}

export class McpSessions {
  readonly #open = new Map<string, McpSession>();
  readonly #sweeper: NodeJS.Timeout;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#sweeper = setInterval(() => {
      this.endIdle();
    }, SWEEP_INTERVAL_MS);
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#open.size;
  }

  add(id: string, session: McpSession): void {
    if (this.#open.size >= MAX_MCP_SESSIONS) {
      const [oldest] = this.#open.keys();
      if (oldest !== undefined) void this.#end(oldest);
    }
    this.#open.set(id, session);
  }

  /** The session, when it exists and belongs to `owner`; another key's is not found either. */
  find(id: string, owner: string): McpSession | undefined {
    const session = this.#open.get(id);
    if (session?.owner !== owner) return undefined;
    session.lastUsed = this.#now();
    // Kept in order of use, so the first one is the one used least recently.
    this.#open.delete(id);
    this.#open.set(id, session);
    return session;
  }

  remove(id: string): void {
    const session = this.#open.get(id);
    if (session === undefined) return;
    this.#open.delete(id);
    session.connection.close();
  }

  closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    const ending = [...this.#open.keys()].map((id) => this.#end(id));
    return Promise.all(ending).then(() => undefined);
  }

  #end(id: string): Promise<void> {
    const session = this.#open.get(id);
    this.remove(id);
    return session === undefined ? Promise.resolve() : session.transport.close();
  }

  /** Ends the sessions idle for longer than MCP_SESSION_IDLE_MS; runs every minute. */
  endIdle(): void {
    const cutoff = this.#now() - MCP_SESSION_IDLE_MS;
    for (const [id, session] of this.#open) {
      if (session.streams === 0 && session.lastUsed < cutoff) void this.#end(id);
    }
  }
}
