// Session store in the relational database (`svc.session.store-type=postgres`): a row per
// session, per workflow and per saved version. Every read goes to the database, and a write
// resolves once its transaction has committed.
import type pg from 'pg';
import { AppError, KeyedLock } from '../../core/index.js';
import type {
  SessionRecord,
  SessionStore,
  WorkflowLayout,
  WorkflowRecord,
  WorkflowVersionRecord,
} from '../../engine/index.js';
import {
  checkSessionRecord,
  checkVersionRecord,
  checkWorkflowLayout,
} from '../shared/check-record.js';
import { compareSessions, compareWorkflows } from '../shared/record-order.js';
import { VersionPool, deepFreeze } from '../shared/version-pool.js';
import { rowDamaged, storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';

// Type aliases, not interfaces: pg types a row as an object with an index signature.
type SessionRow = {
  readonly session_id: string;
  readonly name: string;
  readonly initiator: string;
  readonly description: string;
  readonly created_at: string;
  readonly updated_at: string;
};

type WorkflowRow = {
  readonly workflow_id: string;
  readonly workflow_created_at: string;
  readonly active: boolean;
  /** The layout as JSON text; null without one. */
  readonly layout: string | null;
  /** The columns of one version; null for a workflow without versions. */
  readonly version: number | null;
  readonly created_at: string | null;
  readonly author: string | null;
  readonly note: string | null;
  readonly definition: string | null;
};

/**
 * Changes to one session run one at a time in call order within this process, so the last of
 * concurrent writes wins and a write queued before a delete cannot land after it; a row lock
 * on the session orders them between processes. Saved versions are handed out deeply frozen,
 * each read parsing its own.
 */
export class PostgresSessionStore implements SessionStore {
  readonly kind = 'postgres';
  readonly #db: PostgresDatabase;
  readonly #lock = new KeyedLock();
  readonly #versions = new VersionPool();
  readonly #pending = new Set<Promise<unknown>>();
  readonly #sql: ReturnType<typeof statements>;
  #open = false;
  #closing = false;

  constructor(db: PostgresDatabase) {
    this.#db = db;
    this.#sql = statements(db);
  }

  /** Checks the tables answer; there is nothing to load. */
  async open(): Promise<void> {
    try {
      await this.#db.pool.query(this.#sql.probe);
    } catch (error) {
      throw storeFailure(`cannot open the session store in schema '${this.#db.schema}'`, error);
    }
    this.#open = true;
  }

  /** Waits for changes under way; `open()` may be called again. */
  async close(): Promise<void> {
    if (!this.#open) return;
    this.#closing = true;
    try {
      await Promise.allSettled([...this.#pending]);
    } finally {
      this.#open = false;
      this.#closing = false;
    }
  }

  async listSessions(): Promise<SessionRecord[]> {
    const rows = await this.#query<SessionRow>('cannot list sessions', this.#sql.listSessions, []);
    return rows.map(toSession).sort(compareSessions);
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    const action = `cannot read session '${sessionId}'`;
    const rows = await this.#query<SessionRow>(action, this.#sql.getSession, [sessionId]);
    const row = rows[0];
    return row === undefined ? undefined : toSession(row);
  }

  async putSession(session: SessionRecord): Promise<void> {
    // Checked and copied now, before the caller can change the record; through JSON, as the
    // file store does, so every adapter takes the same records.
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(session)) as unknown;
    } catch (error) {
      throw storeFailure('the session cannot be stored as JSON', error);
    }
    const checked = checkSessionRecord(copy);
    if (!checked.ok) {
      throw new AppError('STORE_FAILED', {
        params: { detail: `the session cannot be stored: ${checked.problem}` },
      });
    }
    const record = checked.value;
    const { sessionId } = record;
    await this.#change(sessionId, `cannot save session '${sessionId}'`, async () => {
      await this.#db.pool.query(this.#sql.putSession, [
        sessionId,
        record.name,
        record.initiator,
        record.description,
        record.createdAt,
        record.updatedAt,
      ]);
    });
  }

  deleteSession(sessionId: string): Promise<boolean> {
    return this.#change(sessionId, `cannot delete session '${sessionId}'`, async () => {
      const result = await this.#db.pool.query(this.#sql.deleteSession, [sessionId]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  async listWorkflows(sessionId: string): Promise<WorkflowRecord[]> {
    const action = `cannot list the workflows of session '${sessionId}'`;
    const rows = await this.#query<WorkflowRow>(action, this.#sql.listWorkflows, [sessionId]);
    return toWorkflows(sessionId, rows).sort(compareWorkflows);
  }

  async getWorkflow(sessionId: string, workflowId: string): Promise<WorkflowRecord | undefined> {
    const action = `cannot read workflow '${workflowId}' of session '${sessionId}'`;
    const rows = await this.#query<WorkflowRow>(action, this.#sql.getWorkflow, [
      sessionId,
      workflowId,
    ]);
    return toWorkflows(sessionId, rows)[0];
  }

  async putWorkflow(workflow: WorkflowRecord): Promise<void> {
    const record = this.#versions.ownWorkflow(workflow);
    const { sessionId, workflowId, versions } = record;
    const action = `cannot save workflow '${workflowId}' of session '${sessionId}'`;
    await this.#change(sessionId, action, () =>
      this.#db.transaction(async (client) => {
        const session = await client.query(this.#sql.lockSession, [sessionId]);
        if (session.rowCount === 0) {
          throw new AppError('STORE_FAILED', {
            params: { detail: `session '${sessionId}' does not exist` },
          });
        }
        await client.query(this.#sql.putWorkflow, [
          sessionId,
          workflowId,
          record.createdAt,
          record.active === true,
          record.layout === undefined ? null : JSON.stringify(record.layout),
        ]);
        const numbers = versions.map((version) => version.version);
        await client.query(this.#sql.dropOtherVersions, [sessionId, workflowId, numbers]);
        await client.query(this.#sql.putVersions, [
          sessionId,
          workflowId,
          numbers,
          versions.map((version) => version.createdAt),
          versions.map((version) => version.author),
          versions.map((version) => version.note),
          versions.map((version) => JSON.stringify(version.definition)),
        ]);
      }),
    );
  }

  deleteWorkflow(sessionId: string, workflowId: string): Promise<boolean> {
    const action = `cannot delete workflow '${workflowId}' of session '${sessionId}'`;
    return this.#change(sessionId, action, async () => {
      const result = await this.#db.pool.query(this.#sql.deleteWorkflow, [sessionId, workflowId]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  #unavailable(state: string): AppError {
    return new AppError('STORE_FAILED', {
      params: { detail: `the session store in schema '${this.#db.schema}' ${state}` },
    });
  }

  async #query<TRow extends pg.QueryResultRow>(
    action: string,
    text: string,
    values: readonly unknown[],
  ): Promise<TRow[]> {
    if (!this.#open) throw this.#unavailable('is not open');
    try {
      return (await this.#db.pool.query<TRow>(text, [...values])).rows;
    } catch (error) {
      throw storeFailure(action, error);
    }
  }

  /** Queues a change behind earlier changes of the same session; failures become STORE_FAILED. */
  #change<T>(sessionId: string, action: string, work: () => Promise<T>): Promise<T> {
    if (!this.#open) return Promise.reject(this.#unavailable('is not open'));
    if (this.#closing) return Promise.reject(this.#unavailable('is closing'));
    const result = this.#lock.run(sessionId, async () => {
      try {
        return await work();
      } catch (error) {
        throw storeFailure(action, error);
      }
    });
    this.#pending.add(result);
    const forget = (): void => {
      this.#pending.delete(result);
    };
    void result.then(forget, forget);
    return result;
  }
}

