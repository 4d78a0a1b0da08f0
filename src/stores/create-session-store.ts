// Picks the session store adapter named by the settings; the composition root calls this.
import { assertNever } from '../core/index.js';
import type { SessionStore } from '../engine/index.js';
import { FileSessionStore } from './file/file-session-store.js';
import { MemorySessionStore } from './memory/memory-session-store.js';

export type SessionStoreOptions =
  { readonly type: 'memory' } | { readonly type: 'file'; readonly baseDir: string };

/** The store is not opened here: the caller awaits `open()`, which can fail on damaged data. */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  switch (options.type) {
    case 'memory':
      return new MemorySessionStore();
    case 'file':
      return new FileSessionStore({ baseDir: options.baseDir });
    default:
      return assertNever(options, 'session store type');
  }
}
