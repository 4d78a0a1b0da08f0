import { describe, expect, it } from 'vitest';
import { AppError } from '../core/index.js';
import { testEntry } from './testing/index.js';
import {
  EXECUTION_STATUSES,
  EXECUTION_TRANSITIONS,
  canTransition,
  isExecutionStatus,
  isTerminalExecutionStatus,
} from './execution-states.js';
import type { ExecutionStatus } from './execution-states.js';

/** Every allowed change, written out once more: the table must say exactly this. */
const ALLOWED: readonly (readonly [ExecutionStatus, ExecutionStatus])[] = [
  ['QUEUED', 'RUNNING'],
  ['QUEUED', 'STOPPED'],
  ['QUEUED', 'TIMED_OUT'],
  ['RUNNING', 'PAUSED'],
  ['RUNNING', 'COMPLETED'],
  ['RUNNING', 'FAILED'],
  ['RUNNING', 'STOPPED'],
  ['RUNNING', 'TIMED_OUT'],
  ['PAUSED', 'RUNNING'],
  ['PAUSED', 'COMPLETED'],
  ['PAUSED', 'FAILED'],
  ['PAUSED', 'STOPPED'],
  ['PAUSED', 'TIMED_OUT'],
];

describe('Execution state machine (SPEC States and transitions, CONTRACT section 1)', () => {
  it('allows exactly the listed changes between the CONTRACT statuses', () => {
    for (const from of EXECUTION_STATUSES) {
      for (const to of EXECUTION_STATUSES) {
        const listed = ALLOWED.some(([a, b]) => a === from && b === to);
        expect(canTransition(from, to), `${from} -> ${to}`).toBe(listed);
      }
    }
  });

  it('lets a waiting start get a slot, time out in the queue or be stopped (SPEC start rows)', () => {
    expect(EXECUTION_TRANSITIONS.QUEUED).toEqual(['RUNNING', 'STOPPED', 'TIMED_OUT']);
  });

  it('ends a run from running or paused, and never leaves a terminal status (CONTRACT section 1)', () => {
    for (const status of EXECUTION_STATUSES) {
      const terminal = isTerminalExecutionStatus(status);
      expect(terminal).toBe(!['QUEUED', 'RUNNING', 'PAUSED'].includes(status));
      if (terminal) expect(EXECUTION_TRANSITIONS[status]).toEqual([]);
    }
  });

  it('never reaches ABORTED by a change: boot recovery creates the execution ABORTED', () => {
    for (const from of EXECUTION_STATUSES) expect(canTransition(from, 'ABORTED')).toBe(false);
    expect(testEntry('ABORTED').status).toBe('ABORTED');
  });

  it('starts a new execution QUEUED and changes its status along the table', () => {
    const entry = testEntry();
    expect(entry.status).toBe('QUEUED');
    entry.transition('RUNNING');
    entry.transition('PAUSED');
    entry.transition('RUNNING');
    entry.transition('COMPLETED');
    expect(entry.status).toBe('COMPLETED');
  });

  it('refuses an illegal change with the unexpected ILLEGAL_TRANSITION and keeps the status', () => {
    const entry = testEntry('COMPLETED');
    let thrown: unknown;
    try {
      entry.transition('RUNNING');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: 'ILLEGAL_TRANSITION',
      kind: 'unexpected',
      message: "Execution 'e1' cannot go from COMPLETED to RUNNING",
    });
    expect(entry.status).toBe('COMPLETED');
  });

  it('tells a status of the execution log from an unknown one', () => {
    expect(isExecutionStatus('TIMED_OUT')).toBe(true);
    expect(isExecutionStatus('DONE')).toBe(false);
  });
});
