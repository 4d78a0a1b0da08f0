// Session memory held in process memory (SESSION_MEMORY): a history per session and key, lost
// on restart. Unbounded unless a node sets maxEntries (SPEC Limits: "SESSION_MEMORY history"
// is unbounded unless stored in the relational database with svc.session-memory.ttl); a
// session's histories go with the session.
import type { SessionMemory } from '../../plugin-api/index.js';

export class MemorySessionMemory implements SessionMemory {
  readonly #sessions = new Map<string, Map<string, unknown[]>>();

  append(sessionId: string, key: string, entry: unknown, maxEntries?: number): Promise<number> {
    let histories = this.#sessions.get(sessionId);
    if (histories === undefined) {
      histories = new Map();
      this.#sessions.set(sessionId, histories);
    }
    let history = histories.get(key);
    if (history === undefined) {
      history = [];
      histories.set(key, history);
    }
    history.push(entry);
    if (maxEntries !== undefined && history.length > maxEntries) {
      history.splice(0, history.length - maxEntries);
    }
    return Promise.resolve(history.length);
  }

  read(sessionId: string, key: string, last?: number): Promise<readonly unknown[]> {
    const history = this.#sessions.get(sessionId)?.get(key) ?? [];
    return Promise.resolve(last === undefined ? [...history] : history.slice(-last));
  }

  clear(sessionId: string, key: string): Promise<number> {
    const histories = this.#sessions.get(sessionId);
    const removed = histories?.get(key)?.length ?? 0;
    histories?.delete(key);
    if (histories?.size === 0) this.#sessions.delete(sessionId);
    return Promise.resolve(removed);
  }

  /** Forgets every history of a session, when the session is deleted. */
  dropSession(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }
}
