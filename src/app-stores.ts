// The stores the settings choose (SPEC "Runtime profiles" and "Limits"): the relational
// database when any store is `postgres`, and the session, checkpoint, dead-letter and execution
// log stores, for the composition root (app.ts).
import path from 'node:path';
import { AppError } from './core/index.js';
import { STORE_TYPE_KEYS } from './config/index.js';
import type { BuildInfo, Settings } from './config/index.js';
import type { CheckpointStore, SessionStore } from './engine/index.js';
import type { Loggers } from './observability/index.js';
import {
  FileExecutionLog,
  PostgresDatabase,
  PostgresExecutionLog,
  createCheckpointStore,
  createDeadLetterStore,
  createSessionStore,
} from './stores/index.js';
import type {
  DeadLetterStore,
  ExecutionLogStore,
  LeaseFence,
  SkippedLinesListener,
} from './stores/index.js';

/**
 * The relational database, migrated and open, when any store is `postgres` (SPEC "Runtime
 * profiles": profile `postgres`); otherwise none. The server does not start when it cannot be
 * reached or migrated (SPEC Errors, process-level failures).
 */
export async function databaseFor(
  settings: Settings,
  buildInfo: BuildInfo,
  loggers: Loggers,
): Promise<PostgresDatabase | undefined> {
  const chosen = STORE_TYPE_KEYS.filter((key) => settings[key] === 'postgres');
  if (chosen.length === 0) return undefined;
  if (!buildInfo.persistence) {
    throw new AppError('SETTINGS_INVALID', {
      params: {
        detail: `${chosen.map((key) => `${key}=postgres`).join(', ')}: this build does not include the relational-database stores (build with svc.persistence=postgres)`,
      },
    });
  }
  const url = settings['svc.db.url'];
  const migrationUrl = settings['svc.db.migration-url'];
  if (url === null || migrationUrl === null) {
    const missing = [
      url === null ? 'svc.db.url (SVC_DB_URL)' : '',
      migrationUrl === null ? 'svc.db.migration-url (SVC_DB_MIGRATION_URL)' : '',
    ].filter((name) => name !== '');
    throw new AppError('SETTINGS_INVALID', {
      params: { detail: `The relational-database stores need ${missing.join(' and ')}` },
    });
  }
  const database = new PostgresDatabase({
    url,
    migrationUrl,
    schema: settings['svc.db.schema'],
    poolSize: settings['svc.db.pool-size'],
    onIdleError: (error) => {
      loggers.app.warn({ err: error }, 'An idle database connection failed; the pool replaces it');
    },
    onWarning: (warning) => {
      loggers.app.warn(warning);
    },
  });
  const report = await database.open();
  loggers.app.info(
    { schema: database.schema, version: report.schemaVersion, migrated: report.migrated },
    'Relational database ready',
  );
  return database;
}

/** Only called for a store type `postgres`, for which `databaseFor` opened the database. */
export function relational(database: PostgresDatabase | undefined): PostgresDatabase {
  if (database === undefined) {
    throw new AppError('SETTINGS_INVALID', {
      params: { detail: 'a relational store was chosen without a relational database' },
    });
  }
  return database;
}

export function sessionStoreFor(
  settings: Settings,
  database: PostgresDatabase | undefined,
): SessionStore {
  const type = settings['svc.session.store-type'];
  switch (type) {
    case 'memory':
      return createSessionStore({ type: 'memory' });
    case 'file':
      return createSessionStore({ type: 'file', baseDir: settings['svc.session.base-dir'] });
    case 'postgres':
      return createSessionStore({ type: 'postgres', db: relational(database) });
  }
}

/**
 * SPEC "Limits": memory (default), memory with spill files, files, or relational. Setting
 * `svc.restart.dir` alone is enough for files, as the deployment facts describe.
 */
export function checkpointStoreFor(
  settings: Settings,
  database: PostgresDatabase | undefined,
  onSkippedLines: SkippedLinesListener,
  onBudgetDrop: (messages: number) => void,
): CheckpointStore {
  const type = settings['svc.restart.store-type'];
  const dir = settings['svc.restart.dir'];
  if (type === 'postgres') {
    return createCheckpointStore({ type: 'postgres', db: relational(database) });
  }
  if (type === 'file' || dir !== null) {
    return createCheckpointStore({ type: 'file', dir: dir ?? 'data/checkpoints', onSkippedLines });
  }
  return createCheckpointStore({
    type: 'memory',
    messagesPerNode: settings['svc.restart.messages-per-node'],
    bytesPerNode: settings['svc.restart.bytes-per-node'],
    spillDir: settings['svc.restart.spill-dir'],
    maxBytes: settings['svc.restart.max-bytes'],
    onBudgetDrop,
  });
}

/**
 * The dead-letter store that goes with the checkpoint store: in its directory with file
 * checkpoints, in the database with relational ones, else in memory with the same caps.
 */
export function deadLetterStoreFor(
  settings: Settings,
  database: PostgresDatabase | undefined,
  onDrop: (letters: number) => void,
): DeadLetterStore {
  const type = settings['svc.restart.store-type'];
  const dir = settings['svc.restart.dir'];
  if (type === 'postgres') return createDeadLetterStore({ type, db: relational(database) });
  if (type === 'file' || dir !== null) {
    return createDeadLetterStore({
      type: 'file',
      dir: path.join(dir ?? 'data/checkpoints', 'dead-letters'),
    });
  }
  return createDeadLetterStore({
    type: 'memory',
    maxExecutions: settings['svc.restart.retained-executions'],
    maxPerExecution: settings['svc.restart.messages-per-node'],
    onDrop,
  });
}

/**
 * The durable execution log, or none: the execution registry is then the log. Like the
 * checkpoint store, `svc.execution-log.dir` alone is enough for a file.
 */
export function executionLogFor(
  settings: Settings,
  database: PostgresDatabase | undefined,
  onAppendFailed: (type: 'node' | 'run') => void,
  fence: LeaseFence | undefined,
  onSkippedLines: SkippedLinesListener,
): ExecutionLogStore | undefined {
  const type = settings['svc.execution-log.store-type'];
  const dir = settings['svc.execution-log.dir'];
  if (type === 'postgres') {
    return new PostgresExecutionLog({ db: relational(database), onAppendFailed, fence });
  }
  if (type === 'file' || dir !== null) {
    return new FileExecutionLog({
      dir: dir ?? 'data/execution-log',
      onAppendFailed,
      onSkippedLines,
    });
  }
  return undefined;
}
