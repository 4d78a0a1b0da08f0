// Session store on the local file system (SPEC "Deployment facts": `SVC_SESSION_STORE_TYPE=file`):
// one JSON file per record, replaced atomically and fsynced, so no acknowledged write is lost.
import { mkdir, readFile, readdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError, isAppError, KeyedLock, messageOf } from '../../core/index.js';
import type { SessionRecord, SessionStore, WorkflowRecord } from '../../engine/index.js';
import { checkSessionRecord, checkWorkflowRecord } from '../shared/check-record.js';
import type { CheckedRecord } from '../shared/check-record.js';
import { compareSessions, compareWorkflows } from '../shared/record-order.js';
import { VersionPool, shareWorkflow } from '../shared/version-pool.js';
import { fileNameForId } from './file-name-for-id.js';
import {
  TEMPORARY_SUFFIX,
  isAlreadyExisting,
  isNotFound,
  randomSuffix,
  syncDirectory,
  writeFileAtomic,
} from './write-file-atomic.js';

/** Written into every file; a file of another version is reported rather than misread. */
export const FILE_FORMAT_VERSION = 1;

const SESSIONS_DIR = 'sessions';
const TRASH_DIR = 'trash';
const SESSION_FILE = 'session.json';
const WORKFLOWS_DIR = 'workflows';
const RECORD_EXTENSION = '.json';

export interface FileSessionStoreOptions {
  /** Created on `open()` when missing; resolved against the working directory. */
  readonly baseDir: string;
}

interface CachedSession {
  record: SessionRecord;
  readonly directory: string;
  readonly workflows: Map<string, WorkflowRecord>;
  /** Whether the workflows directory is known to exist, saving a mkdir on every save. */
  hasWorkflowsDirectory: boolean;
}

type Cache = Map<string, CachedSession>;

interface Encoded<T> {
  readonly record: T;
  readonly content: string;
}

/**
 * Layout: `<base>/sessions/<session>/session.json` and
 * `<base>/sessions/<session>/workflows/<workflow>.json`, names from `fileNameForId`. A session
 * exists once its session.json does. `open()` loads everything; reads are then served from
 * memory, and the cache changes only after the disk has. Changes to one session run one at a
 * time in call order, so the last of concurrent writes to a file wins and a write queued
 * before a delete cannot land after it. One process at a time may use a base directory.
 */
export class FileSessionStore implements SessionStore {
  readonly kind = 'file';
  readonly #baseDir: string;
  readonly #sessionsDir: string;
  readonly #trashDir: string;
  readonly #lock = new KeyedLock();
  readonly #versions = new VersionPool();
  readonly #pending = new Set<Promise<unknown>>();
  #cache: Cache | undefined;
  #opening: Promise<void> | undefined;
  #closing = false;

  constructor(options: FileSessionStoreOptions) {
    this.#baseDir = path.resolve(options.baseDir);
    this.#sessionsDir = path.join(this.#baseDir, SESSIONS_DIR);
    this.#trashDir = path.join(this.#baseDir, TRASH_DIR);
  }

  get baseDir(): string {
    return this.#baseDir;
  }

  open(): Promise<void> {
    if (this.#cache) return Promise.resolve();
    this.#opening ??= this.#load().then(
      (cache) => {
        this.#cache = cache;
        this.#opening = undefined;
      },
      (error: unknown) => {
        this.#opening = undefined;
        throw error;
      },
    );
    return this.#opening;
  }

  /** Waits for changes under way, then drops the cache; `open()` may load it again. */
  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    if (!this.#cache) return;
    this.#closing = true;
    try {
      await Promise.allSettled([...this.#pending]);
    } finally {
      this.#cache = undefined;
      this.#closing = false;
    }
  }

  listSessions(): Promise<SessionRecord[]> {
    return this.#read((cache) =>
      [...cache.values()].map((session) => session.record).sort(compareSessions),
    );
  }

  getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.#read((cache) => cache.get(sessionId)?.record);
  }