function statements(db: PostgresDatabase) {
  const sessions = db.table('sessions');
  const workflows = db.table('workflows');
  const versions = db.table('workflow_versions');
  const workflowColumns = `w.workflow_id, w.created_at AS workflow_created_at, w.active, w.layout,
    v.version,
    v.created_at, v.author, v.note, v.definition
    FROM ${workflows} w LEFT JOIN ${versions} v
      ON v.session_id = w.session_id AND v.workflow_id = w.workflow_id`;
  return {
    probe: `SELECT 1 FROM ${sessions} LIMIT 1`,
    listSessions: `SELECT * FROM ${sessions}`,
    getSession: `SELECT * FROM ${sessions} WHERE session_id = $1`,
    putSession: `INSERT INTO ${sessions}
        (session_id, name, initiator, description, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (session_id) DO UPDATE SET name = EXCLUDED.name,
        initiator = EXCLUDED.initiator, description = EXCLUDED.description,
        created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`,
    deleteSession: `DELETE FROM ${sessions} WHERE session_id = $1`,
    lockSession: `SELECT 1 FROM ${sessions} WHERE session_id = $1 FOR UPDATE`,
    listWorkflows: `SELECT ${workflowColumns}
      WHERE w.session_id = $1 ORDER BY w.workflow_id, v.version`,
    getWorkflow: `SELECT ${workflowColumns}
      WHERE w.session_id = $1 AND w.workflow_id = $2 ORDER BY v.version`,
    putWorkflow: `INSERT INTO ${workflows} (session_id, workflow_id, created_at, active, layout)
      VALUES ($1, $2, $3, $4, $5)
      ON CONFLICT (session_id, workflow_id) DO UPDATE SET created_at = EXCLUDED.created_at,
        active = EXCLUDED.active, layout = EXCLUDED.layout`,
    dropOtherVersions: `DELETE FROM ${versions}
      WHERE session_id = $1 AND workflow_id = $2 AND NOT (version = ANY ($3::integer[]))`,
    // Saved versions never change, so a save rewrites only the rows that differ: usually the
    // one new version.
    putVersions: `INSERT INTO ${versions}
        (session_id, workflow_id, version, created_at, author, note, definition)
      SELECT $1, $2, v.version, v.created_at, v.author, v.note, v.definition
        FROM unnest($3::integer[], $4::text[], $5::text[], $6::text[], $7::text[])
          AS v (version, created_at, author, note, definition)
      ON CONFLICT (session_id, workflow_id, version) DO UPDATE SET
        created_at = EXCLUDED.created_at, author = EXCLUDED.author, note = EXCLUDED.note,
        definition = EXCLUDED.definition
      WHERE (${versions}.created_at, ${versions}.author, ${versions}.note, ${versions}.definition)
        IS DISTINCT FROM
        (EXCLUDED.created_at, EXCLUDED.author, EXCLUDED.note, EXCLUDED.definition)`,
    deleteWorkflow: `DELETE FROM ${workflows} WHERE session_id = $1 AND workflow_id = $2`,
  };
}

