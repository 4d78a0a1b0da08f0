// Dead letters (docs/dead-letters.md): messages a node with `onError: DEAD_LETTER` gave up on
// after its retries, kept with their error and attempts until redriven, deleted, or dropped
// with their execution's checkpoints. Memory, file and PostgreSQL adapters implement this port.
import type { FailedAttempt } from '../../engine/index.js';

export interface DeadLetter {
  readonly id: string;
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly nodeId: string;
  readonly nodeType: string;
  /** The id of the message as the node received it: the id a redrive replaces. */
  readonly messageId: string;
  readonly payload: unknown;
  readonly headers: Readonly<Record<string, unknown>>;
  /** The error of the last attempt. */
  readonly error: string;
  readonly attempts: readonly FailedAttempt[];
  /** ISO 8601, when the node gave the message up. */
  readonly createdAt: string;
  /** The execution a redrive started, once redriven. */
  readonly redrivenAs: string | null;
  readonly redrivenAt: string | null;
}

/** Which letters a list answers; `sessions` null reaches every session. */
export interface DeadLetterFilter {
  readonly sessionId?: string | undefined;
  readonly workflowId?: string | undefined;
  readonly nodeId?: string | undefined;
  readonly executionId?: string | undefined;
  readonly sessions?: readonly string[] | null | undefined;
}

/** Where a letter stands in the list order. */
export type LetterPosition = Pick<DeadLetter, 'createdAt' | 'id'>;

/**
 * One page, newest first; `after` is the position of the last letter of the page before, so
 * that paging goes on when that letter has been deleted meanwhile.
 */
export interface DeadLetterPageRequest {
  readonly limit: number;
  readonly after?: LetterPosition | undefined;
}

export interface DeadLetterStoreList {
  readonly letters: readonly DeadLetter[];
  /** Whether letters follow the page. */
  readonly more: boolean;
}

export interface DeadLetterStore {
  readonly kind: 'memory' | 'file' | 'postgres';
  /** Whether letters survive a restart of the server. */
  readonly durable: boolean;
  /** Letters held (`svc.dead-letters.stored`). */
  readonly size: number;
  /** Loads what a durable store holds. */
  open(): Promise<void>;
  close(): Promise<void>;
  /** Keeps a letter; resolves once it is durable for the store's kind. */
  add(letter: DeadLetter): Promise<void>;
  get(id: string): Promise<DeadLetter | undefined>;
  /** Newest first (by `createdAt`, then id, both descending). */
  list(filter: DeadLetterFilter, page: DeadLetterPageRequest): Promise<DeadLetterStoreList>;
  /** Marks a letter redriven as `executionId`; undefined when it is not held. */
  markRedriven(id: string, executionId: string, at: string): Promise<DeadLetter | undefined>;
  /** False when it was not held. */
  delete(id: string): Promise<boolean>;
  /** Forgets the letters of an execution whose checkpoints are dropped. */
  drop(executionId: string): Promise<void>;
}

/** Whether a letter passes a filter. */
export function matchesFilter(letter: DeadLetter, filter: DeadLetterFilter): boolean {
  const { sessionId, workflowId, nodeId, executionId, sessions } = filter;
  return (
    (sessionId === undefined || letter.sessionId === sessionId) &&
    (workflowId === undefined || letter.workflowId === workflowId) &&
    (nodeId === undefined || letter.nodeId === nodeId) &&
    (executionId === undefined || letter.executionId === executionId) &&
    (sessions === undefined || sessions === null || sessions.includes(letter.sessionId))
  );
}

/** The list order: newest first, ties by id descending, the same in every store. */
export function newestFirst(a: LetterPosition, b: LetterPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}
