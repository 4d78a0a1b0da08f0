// A run admitted in one turn of the event loop begins in the next (docs/architecture.md
// "Decisions"): the start is answered first, a run stopped meanwhile never begins, and one
// paused meanwhile begins paused.
import { describe, expect, it } from 'vitest';
import type { ExecutionEvent } from './execution-events.js';
import {
  createTestManager,
  manualToConsole,
  testRegistry,
  tick,
  waitFor,
} from './testing/index.js';

/** The kinds of the events of one execution, in order. */
const kindsOf = (events: readonly ExecutionEvent[]): string[] =>
  events.map((event) => ('nodeId' in event ? `${event.kind} ${event.nodeId}` : event.kind));

/** A manager running `manualToConsole('a')`, with every event it sends. */
async function recordingManager() {
  const events: ExecutionEvent[] = [];
  const manager = await createTestManager([manualToConsole('a')], {
    events: (event) => events.push(event),
  });
  return { manager, events };
}

describe('a run begins on the turn after it was admitted', () => {
  it('answers the start RUNNING before any node has begun, then runs to its end', async () => {
    const { manager, events } = await recordingManager();
    const answer = await manager.start({ sessionId: 's', workflowId: 'a' });
    expect(answer.status).toBe('RUNNING');
    expect(kindsOf(events)).toEqual(['execution.started']);
    const entry = manager.require(answer.executionId);
    expect(entry.nodes.map((node) => node.status)).toEqual(['PENDING', 'PENDING']);
    await entry.finished;
    expect(entry.status).toBe('COMPLETED');
    expect(kindsOf(events)).toContain('node.completed out');
  });

  it('never begins a run stopped in the turn that admitted it', async () => {
    const { manager, events } = await recordingManager();
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'a' });
    manager.stop(executionId, 'changed my mind');
    const entry = manager.require(executionId);
    await entry.finished;
    expect(entry.status).toBe('STOPPED');
    // No node took a message: none reported RUNNING.
    expect(events.some((event) => event.kind === 'node.started')).toBe(false);
  });

  it('begins a run paused in the turn that admitted it paused, and goes on when resumed', async () => {
    const { manager } = await recordingManager();
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'a' });
    manager.control(executionId, 'PAUSE');
    const entry = manager.require(executionId);
    // Several turns later the terminal has still received nothing.
    await tick(20);
    expect(entry.status).toBe('PAUSED');
    expect(entry.nodes.find((node) => node.nodeId === 'out')?.messagesIn).toBe(0);
    manager.control(executionId, 'RESUME');
    await entry.finished;
    expect(entry.status).toBe('COMPLETED');
    await waitFor(
      () => entry.nodes.every((node) => node.status === 'COMPLETED'),
      'every node ended',
    );
  });

  it('begins the oldest at once when more than 64 wait to begin, so a loop of starts does not pile them up', async () => {
    const manager = await createTestManager([manualToConsole('a')], {
      registry: testRegistry(100),
    });
    const started: string[] = [];
    // Answered within one turn of the event loop: no start waits for anything but promises.
    for (let n = 0; n < 70; n++) {
      started.push((await manager.start({ sessionId: 's', workflowId: 'a' })).executionId);
    }
    const begun = started.map((id) =>
      manager.require(id).nodes.some((node) => node.status !== 'PENDING'),
    );
    expect(begun.slice(0, 6)).toEqual([true, true, true, true, true, true]);
    expect(begun.slice(6)).not.toContain(true);
    await Promise.all(started.map((id) => manager.require(id).finished));
  });
});
