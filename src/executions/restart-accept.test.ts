// SPEC Restart rule 6 on the executions layer: a restart of a run still going stops it and
// admits the new run only once the original has ended, waiting at most `restartAcceptMs`
// (30 s unless set); an original that outlasts the wait refuses the restart.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../core/index.js';
import type { ExecutionEvent } from './execution-events.js';
import type { ExecutionManager } from './execution-manager.js';
import type { StartAnswer } from './launch.js';
import { createTestManager, testRegistry, tick } from './testing/index.js';

/** Still going a minute after its start, unless stopped. */
const slow = {
  workflowId: 'slow',
  description: '',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 60_000 } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

/**
 * Runs `act` while every `setImmediate` callback it schedules is held back. A stopped run ends
 * its nodes on the next turn of the event loop; holding that turn is how an original run is
 * made to outlast the restart's wait without depending on how busy the machine is.
 */
function holdingImmediates<T>(act: () => T): { value: T; held: number; release: () => void } {
  const held: (() => void)[] = [];
  const spy = vi.spyOn(globalThis, 'setImmediate').mockImplementation((callback: () => void) => {
    held.push(callback);
    // The engine never clears this immediate, so no handle is needed; the spy's type, from
    // @types/node's setImmediate, asks for one all the same.
    return undefined as unknown as NodeJS.Immediate;
  });
  let value: T;
  try {
    value = act();
  } finally {
    spy.mockRestore();
  }
  return {
    value,
    held: held.length,
    release: () => {
      for (const callback of held.splice(0)) callback();
    },
  };
}

/** The settled outcome of a restart, readable while it is still pending. */
function track(restart: Promise<StartAnswer>): {
  readonly outcome: () => StartAnswer | Error | undefined;
  readonly settled: Promise<StartAnswer | Error>;
} {
  let outcome: StartAnswer | Error | undefined;
  const settled = restart.then(
    (answer) => (outcome = answer),
    (error: unknown) => (outcome = error instanceof Error ? error : new Error(String(error))),
  );
  return { outcome: () => outcome, settled };
}

describe('ExecutionManager: a restart waits for the new run to be accepted (SPEC Restart rules 6)', () => {
  const managers: ExecutionManager[] = [];
  const releases: (() => void)[] = [];

  afterEach(async () => {
    vi.useRealTimers();
    for (const release of releases.splice(0)) release();
    for (const manager of managers.splice(0)) await manager.stopAll('done');
  });

  async function harness(restartAcceptMs?: number) {
    const events: ExecutionEvent[] = [];
    const registry = testRegistry(100);
    const manager = await createTestManager([slow], {
      registry,
      clock: systemClock,
      runDeadlineMs: 600_000,
      events: (event) => events.push(event),
      ...(restartAcceptMs === undefined ? {} : { restartAcceptMs }),
    });
    managers.push(manager);
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'slow' });
    expect(manager.require(executionId).status).toBe('RUNNING');
    /** Run events as `[kind, executionId]`, in the order they were sent. */
    const runEvents = () =>
      events
        .filter((event) => event.kind.startsWith('execution.'))
        .map((event) => [event.kind, event.executionId]);
    return { manager, registry, original: executionId, runEvents };
  }

  it('stops a running original and admits the new run only after the original has ended (SPEC Restart rules 6)', async () => {
    const { manager, registry, original, runEvents } = await harness(10_000);
    const hold = holdingImmediates(() => track(manager.restart(original, { kind: 'whole' })));
    releases.push(hold.release);
    expect(hold.held).toBe(1);
    const restart = hold.value;
    // The original is told to stop but has not ended: the restart waits and admits nothing.
    // A restart that did not wait would have answered within these turns of the event loop.
    await tick(3);
    expect(restart.outcome()).toBeUndefined();
    expect(manager.require(original).status).toBe('RUNNING');
    expect(registry.search({}).map((entry) => entry.executionId)).toEqual([original]);

    hold.release();
    const answer = await restart.settled;
    expect(answer).toMatchObject({ status: 'RUNNING' });
    const { executionId } = answer as StartAnswer;
    expect(executionId).not.toBe(original);
    expect(manager.require(original).status).toBe('STOPPED');
    expect(manager.require(executionId).restartOf).toBe(original);
    expect(runEvents()).toEqual([
      ['execution.started', original],
      ['execution.stopped', original],
      ['execution.started', executionId],
    ]);
  });

  it('refuses the restart with RESTART_NOT_ACCEPTED when the original does not end within restartAcceptMs (SPEC Restart rules 6)', async () => {
    const { manager, registry, original, runEvents } = await harness(100);
    const hold = holdingImmediates(() => track(manager.restart(original, { kind: 'whole' })));
    releases.push(hold.release);
    const refused = await hold.value.settled;
    expect(refused).toMatchObject({
      code: 'RESTART_NOT_ACCEPTED',
      message: `The new run of execution '${original}' was not accepted within 0.1 s`,
    });
    // No new run was admitted; the original, told to stop, is still ending.
    expect(registry.search({}).map((entry) => entry.executionId)).toEqual([original]);
    expect(manager.running).toBe(1);
    expect(runEvents()).toEqual([['execution.started', original]]);

    // Once the original has ended, the restart is no longer in progress and a new one is taken.
    hold.release();
    await manager.require(original).finished;
    expect(manager.require(original).status).toBe('STOPPED');
    const again = await manager.restart(original, { kind: 'whole' });
    expect(manager.require(again.executionId).restartOf).toBe(original);
  });

  it('waits 30 s by default before refusing (SPEC Restart rules 6)', async () => {
    const { manager, original } = await harness();
    // Only the restart's own timer is faked: the run's timers were armed before.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const hold = holdingImmediates(() => track(manager.restart(original, { kind: 'whole' })));
    releases.push(hold.release);
    const restart = hold.value;
    await vi.advanceTimersByTimeAsync(29_999);
    expect(restart.outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(restart.outcome()).toMatchObject({
      code: 'RESTART_NOT_ACCEPTED',
      message: `The new run of execution '${original}' was not accepted within 30 s`,
    });
  });
});
