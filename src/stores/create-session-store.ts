// Picks the session store adapter named by the settings; the composition root calls this.
import { assertNever } from '../core/index.js';
import type { SessionStore } from '../engine/index.js';
import { FileSessionStore } from './file/file-session-store.js';
import { MemorySessionStore } from './memory/memory-session-store.js';
import type { PostgresDatabase } from './postgres/postgres-database.js';
import { PostgresSessionStore } from './postgres/postgres-session-store.js';

export type SessionStoreOptions =
  | { readonly type: 'memory' }
  | { readonly type: 'file'; readonly baseDir: string }
  | { readonly type: 'postgres'; readonly db: PostgresDatabase };

/** The store is not opened here: the caller awaits `open()`, which can fail on damaged data. */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  switch (options.type) {
    case 'memory':
      return new MemorySessionStore();
    case 'file':
      return new FileSessionStore({ baseDir: options.baseDir });
    case 'postgres':
      return new PostgresSessionStore(options.db);
    default:
      return assertNever(options, 'session store type');
  }
}
