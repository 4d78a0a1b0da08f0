// Picks the checkpoint store named by the settings (SPEC "Checkpoint caps and stores"); the
// composition root calls this.
import { assertNever } from '../../core/index.js';
import type { CheckpointStore } from '../../engine/index.js';
import type { SkippedLinesListener } from '../file/skipped-lines.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';
import type { PostgresDatabase } from '../postgres/postgres-database.js';
import { PostgresCheckpointStore } from '../postgres/postgres-checkpoint-store.js';

export type CheckpointStoreOptions =
  | {
      readonly type: 'memory';
      readonly messagesPerNode: number;
      readonly bytesPerNode: number;
      /** With a directory, the memory store spills output beyond its caps there. */
      readonly spillDir: string | null;
      /** `svc.restart.max-bytes`: output held in memory over all executions. */
      readonly maxBytes?: number;
      readonly onBudgetDrop?: (messages: number) => void;
    }
  | {
      readonly type: 'file';
      readonly dir: string;
      readonly onSkippedLines?: SkippedLinesListener;
    }
  | { readonly type: 'postgres'; readonly db: PostgresDatabase };

/** The store is not opened here: the caller awaits `open()`, which can fail on damaged data. */
export function createCheckpointStore(options: CheckpointStoreOptions): CheckpointStore {
  switch (options.type) {
    case 'memory':
      return new MemoryCheckpointStore(options);
    case 'file':
      return new FileCheckpointStore(options);
    case 'postgres':
      return new PostgresCheckpointStore(options.db);
    default:
      return assertNever(options, 'checkpoint store type');
  }
}
