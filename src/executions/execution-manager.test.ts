import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { ManualScheduler } from '../engine/index.js';
import { RecordingTracer } from '../observability/index.js';
import { createTestManager, manualToConsole, testRegistry, waitFor } from './testing/index.js';

const flow = manualToConsole;

describe('ExecutionManager: prepared workflows (SPEC Limits, workflow.cache.ttl.ms)', () => {
  it('prepares a workflow version once and drops it after the cache TTL unused', async () => {
    const clock = new ManualClock();
    const manager = await createTestManager([flow('a'), flow('b')], { clock });
    await manager.start({ sessionId: 's', workflowId: 'a' });
    await manager.start({ sessionId: 's', workflowId: 'a' });
    expect(manager.cachedPlans).toBe(1);
    clock.advance(600_001);
    await manager.start({ sessionId: 's', workflowId: 'b' });
    expect(manager.cachedPlans).toBe(1);
    await manager.stopAll('done');
  });
});

describe('ExecutionManager: spans (SPEC Tracing)', () => {
  it('records one svc.run span per execution, parent of one svc.node span per node attempt', async () => {
    const tracer = new RecordingTracer();
    const manager = await createTestManager([flow('a')], { tracer });
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'a' });
    const entry = manager.require(executionId);
    await entry.finished;
    const run = tracer.observations.find((observation) => observation.name === 'svc.run');
    expect(run).toMatchObject({
      parentId: null,
      traceId: entry.traceId,
      tags: { executionId, status: 'COMPLETED' },
    });
    const nodes = tracer.observations.filter((observation) => observation.name === 'svc.node');
    // In the order they ended: the terminal's attempt before the trigger's stream.
    const byNode = nodes.sort((a, b) => (a.tags.nodeId ?? '').localeCompare(b.tags.nodeId ?? ''));
    expect(byNode.map((node) => [node.parentId, node.tags])).toEqual([
      [run?.id, { nodeId: 'in', module: 'MANUAL', attempt: '1', status: 'COMPLETED' }],
      [run?.id, { nodeId: 'out', module: 'CONSOLE_TERMINAL', attempt: '1', status: 'COMPLETED' }],
    ]);
  });

  it('puts a sub-workflow run in its parent run’s trace, under the parent run’s span', async () => {
    const tracer = new RecordingTracer();
    const outer = {
      workflowId: 'outer',
      description: 'runs inner',
      nodes: [
        { nodeId: 'in', type: 'MANUAL' },
        { nodeId: 'call', type: 'SUB_WORKFLOW', config: { workflowId: 'inner' } },
        { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'call' },
        { source: 'call', target: 'out' },
      ],
    };
    const manager = await createTestManager([flow('inner'), outer], { tracer });
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'outer' });
    const entry = manager.require(executionId);
    await entry.finished;
    expect(entry.status).toBe('COMPLETED');
    const runs = tracer.observations.filter((observation) => observation.name === 'svc.run');
    const parent = runs.find((run) => run.tags.executionId === executionId);
    const child = runs.find((run) => run.tags.workflowId === 'inner');
    expect(child).toMatchObject({ traceId: entry.traceId, parentId: parent?.id });
  });

  it('makes no span and gives no trace id without a tracer', async () => {
    const manager = await createTestManager([flow('a')]);
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'a' });
    const entry = manager.require(executionId);
    await entry.finished;
    expect(entry.traceId).toBeUndefined();
  });
});

const slowFlow = {
  workflowId: 'slow',
  description: 'waits a minute between its trigger and its terminal',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 60_000 } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

const askFlow = {
  workflowId: 'ask',
  description: 'waits for an approval',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'ask', type: 'WAIT_FOR_SIGNAL', config: { prompt: 'ok?' } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'ask' },
    { source: 'ask', target: 'out', sourcePort: 'approved' },
  ],
};

/** A manager whose every run timer is armed on a manual scheduler, so that it can be counted. */
async function managerWithManualTimers() {
  const clock = new ManualClock();
  const scheduler = new ManualScheduler(clock);
  const registry = testRegistry();
  const manager = await createTestManager([flow('a'), slowFlow, askFlow], {
    registry,
    clock,
    runDeadlineMs: 3_600_000,
    timers: scheduler,
  });
  return { manager, scheduler, registry };
}