  async putSession(session: SessionRecord): Promise<void> {
    // Encoding now takes the copy at call time, before the caller can change the record.
    const encoded = encode('session', session, checkSessionRecord);
    const { sessionId } = encoded.record;
    await this.#change(sessionId, `cannot save session '${sessionId}'`, async (cache) => {
      const existing = cache.get(sessionId);
      const directory = existing?.directory ?? this.#sessionDirectory(sessionId);
      if (!existing) await this.#createSessionDirectory(directory);
      await writeFileAtomic(path.join(directory, SESSION_FILE), encoded.content);
      if (existing) existing.record = encoded.record;
      else {
        cache.set(sessionId, {
          record: encoded.record,
          directory,
          workflows: new Map(),
          hasWorkflowsDirectory: true,
        });
      }
    });
  }

  deleteSession(sessionId: string): Promise<boolean> {
    return this.#change(sessionId, `cannot delete session '${sessionId}'`, async (cache) => {
      const existing = cache.get(sessionId);
      if (!existing) return false;
      // One rename removes the session and all its workflows at once, even across a crash.
      const trashed = await this.#moveToTrash(existing.directory);
      await syncDirectory(this.#sessionsDir);
      cache.delete(sessionId);
      if (trashed !== undefined) await removeQuietly(trashed);
      return true;
    });
  }

  listWorkflows(sessionId: string): Promise<WorkflowRecord[]> {
    return this.#share((cache) =>
      [...(cache.get(sessionId)?.workflows.values() ?? [])]
        .sort(compareWorkflows)
        .map(shareWorkflow),
    );
  }

  getWorkflow(sessionId: string, workflowId: string): Promise<WorkflowRecord | undefined> {
    return this.#share((cache) => {
      const workflow = cache.get(sessionId)?.workflows.get(workflowId);
      return workflow && shareWorkflow(workflow);
    });
  }

  async putWorkflow(workflow: WorkflowRecord): Promise<void> {
    const record = this.#versions.ownWorkflow(workflow);
    const content = `{"format":${FILE_FORMAT_VERSION},"workflow":${this.#versions.workflowJson(record)}}\n`;
    const { sessionId, workflowId } = record;
    const action = `cannot save workflow '${workflowId}' of session '${sessionId}'`;
    await this.#change(sessionId, action, async (cache) => {
      const session = cache.get(sessionId);
      if (!session) {
        throw new AppError('STORE_FAILED', {
          params: { detail: `session '${sessionId}' does not exist` },
        });
      }
      const directory = path.join(session.directory, WORKFLOWS_DIR);
      if (!session.hasWorkflowsDirectory) {
        await ensureDirectory(directory);
        session.hasWorkflowsDirectory = true;
      }
      await writeFileAtomic(workflowFile(directory, workflowId), content);
      session.workflows.set(workflowId, record);
    });
  }

  deleteWorkflow(sessionId: string, workflowId: string): Promise<boolean> {
    const action = `cannot delete workflow '${workflowId}' of session '${sessionId}'`;
    return this.#change(sessionId, action, async (cache) => {
      const session = cache.get(sessionId);
      if (!session?.workflows.has(workflowId)) return false;
      const directory = path.join(session.directory, WORKFLOWS_DIR);
      try {
        await unlink(workflowFile(directory, workflowId));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      await syncDirectory(directory);
      session.workflows.delete(workflowId);
      return true;
    });
  }

  #sessionDirectory(sessionId: string): string {
    return path.join(this.#sessionsDir, fileNameForId(sessionId));
  }

  #openCache(): Cache {
    if (!this.#cache) throw this.#unavailable('is not open');
    return this.#cache;
  }

  #unavailable(state: string): AppError {
    return new AppError('STORE_FAILED', {
      params: { detail: `the session store at '${this.#baseDir}' ${state}` },
    });
  }

  /** Serves a read from the cache, handing out a copy. */
  #read<T>(query: (cache: Cache) => T): Promise<T> {
    return this.#share((cache) => structuredClone(query(cache)));
  }

  /** Serves a read whose answer is already safe to hand out (fresh or frozen). */
  #share<T>(query: (cache: Cache) => T): Promise<T> {
    return new Promise((resolve) => {
      resolve(query(this.#openCache()));
    });
  }

  /** Queues a change behind earlier changes of the same session; I/O errors become STORE_FAILED. */
  #change<T>(sessionId: string, action: string, work: (cache: Cache) => Promise<T>): Promise<T> {
    const cache = this.#cache;
    if (!cache) return Promise.reject(this.#unavailable('is not open'));
    if (this.#closing) return Promise.reject(this.#unavailable('is closing'));
    const result = this.#lock.run(sessionId, async () => {
      try {
        return await work(cache);
      } catch (error) {
        throw asStoreFailure(error, action);
      }
    });
    this.#pending.add(result);
    const forget = (): void => {
      this.#pending.delete(result);
    };
    void result.then(forget, forget);
    return result;
  }

  async #createSessionDirectory(directory: string): Promise<void> {
    // Whatever sits here is an interrupted creation that `open()` ignored; reusing it could
    // bring back files of an earlier attempt, so it goes.
    const stale = await this.#moveToTrash(directory);
    if (stale !== undefined) await removeQuietly(stale);
    await mkdir(directory);
    await mkdir(path.join(directory, WORKFLOWS_DIR));
    await syncDirectory(directory);
    await syncDirectory(this.#sessionsDir);
  }

  /** Renames a directory into the trash; undefined when there was nothing to move. */
  async #moveToTrash(directory: string): Promise<string | undefined> {
    await mkdir(this.#trashDir, { recursive: true });
    const trashed = path.join(this.#trashDir, `${path.basename(directory)}.${randomSuffix()}`);
    try {
      await rename(directory, trashed);
      return trashed;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async #load(): Promise<Cache> {
    let names: string[];
    try {
      await mkdir(this.#sessionsDir, { recursive: true });
      // The trash only ever holds what was already deleted.
      await rm(this.#trashDir, { recursive: true, force: true });
      const entries = await readdir(this.#sessionsDir, { withFileTypes: true });
      names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch (error) {
      throw asStoreFailure(error, `cannot open the session store at '${this.#baseDir}'`);
    }
    const cache: Cache = new Map();
    // One file at a time: bounded open files, and the same damaged file named on every try.
    for (const name of names.sort()) {
      const session = await loadSession(path.join(this.#sessionsDir, name), name, this.#versions);
      if (session) cache.set(session.record.sessionId, session);
    }
    return cache;
  }
}

async function loadSession(
  directory: string,
  name: string,
  versions: VersionPool,
): Promise<CachedSession | undefined> {
  const file = path.join(directory, SESSION_FILE);
  const content = await readIfPresent(file);
  // Without session.json the creation never finished: ignored, and left for inspection.
  if (content === undefined) return undefined;
  await removeTemporaryFiles(directory);
  const record = decode(file, content, 'session', checkSessionRecord);
  if (fileNameForId(record.sessionId) !== name) {
    throw damaged(file, `session id '${record.sessionId}' does not belong in directory '${name}'`);
  }
  const workflowsDirectory = path.join(directory, WORKFLOWS_DIR);
  const names = await listFileNames(workflowsDirectory);
  const workflows = new Map<string, WorkflowRecord>();
  for (const entry of names ?? []) {
    const workflowPath = path.join(workflowsDirectory, entry);
    if (entry.endsWith(TEMPORARY_SUFFIX)) await removeLeftover(workflowPath);
    else if (entry.endsWith(RECORD_EXTENSION)) {
      const workflow = await loadWorkflow(workflowPath, entry, record.sessionId, versions);
      workflows.set(workflow.workflowId, workflow);
    }
  }
  return {
    record,
    directory,
    workflows,
    hasWorkflowsDirectory: names !== undefined,
  };
}

async function loadWorkflow(
  file: string,
  name: string,
  sessionId: string,
  versions: VersionPool,
): Promise<WorkflowRecord> {
  const content = await readIfPresent(file);
  if (content === undefined) throw damaged(file, 'the file vanished while loading');
  const workflow = decode(file, content, 'workflow', checkWorkflowRecord);
  if (workflow.sessionId !== sessionId) {
    throw damaged(file, `it belongs to session '${workflow.sessionId}', not '${sessionId}'`);
  }
  if (fileNameForId(workflow.workflowId) + RECORD_EXTENSION !== name) {
    throw damaged(file, `workflow id '${workflow.workflowId}' does not belong in file '${name}'`);
  }
  return versions.ownWorkflow(workflow);
}

function workflowFile(directory: string, workflowId: string): string {
  return path.join(directory, fileNameForId(workflowId) + RECORD_EXTENSION);
}

/** Serialises a record the way it will be read back, and checks what will be read back. */
function encode<T>(
  key: 'session' | 'workflow',
  record: T,
  check: (value: unknown) => CheckedRecord<T>,
): Encoded<T> {
  let content: string;
  try {
    content = JSON.stringify({ format: FILE_FORMAT_VERSION, [key]: record }) + '\n';
  } catch (error) {
    throw asStoreFailure(error, `cannot store the ${key} as JSON`);
  }
  const parsed = parseJson(content);
  const checked = check(isObject(parsed) ? parsed[key] : undefined);
  if (!checked.ok) {
    throw new AppError('STORE_FAILED', {
      params: { detail: `the ${key} cannot be stored: ${checked.problem}` },
    });
  }
  return { record: checked.value, content };
}

function decode<T>(
  file: string,
  content: string,
  key: 'session' | 'workflow',
  check: (value: unknown) => CheckedRecord<T>,
): T {
  let parsed: unknown;
  try {
    parsed = parseJson(content);
  } catch (error) {
    throw damaged(file, `not valid JSON (${messageOf(error)})`);
  }
  if (!isObject(parsed)) throw damaged(file, 'not a JSON object');
  if (parsed.format !== FILE_FORMAT_VERSION) {
    throw damaged(
      file,
      `format version ${'format' in parsed ? JSON.stringify(parsed.format) : 'missing'}, expected ${FILE_FORMAT_VERSION}`,
    );
  }
  const checked = check(parsed[key]);
  if (!checked.ok) throw damaged(file, checked.problem);
  return checked.value;
}

function parseJson(content: string): unknown {
  return JSON.parse(content) as unknown;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw asStoreFailure(error, `cannot read '${file}'`);
  }
}

/** File names in a directory, sorted; undefined when the directory does not exist. */
async function listFileNames(directory: string): Promise<string[] | undefined> {
  try {
    return (await readdir(directory)).sort();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw asStoreFailure(error, `cannot list '${directory}'`);
  }
}

/** Deletes temporary files a crash left behind; they never hold acknowledged data. */
async function removeTemporaryFiles(directory: string): Promise<void> {
  for (const name of (await listFileNames(directory)) ?? []) {
    if (name.endsWith(TEMPORARY_SUFFIX)) await removeLeftover(path.join(directory, name));
  }
}

async function removeLeftover(file: string): Promise<void> {
  try {
    await rm(file, { force: true });
  } catch (error) {
    throw asStoreFailure(error, `cannot remove the leftover '${file}'`);
  }
}

async function ensureDirectory(directory: string): Promise<void> {
  try {
    await mkdir(directory);
  } catch (error) {
    if (isAlreadyExisting(error)) return;
    throw error;
  }
  await syncDirectory(path.dirname(directory));
}

/** Removal from the trash is housekeeping: the next `open()` retries whatever is left. */
async function removeQuietly(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true }).catch(() => undefined);
}

function damaged(file: string, detail: string): AppError {
  return new AppError('STORE_DAMAGED', { params: { file, detail } });
}

function asStoreFailure(error: unknown, action: string): AppError {
  if (isAppError(error)) return error;
  return new AppError('STORE_FAILED', {
    params: { detail: `${action}: ${messageOf(error)}` },
    cause: error,
  });
}
