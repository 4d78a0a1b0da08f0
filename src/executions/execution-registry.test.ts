import { describe, expect, it } from 'vitest';
import { ExecutionRegistry } from './execution-registry.js';
import type { ExecutionEntry } from './execution-registry.js';

function fill(
  registry: ExecutionRegistry,
  sessionId: string,
  count: number,
  ended = true,
  first = 0,
): void {
  for (let i = first; i < first + count; i++) {
    registry.create({
      executionId: `${sessionId}-${i}`,
      sessionId,
      workflowId: 'w',
      workflowVersion: 1,
      priority: 0,
      createdAt: 0,
      parentExecutionId: null,
      depth: 0,
      status: ended ? 'COMPLETED' : 'RUNNING',
    });
  }
}

/** A registry that holds the executions of two sessions at most. */
function boundToTwoSessions(): ExecutionRegistry {
  return new ExecutionRegistry({
    maxExecutions: 100,
    resultsPerExecution: 10,
    logsPerExecution: 10,
    maxSessions: 2,
  });
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

  it('drops the oldest ended execution first, also when it ended after newer ones', () => {
    const registry = new ExecutionRegistry({
      maxExecutions: 3,
      resultsPerExecution: 10,
      logsPerExecution: 10,
    });
    fill(registry, 'old', 1, false);
    fill(registry, 'new', 2);
    registry.get('old-0')?.transition('COMPLETED');
    fill(registry, 'next', 1);
    expect(registry.search({}).map((entry) => entry.executionId)).toEqual([
      'next-0',
      'new-1',
      'new-0',
    ]);
  });

  it('holds at most svc.tracker.max-sessions sessions, dropping the least recently started first', () => {
    const registry = boundToTwoSessions();
    fill(registry, 'a', 2);
    fill(registry, 'b', 2);
    fill(registry, 'c', 1);
    expect(registry.sessions).toBe(2);
    expect(registry.search({ sessionId: 'a' })).toEqual([]);
    expect(registry.search({ sessionId: 'c' })).toHaveLength(1);
  });

  it('keeps a session with a run still going and drops the next least recently started instead', () => {
    const registry = boundToTwoSessions();
    fill(registry, 'busy', 1, false);
    fill(registry, 'b', 2);
    fill(registry, 'c', 1);
    expect(registry.get('busy-0')).toBeDefined();
    expect(registry.search({ sessionId: 'b' })).toEqual([]);
    expect(registry.sessions).toBe(2);
    // Once its run ended, the busy session is the least recent one and goes first.
    registry.get('busy-0')?.transition('COMPLETED');
    fill(registry, 'd', 1);
    expect(registry.get('busy-0')).toBeUndefined();
    expect(registry.search({ sessionId: 'c' })).toHaveLength(1);
    expect(registry.sessions).toBe(2);
  });

  it('counts a session as recent from the last execution it started', () => {
    const registry = boundToTwoSessions();
    fill(registry, 'a', 1);
    fill(registry, 'b', 1);
    fill(registry, 'a', 1, true, 1);
    fill(registry, 'c', 1);
    expect(registry.search({ sessionId: 'b' })).toEqual([]);
    expect(registry.search({ sessionId: 'a' }).map((entry) => entry.executionId)).toEqual([
      'a-1',
      'a-0',
    ]);
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

describe('Result events retention (SPEC Events 5, svc.results.*)', () => {
  const message = { id: 'm', payload: 1, headers: { attempt: 1 } };

  it('keeps result events of at most svc.results.max-executions executions, least recently used dropped first', () => {
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 10,
      logsPerExecution: 10,
      resultExecutions: 2,
    });
    fill(registry, 'r', 3);
    const [a, b, c] = ['r-0', 'r-1', 'r-2'].map((id) => registry.get(id)!);
    registry.addResult(a!, 'out', message, 0);
    registry.addResult(b!, 'out', message, 0);
    registry.resultsOf(a!);
    registry.addResult(c!, 'out', message, 0);
    expect(registry.resultsOf(a!)).toHaveLength(1);
    expect(registry.resultsOf(b!)).toHaveLength(0);
    expect(registry.resultsOf(c!)).toHaveLength(1);
  });

  it('drops result events svc.results.ttl after their last use', () => {
    let now = 0;
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 10,
      logsPerExecution: 10,
      resultTtlMs: 3_600_000,
      now: () => now,
    });
    fill(registry, 't', 1);
    const entry = registry.get('t-0')!;
    registry.addResult(entry, 'out', message, 0);
    now = 3_000_000;
    expect(registry.resultsOf(entry)).toHaveLength(1);
    now = 3_000_000 + 3_600_001;
    expect(registry.resultsOf(entry)).toHaveLength(0);
  });

  it('says when results are no longer kept, and counts the time to live of restored ones from when they were stored', () => {
    const now = 10_000_000;
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 2,
      logsPerExecution: 10,
      resultTtlMs: 3_600_000,
      now: () => now,
    });
    fill(registry, 'k', 3);
    const trimmed = registry.get('k-0')!;
    const fresh = registry.get('k-1')!;
    const stale = registry.get('k-2')!;
    for (let i = 0; i < 3; i++) registry.addResult(trimmed, 'out', { ...message, payload: i }, now);
    expect(registry.notKept(trimmed)).toEqual({ results: true, logs: false });
    const stored = registry.outputsOf(trimmed);
    expect(stored.results.map((result) => result.payload)).toEqual([1, 2]);

    registry.restoreOutputs(fresh, stored, now - 1_000);
    expect(registry.resultsOf(fresh)).toHaveLength(2);
    expect(fresh.resultsNotKept).toBe(true);
    registry.restoreOutputs(stale, { ...stored, resultsNotKept: false }, now - 3_600_001);
    expect(registry.resultsOf(stale)).toEqual([]);
    expect(registry.notKept(stale).results).toBe(true);
  });

  it('keeps at most svc.results.max-per-execution result events per execution', () => {
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 3,
      logsPerExecution: 10,
    });
    fill(registry, 'p', 1);
    const entry = registry.get('p-0')!;
    for (let i = 0; i < 5; i++) registry.addResult(entry, 'out', { ...message, payload: i }, 0);
    expect(registry.resultsOf(entry).map((result) => result.payload)).toEqual([2, 3, 4]);
  });

  it('keeps at most the pending log line bound per execution, answering how many it dropped', () => {
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 3,
      logsPerExecution: 3,
    });
    fill(registry, 'l', 1);
    const entry = registry.get('l-0')!;
    const line = { nodeId: 'n', level: 'INFO' as const, message: 'm', fields: {} };
    const dropped = [1, 2, 3, 4, 5].map(() => registry.addLog(entry, line, 0).dropped);
    expect(dropped).toEqual([0, 0, 0, 1, 1]);
    expect(registry.logsOf(entry).map((kept) => kept.seq)).toEqual([3, 4, 5]);
  });

  it('drops log lines older than svc.logs.store.retention.default-period-minutes', () => {
    let now = Date.UTC(2026, 0, 1);
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 3,
      logsPerExecution: 100,
      logRetentionMs: 30 * 60_000,
      now: () => now,
    });
    fill(registry, 'r', 1);
    const entry = registry.get('r-0')!;
    const line = { nodeId: 'n', level: 'INFO' as const, message: 'm', fields: {} };
    registry.addLog(entry, line, now);
    now += 20 * 60_000;
    registry.addLog(entry, line, now);
    now += 11 * 60_000;
    expect(registry.logsOf(entry).map((kept) => kept.seq)).toEqual([2]);
    now += 20 * 60_000;
    expect(registry.addLog(entry, line, now).dropped).toBe(1);
    expect(registry.logsOf(entry).map((kept) => kept.seq)).toEqual([3]);
  });

  it('keeps a log line for the whole retention period and drops it 1 ms after (SPEC Log line losses)', () => {
    let now = Date.UTC(2026, 0, 1);
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 3,
      logsPerExecution: 100,
      logRetentionMs: 30 * 60_000,
      now: () => now,
    });
    fill(registry, 'b', 1);
    const entry = registry.get('b-0')!;
    const line = { nodeId: 'n', level: 'INFO' as const, message: 'm', fields: {} };
    registry.addLog(entry, line, now);
    now += 30 * 60_000;
    expect(registry.logsOf(entry).map((kept) => kept.seq)).toEqual([1]);
    now += 1;
    expect(registry.logsOf(entry)).toEqual([]);
  });
});