describe('ExecutionManager: live state of ended executions (SPEC Limits, in-memory bounds)', () => {
  it('releases the live run and every timer of a run as soon as it completes, and keeps its record in the history (SPEC Limits: live state of ended executions)', async () => {
    const { manager, scheduler, registry } = await managerWithManualTimers();
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'slow' });
    const entry = manager.require(executionId);
    // The run deadline and the delay are armed while the run goes.
    await waitFor(() => scheduler.pending === 2, 'the delay to be armed');
    expect(manager.running).toBe(1);
    scheduler.advance(60_000);
    await entry.finished;
    expect(entry.status).toBe('COMPLETED');
    // Nothing of the run is left: no live run, no timer (the run deadline is cancelled).
    expect(manager.running).toBe(0);
    expect(scheduler.pending).toBe(0);
    expect(manager.breakpoints(executionId)).toEqual([]);
    // The record stays in the history of the newest executions.
    expect(registry.get(executionId)?.status).toBe('COMPLETED');
  });

  it('releases the live run, its timers and its pending approvals as soon as a run is stopped, not svc.tracker.cleanup-ttl later (SPEC Limits: live state of ended executions)', async () => {
    const { manager, scheduler, registry } = await managerWithManualTimers();
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'ask' });
    const entry = manager.require(executionId);
    await waitFor(() => manager.approvalsOf(executionId).length === 1, 'the approval');
    expect(manager.running).toBe(1);
    expect(scheduler.pending).toBeGreaterThanOrEqual(2);
    manager.stop(executionId);
    await entry.finished;
    expect(entry.status).toBe('STOPPED');
    expect(manager.running).toBe(0);
    expect(scheduler.pending).toBe(0);
    expect(manager.approvalsOf(executionId)).toEqual([]);
    expect(registry.get(executionId)?.status).toBe('STOPPED');
  });

  it('holds live state only for the runs still going: one ended run among two leaves one live run (SPEC Limits: live state of ended executions)', async () => {
    const { manager, scheduler } = await managerWithManualTimers();
    const going = await manager.start({ sessionId: 's', workflowId: 'slow' });
    const quick = await manager.start({ sessionId: 's', workflowId: 'a' });
    await manager.require(quick.executionId).finished;
    expect(manager.running).toBe(1);
    // The run still going keeps its run deadline and its delay; the ended one keeps nothing.
    await waitFor(() => scheduler.pending === 2, 'the delay to be armed');
    manager.stop(going.executionId);
    await manager.require(going.executionId).finished;
    expect(manager.running).toBe(0);
    expect(scheduler.pending).toBe(0);
  });
});

describe('ExecutionManager: idempotency keys (SPEC Limits: idempotency keys)', () => {
  it('answers a repeated key with the first execution for 10 minutes by default, and starts a new run with it after the window (SPEC Limits: idempotency keys)', async () => {
    const { manager, scheduler, registry } = await managerWithManualTimers();
    const first = await manager.start({ sessionId: 's', workflowId: 'a' }, { idempotencyKey: 'k' });
    scheduler.advance(599_999);
    const repeat = await manager.start(
      { sessionId: 's', workflowId: 'a' },
      { idempotencyKey: 'k' },
    );
    expect(repeat.executionId).toBe(first.executionId);
    expect(registry.search({ workflowId: 'a' })).toHaveLength(1);
    scheduler.advance(1);
    const after = await manager.start({ sessionId: 's', workflowId: 'a' }, { idempotencyKey: 'k' });
    expect(after.executionId).not.toBe(first.executionId);
    expect(registry.search({ workflowId: 'a' })).toHaveLength(2);
    await manager.stopAll('done');
  });

  it('keeps at most svc.start.idempotency-max-keys keys: a key dropped for room starts a new run (SPEC Limits: idempotency keys)', async () => {
    const registry = testRegistry();
    const manager = await createTestManager([flow('a')], {
      registry,
      idempotency: { maxKeys: 2, ttlMs: 600_000 },
    });
    const request = { sessionId: 's', workflowId: 'a' };
    const a = await manager.start(request, { idempotencyKey: 'a' });
    const b = await manager.start(request, { idempotencyKey: 'b' });
    await manager.start(request, { idempotencyKey: 'c' });
    expect((await manager.start(request, { idempotencyKey: 'b' })).executionId).toBe(b.executionId);
    const again = await manager.start(request, { idempotencyKey: 'a' });
    expect(again.executionId).not.toBe(a.executionId);
    expect(registry.search({ workflowId: 'a' })).toHaveLength(4);
    await manager.stopAll('done');
  });
});