function toSession(row: SessionRow): SessionRecord {
  return {
    sessionId: row.session_id,
    name: row.name,
    initiator: row.initiator,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Rows ordered by workflow, then version, become workflow records with frozen versions. */
function toWorkflows(sessionId: string, rows: readonly WorkflowRow[]): WorkflowRecord[] {
  const workflows: { record: WorkflowRecord; versions: WorkflowVersionRecord[] }[] = [];
  let current: (typeof workflows)[number] | undefined;
  for (const row of rows) {
    if (current?.record.workflowId !== row.workflow_id) {
      const versions: WorkflowVersionRecord[] = [];
      current = {
        record: {
          sessionId,
          workflowId: row.workflow_id,
          createdAt: row.workflow_created_at,
          versions,
          ...(row.active ? { active: true } : {}),
          ...(row.layout === null ? {} : { layout: toLayout(sessionId, row) }),
        },
        versions,
      };
      workflows.push(current);
    }
    if (row.version !== null) current.versions.push(toVersion(sessionId, row));
  }
  return workflows.map((workflow) => workflow.record);
}

function toLayout(sessionId: string, row: WorkflowRow): WorkflowLayout {
  const where = `of table workflows (session '${sessionId}', workflow '${row.workflow_id}')`;
  let layout: unknown;
  try {
    layout = JSON.parse(row.layout ?? '') as unknown;
  } catch (error) {
    throw rowDamaged(where, 'the layout is not valid JSON', error);
  }
  const checked = checkWorkflowLayout(layout);
  if (!checked.ok) throw rowDamaged(where, checked.problem);
  deepFreeze(checked.value);
  return checked.value;
}

function toVersion(sessionId: string, row: WorkflowRow): WorkflowVersionRecord {
  const where = `of table workflow_versions (session '${sessionId}', workflow '${row.workflow_id}', version ${String(row.version)})`;
  let definition: unknown;
  try {
    definition = JSON.parse(row.definition ?? '') as unknown;
  } catch (error) {
    throw rowDamaged(where, 'the definition is not valid JSON', error);
  }
  const checked = checkVersionRecord({
    version: row.version,
    createdAt: row.created_at,
    author: row.author,
    note: row.note,
    definition,
  });
  if (!checked.ok) throw rowDamaged(where, checked.problem);
  deepFreeze(checked.value);
  return checked.value;
}