describe('Byte budgets of result events and log lines (docs/limits.md)', () => {
  // 1,000 characters of payload: 1,002 bytes as the budgets count a string.
  const message = (n: number) => ({
    id: `m${n}`,
    payload: String(n).padEnd(1000, 'x'),
    headers: { attempt: 1 },
  });

  function budgeted(limits: { resultBytes?: number; logBytes?: number }) {
    const drops: { history: string; entries: number }[] = [];
    const registry = new ExecutionRegistry({
      maxExecutions: 100,
      resultsPerExecution: 1000,
      logsPerExecution: 1000,
      ...limits,
      onBudgetDrop: (history, entries) => drops.push({ history, entries }),
    });
    fill(registry, 'b', 3);
    const entries = ['b-0', 'b-1', 'b-2'].map((id) => registry.get(id)!);
    return { registry, drops, entries };
  }

  it('drops the oldest results of the least recently used execution first and counts them (svc.results.max-bytes)', () => {
    const { registry, drops, entries } = budgeted({ resultBytes: 3_500 });
    const [a, b] = entries as [ExecutionEntry, ExecutionEntry];
    registry.addResult(a, 'out', message(1), 0);
    registry.addResult(a, 'out', message(2), 0);
    registry.addResult(b, 'out', message(3), 0);
    expect(drops).toEqual([]);
    registry.addResult(b, 'out', message(4), 0);
    expect(registry.resultsOf(a).map((result) => result.messageId)).toEqual(['m2']);
    expect(registry.resultsOf(b).map((result) => result.messageId)).toEqual(['m3', 'm4']);
    expect(drops).toEqual([{ history: 'results', entries: 1 }]);
    expect(registry.resultBytes).toBe(3 * 1002);
  });

  it('keeps SPEC count rules as they are: the byte budget only comes on top (SPEC Events 5)', () => {
    const { registry, entries } = budgeted({ resultBytes: 1_000_000 });
    const [a] = entries as [ExecutionEntry];
    for (let n = 0; n < 20; n++) registry.addResult(a, 'out', message(n), 0);
    expect(registry.resultsOf(a)).toHaveLength(20);
  });

  it('lets go of a result larger than the whole budget at once', () => {
    const { registry, drops, entries } = budgeted({ resultBytes: 500 });
    const [a] = entries as [ExecutionEntry];
    registry.addResult(a, 'out', message(1), 0);
    expect(registry.resultsOf(a)).toEqual([]);
    expect(registry.resultBytes).toBe(0);
    expect(drops).toEqual([{ history: 'results', entries: 1 }]);
  });

  it('no longer counts the bytes of results that count and time rules dropped', () => {
    let now = 0;
    const registry = new ExecutionRegistry({
      maxExecutions: 2,
      resultsPerExecution: 2,
      logsPerExecution: 10,
      resultExecutions: 5,
      resultTtlMs: 1000,
      resultBytes: 1_000_000,
      now: () => now,
    });
    fill(registry, 'c', 1);
    const entry = registry.get('c-0')!;
    for (let n = 0; n < 4; n++) registry.addResult(entry, 'out', message(n), 0);
    expect(registry.resultsOf(entry)).toHaveLength(2);
    expect(registry.resultBytes).toBe(2 * 1002);
    now = 2000;
    expect(registry.resultsOf(entry)).toEqual([]);
    expect(registry.resultBytes).toBe(0);
    registry.addResult(entry, 'out', message(9), now);
    fill(registry, 'd', 2);
    expect(registry.get('c-0')).toBeUndefined();
    expect(registry.resultBytes).toBe(0);
  });

  it('drops the oldest lines of the execution that logged least recently first and counts them (svc.logs.store.max-bytes)', () => {
    const { registry, drops, entries } = budgeted({ logBytes: 5_000 });
    const [a, b] = entries as [ExecutionEntry, ExecutionEntry];
    const line = { nodeId: 'n', level: 'INFO' as const, message: 'y'.repeat(1000), fields: {} };
    registry.addLog(a, line, 0);
    registry.addLog(a, line, 0);
    registry.addLog(b, line, 0);
    registry.addLog(b, line, 0);
    expect(drops).toEqual([]);
    registry.addLog(b, line, 0);
    expect(registry.logsOf(a).map((kept) => kept.seq)).toEqual([2]);
    expect(registry.logsOf(b).map((kept) => kept.seq)).toEqual([1, 2, 3]);
    expect(drops).toEqual([{ history: 'logs', entries: 1 }]);
    expect(registry.logBytes).toBeLessThanOrEqual(5_000);
  });

  it('answers a line the budget let go of at once, so the live stream still gets it', () => {
    const { registry, drops, entries } = budgeted({ logBytes: 0 });
    const [a] = entries as [ExecutionEntry];
    const line = { nodeId: 'n', level: 'WARN' as const, message: 'kept live', fields: {} };
    expect(registry.addLog(a, line, 0)).toMatchObject({
      line: { seq: 1, message: 'kept live' },
      dropped: 0,
    });
    expect(registry.logsOf(a)).toEqual([]);
    expect(drops).toEqual([{ history: 'logs', entries: 1 }]);
  });
});
