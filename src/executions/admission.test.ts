import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Admission, LIMITS_OFF } from './admission.js';
import type { AdmissionLimits, Candidate } from './admission.js';

const OFF: AdmissionLimits = LIMITS_OFF;

let next = 0;
function candidate(admission: Admission, fields: Partial<Candidate> = {}): Candidate {
  return {
    executionId: `e${++next}`,
    sessionId: 's',
    workflowId: 'w',
    priority: 0,
    arrival: admission.nextArrival(),
    ...fields,
  };
}

describe('Admission (SPEC States and transitions, Limits)', () => {
  it('admits everything while the limits are off', () => {
    const admission = new Admission(OFF);
    for (let i = 0; i < 50; i++) expect(admission.request(candidate(admission)).kind).toBe('run');
  });

  it('refuses with reason limit at max-concurrent when on-limit is REJECT', () => {
    const admission = new Admission({ ...OFF, maxConcurrent: 2 });
    expect(admission.request(candidate(admission)).kind).toBe('run');
    expect(admission.request(candidate(admission)).kind).toBe('run');
    expect(admission.request(candidate(admission))).toEqual({ kind: 'refuse', reason: 'limit' });
  });

  it('applies the per-session limit', () => {
    const admission = new Admission({ ...OFF, maxPerSession: 1 });
    expect(admission.request(candidate(admission, { sessionId: 'a' })).kind).toBe('run');
    expect(admission.request(candidate(admission, { sessionId: 'a', workflowId: 'x' })).kind).toBe(
      'refuse',
    );
    expect(admission.request(candidate(admission, { sessionId: 'b' })).kind).toBe('run');
  });

  it('applies the per-workflow limit to a workflow of one session only', () => {
    const admission = new Admission({ ...OFF, maxPerWorkflow: 2 });
    expect(admission.request(candidate(admission, { sessionId: 'a' })).kind).toBe('run');
    expect(admission.request(candidate(admission, { sessionId: 'a' })).kind).toBe('run');
    expect(admission.request(candidate(admission, { sessionId: 'a' })).kind).toBe('refuse');
    // Another session's workflow of the same name is another workflow.
    expect(admission.request(candidate(admission, { sessionId: 'b' })).kind).toBe('run');
    expect(
      admission.request(candidate(admission, { sessionId: 'a', workflowId: 'other' })).kind,
    ).toBe('run');
  });

  it('queues when on-limit is QUEUE, up to the queue capacity, and per workflow only when that capacity is set', () => {
    const admission = new Admission({
      ...OFF,
      maxConcurrent: 1,
      onLimit: 'QUEUE',
      queueCapacity: 2,
    });
    expect(admission.request(candidate(admission)).kind).toBe('run');
    expect(admission.request(candidate(admission)).kind).toBe('queue');
    expect(admission.request(candidate(admission, { workflowId: 'x' })).kind).toBe('queue');
    expect(admission.request(candidate(admission, { workflowId: 'y' }))).toEqual({
      kind: 'refuse',
      reason: 'queue_full',
    });
    const wholeQueue = new Admission({
      ...OFF,
      maxConcurrent: 1,
      onLimit: 'QUEUE',
      queueCapacity: 1,
    });
    wholeQueue.request(candidate(wholeQueue));
    wholeQueue.request(candidate(wholeQueue));
    expect(wholeQueue.request(candidate(wholeQueue))).toEqual({
      kind: 'refuse',
      reason: 'queue_full',
    });
    const perWorkflow = new Admission(
      { ...OFF, maxConcurrent: 1, onLimit: 'QUEUE', queueCapacity: 10 },
      1,
    );
    perWorkflow.request(candidate(perWorkflow));
    perWorkflow.request(candidate(perWorkflow));
    expect(perWorkflow.request(candidate(perWorkflow))).toEqual({
      kind: 'refuse',
      reason: 'workflow_queue_full',
    });
    expect(perWorkflow.request(candidate(perWorkflow, { workflowId: 'x' })).kind).toBe('queue');
  });

  it('gives a freed slot to the waiting start with the highest priority', () => {
    const admission = new Admission({ ...OFF, maxConcurrent: 1, onLimit: 'QUEUE' });
    const first = candidate(admission);
    admission.request(first);
    const low = candidate(admission, { priority: 1 });
    const high = candidate(admission, { priority: 5 });
    admission.request(low);
    admission.request(high);
    expect(admission.release(first.executionId).map((c) => c.executionId)).toEqual([
      high.executionId,
    ]);
  });

  it('changes the priority only while waiting (SPEC rule 3)', () => {
    const admission = new Admission({ ...OFF, maxConcurrent: 1, onLimit: 'QUEUE' });
    const running = candidate(admission);
    admission.request(running);
    const waiting = candidate(admission);
    admission.request(waiting);
    expect(admission.reprioritise(waiting.executionId, 9)).toBe(true);
    expect(admission.reprioritise(running.executionId, 9)).toBe(false);
  });

  it('refuses every start and every waiting start once shutting down', () => {
    const admission = new Admission({ ...OFF, maxConcurrent: 1, onLimit: 'QUEUE' });
    admission.request(candidate(admission));
    const waiting = candidate(admission);
    admission.request(waiting);
    expect(admission.shutdown().map((c) => c.executionId)).toEqual([waiting.executionId]);
    expect(admission.request(candidate(admission))).toEqual({ kind: 'refuse', reason: 'shutdown' });
  });

  it('admits in queue order: priority, then the session with fewest running, then arrival (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            priority: fc.integer({ min: 0, max: 3 }),
            session: fc.constantFrom('a', 'b', 'c'),
          }),
          {
            minLength: 1,
            maxLength: 30,
          },
        ),
        (starts) => {
          const admission = new Admission({
            ...OFF,
            maxConcurrent: 1,
            onLimit: 'QUEUE',
            queueCapacity: 1000,
          });
          const blocker = candidate(admission, { sessionId: 'z' });
          admission.request(blocker);
          const waiting = starts.map((start) =>
            candidate(admission, { priority: start.priority, sessionId: start.session }),
          );
          for (const start of waiting) admission.request(start);
          let holder = blocker.executionId;
          const order: Candidate[] = [];
          for (;;) {
            const admitted = admission.release(holder);
            if (admitted.length === 0) break;
            expect(admitted).toHaveLength(1);
            const [next1] = admitted;
            if (!next1) break;
            order.push(next1);
            holder = next1.executionId;
          }
          expect(order).toHaveLength(waiting.length);
          // With one slot nobody else runs, so sessions tie on running: priority, then arrival.
          for (let i = 1; i < order.length; i++) {
            const a = order[i - 1]!;
            const b = order[i]!;
            expect(
              a.priority > b.priority || (a.priority === b.priority && a.arrival < b.arrival),
            ).toBe(true);
          }
        },
      ),
    );
  });

  it('prefers the session with fewer running executions at equal priority', () => {
    const admission = new Admission({ ...OFF, maxConcurrent: 3, onLimit: 'QUEUE' });
    const a1 = candidate(admission, { sessionId: 'a' });
    const a2 = candidate(admission, { sessionId: 'a' });
    const b1 = candidate(admission, { sessionId: 'b' });
    for (const c of [a1, a2, b1]) admission.request(c);
    const waitingA = candidate(admission, { sessionId: 'a' });
    const waitingB = candidate(admission, { sessionId: 'b' });
    admission.request(waitingA);
    admission.request(waitingB);
    // A slot frees in session a: b has 1 running, a has 1 running -> tie -> arrival (waitingA).
    // Free one of b instead: a has 2 running, b has 0 -> b's start goes first.
    expect(admission.release(b1.executionId).map((c) => c.executionId)).toEqual([
      waitingB.executionId,
    ]);
  });

  it('lists the waiting starts in the order one more slot would admit them (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ session: fc.constantFrom('a', 'b', 'c'), priority: fc.nat(3) }), {
          minLength: 1,
          maxLength: 12,
        }),
        (starts) => {
          let slots = 2;
          const admission = new Admission({ ...OFF, maxConcurrent: slots, onLimit: 'QUEUE' });
          admission.request(candidate(admission, { sessionId: 'a' }));
          admission.request(candidate(admission, { sessionId: 'b' }));
          for (const { session, priority } of starts) {
            admission.request(candidate(admission, { sessionId: session, priority }));
          }
          while (admission.queued > 0) {
            const [first] = admission.waiting();
            expect(first?.heldBy).toEqual([{ limit: 'maxConcurrent', running: slots, max: slots }]);
            slots++;
            const admitted = admission.setLimits({ ...admission.limits, maxConcurrent: slots });
            expect(admitted.map((c) => c.executionId)).toEqual([first?.candidate.executionId]);
          }
        },
      ),
    );
  });

  it('names every limit a waiting start is held by, with its counts', () => {
    const admission = new Admission({
      ...OFF,
      maxConcurrent: 2,
      maxPerSession: 1,
      maxPerWorkflow: 1,
      onLimit: 'QUEUE',
    });
    admission.request(candidate(admission, { sessionId: 'a', workflowId: 'x' }));
    admission.request(candidate(admission, { sessionId: 'b', workflowId: 'y' }));
    const held = candidate(admission, { sessionId: 'a', workflowId: 'y' });
    admission.request(held);
    expect(admission.waiting()).toEqual([
      {
        candidate: held,
        heldBy: [
          { limit: 'maxConcurrent', running: 2, max: 2 },
          { limit: 'maxPerSession', running: 1, max: 1 },
        ],
      },
    ]);
  });
});
