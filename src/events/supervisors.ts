// Supervisors (SPEC Events 7-8, CONTRACT section 5): a `review` supervisor refuses any control
// command that matches every field of one of its deny entries; the refusal is audited.
import type { SupervisorEntry } from '../config/index.js';

export interface ReviewedCommand {
  readonly command: string;
  readonly actor: string | null;
  readonly sessionId: string | null;
  readonly nodeId: string | null;
}

export interface SupervisorView {
  readonly id: string;
  readonly type: 'review' | 'rule';
  readonly state: 'ACTIVE';
  readonly reviewed: number;
  readonly refused: number;
}

interface Counters {
  reviewed: number;
  refused: number;
}

export class Supervisors {
  readonly #entries: readonly SupervisorEntry[];
  readonly #counters = new Map<string, Counters>();

  constructor(entries: readonly SupervisorEntry[]) {
    this.#entries = entries;
    for (const entry of entries) this.#counters.set(entry.id, { reviewed: 0, refused: 0 });
  }

  /** The id of the first supervisor that refuses the command, or null when none does. */
  review(command: ReviewedCommand): string | null {
    for (const entry of this.#entries) {
      if (entry.type !== 'review') continue;
      const counters = this.#counters.get(entry.id);
      if (counters) counters.reviewed++;
      const denied = entry.deny.some(
        (rule) =>
          (rule.command === null || rule.command.toUpperCase() === command.command.toUpperCase()) &&
          (rule.actor === null || rule.actor === command.actor) &&
          (rule.sessionId === null || rule.sessionId === command.sessionId) &&
          (rule.nodeId === null || rule.nodeId === command.nodeId),
      );
      if (denied) {
        if (counters) counters.refused++;
        return entry.id;
      }
    }
    return null;
  }

  list(): SupervisorView[] {
    return this.#entries.map((entry) => {
      const counters = this.#counters.get(entry.id) ?? { reviewed: 0, refused: 0 };
      return { id: entry.id, type: entry.type, state: 'ACTIVE', ...counters };
    });
  }
}
