// Picks the dead-letter store that goes with the checkpoint store (docs/dead-letters.md):
// letters are kept where, and as long as, the checkpoints a redrive replays are.
import { assertNever } from '../../core/index.js';
import type { PostgresDatabase } from '../postgres/postgres-database.js';
import { PostgresDeadLetterStore } from '../postgres/postgres-dead-letter-store.js';
import type { DeadLetterStore } from './dead-letter-store.js';
import { FileDeadLetterStore } from './file-dead-letter-store.js';
import { MemoryDeadLetterStore } from './memory-dead-letter-store.js';
import type { MemoryDeadLetterStoreOptions } from './memory-dead-letter-store.js';

export type DeadLetterStoreOptions =
  | ({ readonly type: 'memory' } & MemoryDeadLetterStoreOptions)
  | { readonly type: 'file'; readonly dir: string }
  | { readonly type: 'postgres'; readonly db: PostgresDatabase };

/** The store is not opened here: the caller awaits `open()`, which can fail on damaged data. */
export function createDeadLetterStore(options: DeadLetterStoreOptions): DeadLetterStore {
  switch (options.type) {
    case 'memory':
      return new MemoryDeadLetterStore(options);
    case 'file':
      return new FileDeadLetterStore(options.dir);
    case 'postgres':
      return new PostgresDeadLetterStore(options.db);
    default:
      return assertNever(options, 'dead-letter store type');
  }
}
