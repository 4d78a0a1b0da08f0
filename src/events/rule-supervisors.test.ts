import { describe, expect, it } from 'vitest';
import { createSequentialIds, systemClock } from '../core/index.js';
import type { ExecutionEvent } from '../executions/index.js';
import { waitFor, tick } from '../core/testing/index.js';
import { Meters } from '../observability/index.js';
import { AuditLog } from './audit-log.js';
import { EventBus } from './event-bus.js';
import { startRuleSupervisors } from './rule-supervisors.js';
import type { RuleSupervisorOptions } from './rule-supervisors.js';

/** Records the commands a supervisor issues; only the three calls supervisors make. */
function commandLog(): { executions: RuleSupervisorOptions['executions']; stopped: string[] } {
  const stopped: string[] = [];
  const executions: RuleSupervisorOptions['executions'] = {
    stop: (executionId: string) => {
      stopped.push(executionId);
    },
    control: () => undefined,
    controlNode: () => undefined,
  };
  return { executions, stopped };
}

const event = (executionId: string): ExecutionEvent => ({
  kind: 'execution.started',
  timestamp: new Date(0).toISOString(),
  executionId,
  sessionId: 's',
  workflowId: 'w',
  status: 'RUNNING',
});

describe('rule supervisors (SPEC Events 7)', () => {
  it('loses events it cannot keep up with, counting them, while publishing never waits', async () => {
    const bus = new EventBus();
    const meters = new Meters();
    const { executions, stopped } = commandLog();
    const subscription = startRuleSupervisors(
      [
        {
          id: 'slowpoke',
          type: 'rule',
          rules: [{ on: 'execution.started', when: 'true', command: 'STOP', target: 'run' }],
        },
      ],
      {
        bus,
        executions,
        meters,
        audit: new AuditLog({ capacity: 100, clock: systemClock, ids: createSequentialIds() }),
        queueSize: 2,
      },
    );
    for (let i = 0; i < 10; i++) bus.publish(event(`e${i}`));
    await waitFor(() => stopped.at(-1) === 'e9', 'the last event to be handled');
    subscription.close();
    const dropped = await meters.read('svc.tracker.dropped', { kind: 'supervisor' });
    expect(dropped).toBeGreaterThan(0);
    expect(stopped.length + dropped).toBe(10);
    expect(stopped.at(-1)).toBe('e9');
  });

  it('issues a command only when its condition over the event holds', async () => {
    const bus = new EventBus();
    const meters = new Meters();
    const { executions, stopped } = commandLog();
    const subscription = startRuleSupervisors(
      [
        {
          id: 'picky',
          type: 'rule',
          rules: [
            { on: 'execution.started', when: "executionId = 'b'", command: 'STOP', target: 'run' },
          ],
        },
      ],
      {
        bus,
        executions,
        meters,
        audit: new AuditLog({ capacity: 100, clock: systemClock, ids: createSequentialIds() }),
      },
    );
    for (const id of ['a', 'b', 'c']) bus.publish(event(id));
    await waitFor(() => stopped.length === 1, "the command for 'b'");
    // 'c' is handled after 'b': a few more turns prove that it issues nothing.
    await tick();
    subscription.close();
    expect(stopped).toEqual(['b']);
    expect(await meters.read('svc.supervisor.commands', { id: 'picky', outcome: 'APPLIED' })).toBe(
      1,
    );
  });
});
