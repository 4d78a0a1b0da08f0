// The audit of control commands (SPEC Events 8, CONTRACT section 3): every command, applied or
// refused, with its actor. Reads and starts are not audited. Kept in memory, newest last.
import type { Clock, IdGenerator } from '../core/index.js';

export type AuditOutcome = 'APPLIED' | 'REFUSED';

/** CONTRACT section 3: control audit entry. */
export interface AuditEntry {
  readonly id: string;
  readonly timestamp: string;
  readonly executionId: string | null;
  readonly nodeId: string | null;
  readonly command: string;
  readonly outcome: AuditOutcome;
  readonly reason: string | null;
  readonly actor: string | null;
  /** What the command changed beyond its target (a restart's edited inputs or version). */
  readonly detail?: string;
}

export interface AuditRecord {
  readonly executionId?: string | null;
  readonly nodeId?: string | null;
  readonly command: string;
  readonly outcome: AuditOutcome;
  readonly reason?: string | null;
  readonly actor: string | null;
  readonly detail?: string | null | undefined;
}

export interface AuditQuery {
  /** 1 to 500 (SPEC Limits: audit list `limit`). */
  readonly limit: number;
  readonly executionId?: string | undefined;
}

export class AuditLog {
  readonly #entries: AuditEntry[] = [];
  readonly #capacity: number;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;
  readonly #onRecord: ((entry: AuditEntry) => void) | undefined;

  constructor(options: {
    capacity: number;
    clock: Clock;
    ids: IdGenerator;
    /** Also called with every entry: the execution log records control commands. */
    onRecord?: (entry: AuditEntry) => void;
  }) {
    this.#capacity = options.capacity;
    this.#clock = options.clock;
    this.#ids = options.ids;
    this.#onRecord = options.onRecord;
  }

  record(record: AuditRecord): AuditEntry {
    const entry: AuditEntry = {
      id: this.#ids(),
      timestamp: new Date(this.#clock.now()).toISOString(),
      executionId: record.executionId ?? null,
      nodeId: record.nodeId ?? null,
      command: record.command,
      outcome: record.outcome,
      reason: record.reason ?? null,
      actor: record.actor,
      // Only where there is one: every other entry keeps the CONTRACT's fields alone.
      ...(record.detail == null ? {} : { detail: record.detail }),
    };
    this.#entries.push(entry);
    if (this.#entries.length > this.#capacity) this.#entries.shift();
    this.#onRecord?.(entry);
    return entry;
  }

  /**
   * Puts back entries recorded before a restart (the execution log keeps them), oldest first,
   * before any new one; they are not recorded again. What is not an audit entry is skipped.
   */
  restore(entries: readonly unknown[]): void {
    // An entry recorded since the boot (an automatic resume) is in the log already.
    const present = new Set(this.#entries.map((entry) => entry.id));
    const restored = entries.filter(
      (entry): entry is AuditEntry => isAuditEntry(entry) && !present.has(entry.id),
    );
    this.#entries.unshift(...restored.slice(-this.#capacity));
    if (this.#entries.length > this.#capacity) {
      this.#entries.splice(0, this.#entries.length - this.#capacity);
    }
  }

  /** Newest first. */
  list(query: AuditQuery): AuditEntry[] {
    const found: AuditEntry[] = [];
    for (let index = this.#entries.length - 1; index >= 0 && found.length < query.limit; index--) {
      const entry = this.#entries[index];
      if (entry === undefined) continue;
      if (query.executionId !== undefined && entry.executionId !== query.executionId) continue;
      found.push(entry);
    }
    return found;
  }
}

const nullableString = (value: unknown): boolean => value === null || typeof value === 'string';

/** An entry as `record` made it, read back from the execution log. */
export function isAuditEntry(value: unknown): value is AuditEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.id === 'string' &&
    typeof entry.timestamp === 'string' &&
    typeof entry.command === 'string' &&
    (entry.outcome === 'APPLIED' || entry.outcome === 'REFUSED') &&
    nullableString(entry.executionId) &&
    nullableString(entry.nodeId) &&
    nullableString(entry.reason) &&
    nullableString(entry.actor)
  );
}
