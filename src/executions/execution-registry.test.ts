import { describe, expect, it } from 'vitest';
import { ExecutionRegistry } from './execution-registry.js';

function fill(registry: ExecutionRegistry, sessionId: string, count: number, ended = true): void {
  for (let i = 0; i < count; i++) {
    const entry = registry.create({
      executionId: `${sessionId}-${i}`,
      sessionId,
      workflowId: 'w',
      workflowVersion: 1,
      priority: 0,
      createdAt: 0,
      parentExecutionId: null,
      depth: 0,
    });
    if (ended) entry.status = 'COMPLETED';
  }
}

describe('ExecutionRegistry bounds (SPEC Limits, in-memory bounds)', () => {
  it('keeps the newest executions and drops the oldest ended ones beyond the limit', () => {
    const registry = new ExecutionRegistry({
      maxExecutions: 3,
      resultsPerExecution: 10,
      logsPerExecution: 10,
    });
    fill(registry, 's', 5);
    expect(registry.search({}).map((entry) => entry.executionId)).toEqual(['s-4', 's-3', 's-2']);
  });

  it('never drops a running execution to make room', () => {
    const registry = new ExecutionRegistry({
      maxExecutions: 2,
      resultsPerExecution: 10,
      logsPerExecution: 10,
    });
    fill(registry, 'busy', 2, false);
    fill(registry, 'done', 2);
    expect(registry.get('busy-0')).toBeDefined();
    expect(registry.get('busy-1')).toBeDefined();
  });

  it('holds at most svc.tracker.max-sessions sessions, dropping the least recently started first', () => {
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 10,
      logsPerExecution: 10,
      maxSessions: 2,
    });
    fill(registry, 'a', 2);
    fill(registry, 'b', 2);
    fill(registry, 'c', 1);
    expect(registry.sessions).toBe(2);
    expect(registry.search({ sessionId: 'a' })).toEqual([]);
    expect(registry.search({ sessionId: 'c' })).toHaveLength(1);
  });

  it('holds every session when svc.tracker.max-sessions is off', () => {
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 10,
      logsPerExecution: 10,
    });
    for (const session of ['a', 'b', 'c', 'd']) fill(registry, session, 1);
    expect(registry.sessions).toBe(4);
  });
});
