import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { ManualScheduler } from '../engine/index.js';
import { Meters } from '../observability/index.js';
import { createPluginRegistry } from '../plugins/index.js';
import { LIMITS_OFF } from './admission.js';
import { AdmissionQueue } from './admission-queue.js';
import type { ExecutionEvent } from './execution-events.js';
import { ExecutionNotifier } from './execution-notifier.js';
import { ExecutionRegistry } from './execution-registry.js';
import type { ExecutionEntry } from './execution-registry.js';
import type { Launch } from './launch.js';
import { PlanCache } from './plan-cache.js';
import { manualToConsole, sessionStoreWith } from './testing/index.js';

/** One slot, a queue with a 300 ms wait limit, time moved only by the test. */
async function queueWithOneSlot() {
  const clock = new ManualClock();
  const scheduler = new ManualScheduler(clock);
  const events: ExecutionEvent[] = [];
  const admitted: string[] = [];
  const plans = new PlanCache({
    store: await sessionStoreWith([manualToConsole('a')]),
    catalog: createPluginRegistry({ optionalPlugins: [] }),
    clock,
    workers: false,
    ttlMs: 600_000,
  });
  const { plan, version } = await plans.current('s', 'a');
  const launch: Launch = { request: { sessionId: 's', workflowId: 'a' }, plan, version };
  const registry = new ExecutionRegistry({
    maxExecutions: 10,
    resultsPerExecution: 10,
    logsPerExecution: 10,
  });
  const queue = new AdmissionQueue({
    limits: { ...LIMITS_OFF, maxConcurrent: 1, onLimit: 'QUEUE', queueTimeout: 300 },
    queueCapacityPerWorkflow: 0,
    clock,
    timers: scheduler,
    meters: new Meters(),
    notifier: new ExecutionNotifier((event) => events.push(event), clock),
    journal: undefined,
    admitted: (entry, _launch, paused) => {
      admitted.push(paused ? `${entry.executionId} paused` : entry.executionId);
    },
  });
  /** A start of workflow `a`: it takes the free slot, or waits. */
  const start = (executionId: string): ExecutionEntry => {
    const decision = queue.request({
      executionId,
      sessionId: 's',
      workflowId: 'a',
      priority: 0,
      arrival: queue.nextArrival(),
    });
    const entry = registry.create({
      executionId,
      sessionId: 's',
      workflowId: 'a',
      workflowVersion: version,
      priority: 0,
      createdAt: clock.now(),
      parentExecutionId: null,
      depth: 0,
    });
    if (decision.kind === 'queue') queue.enqueue(entry, launch);
    return entry;
  };
  return { queue, scheduler, events, admitted, start };
}

describe('AdmissionQueue: the queue clock (SPEC States and transitions, rule 1)', () => {
  it('freezes the queue wait while a waiting start is paused, and times it out once the time it had left has passed', async () => {
    const { queue, scheduler, events, start } = await queueWithOneSlot();
    start('e1');
    const waiting = start('e2');
    scheduler.advance(200);
    expect(queue.pause('e2', true)).toBe(true);
    scheduler.advance(10_000);
    expect(waiting.status).toBe('QUEUED');
    queue.pause('e2', false);
    scheduler.advance(99);
    expect(waiting.status).toBe('QUEUED');
    scheduler.advance(1);
    expect(waiting.status).toBe('TIMED_OUT');
    expect(waiting.error).toBe('Waited longer than 300 ms for a slot');
    expect(events.map((event) => [event.kind, 'status' in event ? event.status : null])).toEqual([
      ['execution.queued', 'QUEUED'],
      ['execution.paused', 'QUEUED'],
      ['execution.resumed', 'QUEUED'],
      ['execution.timed_out', 'TIMED_OUT'],
    ]);
    expect(queue.size).toBe(0);
  });

  it('gives a freed slot to a start paused while it waited, which starts paused, and cancels its queue timer', async () => {
    const { queue, scheduler, admitted, start } = await queueWithOneSlot();
    start('e1');
    start('e2');
    queue.pause('e2', true);
    queue.release('e1');
    expect(admitted).toEqual(['e2 paused']);
    expect(queue.size).toBe(0);
    expect(scheduler.pending).toBe(0);
  });

  it('ends a stopped waiting start STOPPED and gives back nothing it did not hold', async () => {
    const { queue, scheduler, start } = await queueWithOneSlot();
    start('e1');
    const waiting = start('e2');
    expect(queue.end('e2', 'STOPPED', 'Stopped')).toBe(true);
    expect(waiting.status).toBe('STOPPED');
    expect(queue.end('e2', 'STOPPED', 'Stopped')).toBe(false);
    expect(scheduler.pending).toBe(0);
  });
});
