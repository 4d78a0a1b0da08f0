// Dead letters in the relational database (docs/dead-letters.md): one row per letter, the
// letter as JSON text beside the columns lists filter and order on.
import type pg from 'pg';
import { rowDamaged, storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';
import type {
  DeadLetter,
  DeadLetterFilter,
  DeadLetterPageRequest,
  DeadLetterStore,
  DeadLetterStoreList,
} from '../dead-letters/dead-letter-store.js';

interface LetterRow {
  readonly id: string;
  readonly letter: string;
}

export class PostgresDeadLetterStore implements DeadLetterStore {
  readonly kind = 'postgres';
  readonly durable = true;
  readonly #db: PostgresDatabase;
  readonly #table: string;
  /** Counted at `open()` and kept by this server's writes: the gauge reads it often. */
  #size = 0;

  constructor(db: PostgresDatabase) {
    this.#db = db;
    this.#table = db.table('dead_letters');
  }

  get size(): number {
    return this.#size;
  }

  async open(): Promise<void> {
    const counted = await this.#query<{ n: number }>(
      'count the dead letters',
      `SELECT count(*)::integer AS n FROM ${this.#table}`,
    );
    this.#size = counted[0]?.n ?? 0;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  async add(letter: DeadLetter): Promise<void> {
    const added = await this.#query<{ inserted: boolean }>(
      `cannot keep dead letter '${letter.id}'`,
      `INSERT INTO ${this.#table}
         (id, execution_id, session_id, workflow_id, node_id, created_at, letter)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET letter = EXCLUDED.letter
       RETURNING (xmax = 0) AS inserted`,
      [
        letter.id,
        letter.executionId,
        letter.sessionId,
        letter.workflowId,
        letter.nodeId,
        letter.createdAt,
        JSON.stringify(letter),
      ],
    );
    // xmax is 0 on a row this statement inserted; a letter written again is counted once.
    if (added[0]?.inserted === true) this.#size++;
  }

  async get(id: string): Promise<DeadLetter | undefined> {
    const rows = await this.#query<LetterRow>(
      `cannot read dead letter '${id}'`,
      `SELECT id, letter FROM ${this.#table} WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    return row === undefined ? undefined : letterOf(row);
  }

  async list(filter: DeadLetterFilter, page: DeadLetterPageRequest): Promise<DeadLetterStoreList> {
    const where: string[] = [];
    const values: unknown[] = [];
    const equal = (column: string, value: string | undefined): void => {
      if (value === undefined) return;
      values.push(value);
      where.push(`${column} = $${String(values.length)}`);
    };
    equal('session_id', filter.sessionId);
    equal('workflow_id', filter.workflowId);
    equal('node_id', filter.nodeId);
    equal('execution_id', filter.executionId);
    if (filter.sessions !== undefined && filter.sessions !== null) {
      values.push(filter.sessions);
      where.push(`session_id = ANY($${String(values.length)}::text[])`);
    }
    if (page.after !== undefined) {
      values.push(page.after.createdAt, page.after.id);
      where.push(`(created_at, id) < ($${String(values.length - 1)}, $${String(values.length)})`);
    }
    values.push(page.limit + 1);
    const rows = await this.#query<LetterRow>(
      'cannot list the dead letters',
      `SELECT id, letter FROM ${this.#table}
       ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
       ORDER BY created_at DESC, id DESC LIMIT $${String(values.length)}`,
      values,
    );
    return { letters: rows.slice(0, page.limit).map(letterOf), more: rows.length > page.limit };
  }

  async markRedriven(id: string, executionId: string, at: string): Promise<DeadLetter | undefined> {
    const letter = await this.get(id);
    if (letter === undefined) return undefined;
    const marked = { ...letter, redrivenAs: executionId, redrivenAt: at };
    await this.#query(
      `cannot mark dead letter '${id}' redriven`,
      `UPDATE ${this.#table} SET letter = $2 WHERE id = $1`,
      [id, JSON.stringify(marked)],
    );
    return marked;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.#query(
      `cannot delete dead letter '${id}'`,
      `DELETE FROM ${this.#table} WHERE id = $1 RETURNING id`,
      [id],
    );
    this.#size = Math.max(0, this.#size - rows.length);
    return rows.length > 0;
  }

  async drop(executionId: string): Promise<void> {
    const rows = await this.#query(
      `cannot drop the dead letters of execution '${executionId}'`,
      `DELETE FROM ${this.#table} WHERE execution_id = $1 RETURNING id`,
      [executionId],
    );
    this.#size = Math.max(0, this.#size - rows.length);
  }

  async #query<T extends object = object>(
    detail: string,
    text: string,
    values: unknown[] = [],
  ): Promise<T[]> {
    try {
      const result = await this.#db.pool.query<T & pg.QueryResultRow>(text, values);
      return result.rows;
    } catch (error) {
      throw storeFailure(detail, error);
    }
  }
}

function letterOf(row: LetterRow): DeadLetter {
  try {
    return JSON.parse(row.letter) as DeadLetter;
  } catch (error) {
    throw rowDamaged(`dead_letters '${row.id}'`, 'its letter is not JSON', error);
  }
}
