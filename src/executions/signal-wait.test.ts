// WAIT_FOR_SIGNAL on the executions layer, with time moved by hand: the default signal wait
// when a node sets no timeoutSeconds (SPEC Node-level engine settings, Limits), and what a
// pending approval holds (SPEC Events 9).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { ManualScheduler } from '../engine/index.js';
import type { ExecutionEvent } from './execution-events.js';
import { createTestManager, tick, waitFor } from './testing/index.js';

const HOUR_MS = 3_600_000;

const approvalFlow = {
  workflowId: 'approve',
  description: 'asks a human, with the default signal wait',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'ask', type: 'WAIT_FOR_SIGNAL', config: { prompt: 'Ship it?' } },
    { nodeId: 'yes', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'ask' },
    { source: 'ask', target: 'yes', sourcePort: 'approved' },
  ],
};

async function managerWithManualTime() {
  const clock = new ManualClock();
  const scheduler = new ManualScheduler(clock);
  const events: ExecutionEvent[] = [];
  const manager = await createTestManager([approvalFlow], {
    clock,
    // Longer than the signal wait, so only the wait can end the run.
    runDeadlineMs: 2 * HOUR_MS,
    timers: scheduler,
    events: (event) => events.push(event),
  });
  return { manager, scheduler, events };
}

describe('WAIT_FOR_SIGNAL: the signal wait and pending approvals (SPEC Node-level engine settings, Limits, Events 9)', () => {
  it('ends the wait TIMED_OUT after 3600 s, not a millisecond before, when the node sets no timeoutSeconds (SPEC Limits)', async () => {
    const { manager, scheduler, events } = await managerWithManualTime();
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'approve' });
    const entry = manager.require(executionId);
    const ask = () => entry.nodes.find((node) => node.nodeId === 'ask');
    const timedOut = () => events.filter((event) => event.kind === 'approval.timed_out');
    await waitFor(() => manager.approvalsOf(executionId).length === 1, 'the approval');

    // 3599.999 s: the wait is still on.
    scheduler.advance(HOUR_MS - 1);
    await tick(20);
    expect(ask()?.status).toBe('WAITING');
    expect(entry.status).toBe('RUNNING');
    expect(manager.approvalsOf(executionId)).toHaveLength(1);
    expect(timedOut()).toEqual([]);

    scheduler.advance(1);
    await entry.finished;
    expect(ask()?.status).toBe('TIMED_OUT');
    expect(entry.status).toBe('FAILED');
    expect(manager.approvalsOf(executionId)).toEqual([]);
    // Only the signal wait's own timer reports a timed-out approval: the engine's idle timeout
    // (the same 3600 s, the type's declared default) would cancel the wait without one.
    expect(timedOut()).toMatchObject([{ nodeId: 'ask', executionId }]);
  });

  it('lists a pending approval with its own fields only, not the record of its execution (SPEC Events 9)', async () => {
    const { manager } = await managerWithManualTime();
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'approve' });
    await waitFor(() => manager.approvalsOf(executionId).length === 1, 'the approval');
    const [approval] = manager.approvalsOf(executionId);
    expect(Object.keys(approval ?? {}).sort()).toEqual([
      'executionId',
      'messageId',
      'nodeId',
      'payload',
      'prompt',
      'requestedAt',
      'sessionId',
      'workflowId',
    ]);
    expect(approval).toMatchObject({ executionId, sessionId: 's', workflowId: 'approve' });
    expect(manager.approvalsOfSession('s')).toEqual([approval]);
    await manager.stopAll('done');
  });
});
