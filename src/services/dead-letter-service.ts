// Dead letters (docs/dead-letters.md): keeping what nodes with `onError: DEAD_LETTER` gave up
// on, listing and reading letters, redriving one (a restart from its node on that message
// alone) and deleting one. The REST API, the tool endpoint and the CLI call these alike; a
// key limited to sessions sees the letters of its sessions only, others as missing.
import { AppError } from '../core/index.js';
import type { Clock, IdGenerator } from '../core/index.js';
import type { DeadLetterNotice } from '../engine/index.js';
import { isTerminalExecutionStatus } from '../executions/index.js';
import type { ExecutionEntry, StartAnswer } from '../executions/index.js';
import type { Meters } from '../observability/index.js';
import type { DeadLetter, DeadLetterStore, LetterPosition } from '../stores/index.js';
import type { ExecutionService } from './execution-service.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

export interface DeadLetterServiceDeps {
  readonly store: DeadLetterStore;
  /** Redrives go through its restart: audited, reviewed by supervisors, admitted like any. */
  readonly executions: ExecutionService;
  readonly meters: Meters;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** A letter the store could not keep; the run goes on regardless. */
  readonly keepFailed: (letter: DeadLetter, error: unknown) => void;
}

/** `GET /api/dead-letters`: filters and a page; `sessions` are those of the caller's key. */
export interface DeadLetterQuery {
  readonly sessionId?: string | undefined;
  readonly workflowId?: string | undefined;
  readonly nodeId?: string | undefined;
  readonly executionId?: string | undefined;
  readonly limit: number;
  readonly cursor?: string | undefined;
}

export interface DeadLetterPage {
  readonly items: readonly DeadLetter[];
  readonly nextCursor: string | null;
}

/** What a redrive answers: the new execution, and the letter marked with it. */
export interface RedriveAnswer extends StartAnswer {
  readonly letter: DeadLetter;
}

/** Sessions a key reaches; null reaches all. */
type Reach = readonly string[] | null;

function isPosition(value: unknown): value is LetterPosition {
  const position = value as Partial<LetterPosition> | null;
  return typeof position?.createdAt === 'string' && typeof position.id === 'string';
}

export class DeadLetterService {
  readonly #deps: DeadLetterServiceDeps;

  constructor(deps: DeadLetterServiceDeps) {
    this.#deps = deps;
    deps.meters.observe('svc.dead-letters.stored', () => deps.store.size);
  }

  /**
   * Keeps a message a node gave up on. Called from the run, which must not wait or fail for
   * it: a letter that cannot be stored is reported and the run goes on.
   */
  keep(entry: ExecutionEntry, notice: DeadLetterNotice): void {
    const { store, meters, clock, ids, keepFailed } = this.#deps;
    const { message } = notice;
    const letter: DeadLetter = {
      id: ids(),
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      nodeId: notice.nodeId,
      nodeType: notice.nodeType,
      messageId: message.id,
      payload: message.payload,
      headers: { ...message.headers },
      error: notice.error,
      attempts: notice.attempts,
      createdAt: new Date(clock.now()).toISOString(),
      redrivenAs: null,
      redrivenAt: null,
    };
    meters.count('svc.dead-letters', { node: notice.nodeId, workflow: entry.workflowId });
    store.add(letter).catch((error: unknown) => {
      keepFailed(letter, error);
    });
  }

  async list(query: DeadLetterQuery, sessions: Reach = null): Promise<DeadLetterPage> {
    const { limit, cursor, ...filter } = query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isPosition);
    const { letters, more } = await this.#deps.store.list(
      { ...filter, sessions },
      { limit, ...(after === undefined ? {} : { after }) },
    );
    const last = letters.at(-1);
    return {
      items: letters,
      nextCursor:
        more && last !== undefined
          ? encodeCursor({ createdAt: last.createdAt, id: last.id })
          : null,
    };
  }

  async get(id: string, sessions: Reach = null): Promise<DeadLetter> {
    const letter = await this.#deps.store.get(id);
    // A letter of a session the key does not reach is answered as missing, like executions.
    if (letter === undefined || (sessions !== null && !sessions.includes(letter.sessionId))) {
      throw new AppError('DEAD_LETTER_NOT_FOUND', { params: { id } });
    }
    return letter;
  }

  /**
   * Runs the letter's node, and what follows it, again on the letter's message alone: a
   * restart from the node whose input is that message, with `payload` in place of its own
   * when given. The run it came from must have ended, as a restart would stop it; the restart
   * refuses it where the checkpoints it needs were not kept. `payload` undefined: the
   * letter's own (JSON has no undefined, so no caller can mean it as a payload).
   */
  async redrive(
    id: string,
    payload: unknown,
    actor: string | null,
    sessions: Reach = null,
  ): Promise<RedriveAnswer> {
    const letter = await this.get(id, sessions);
    const { executions, store, clock } = this.#deps;
    // A restart stops a run still going: a redrive waits for the run to end instead.
    const { status } = executions.read(letter.executionId);
    if (!isTerminalExecutionStatus(status)) {
      throw new AppError('DEAD_LETTER_NOT_REDRIVABLE', {
        params: {
          id,
          detail: `execution '${letter.executionId}' is still ${status}; redrive it once it has ended`,
        },
      });
    }
    const answer = await executions.restart(
      letter.executionId,
      {
        kind: 'from',
        nodeId: letter.nodeId,
        inputs: [
          {
            messageId: letter.messageId,
            payload: payload === undefined ? letter.payload : payload,
          },
        ],
        only: true,
      },
      actor,
      sessions,
    );
    const marked = await store.markRedriven(
      id,
      answer.executionId,
      new Date(clock.now()).toISOString(),
    );
    return { ...answer, letter: marked ?? letter };
  }

  async delete(id: string, sessions: Reach = null): Promise<void> {
    await this.get(id, sessions);
    if (!(await this.#deps.store.delete(id))) {
      throw new AppError('DEAD_LETTER_NOT_FOUND', { params: { id } });
    }
  }
}
