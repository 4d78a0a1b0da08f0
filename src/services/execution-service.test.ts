import { describe, expect, it } from 'vitest';
import { ManualClock, createSequentialIds, isAppError } from '../core/index.js';
import type { SupervisorEntry } from '../config/index.js';
import { AuditLog, EventBus, EventFeeds, ProgressHistory, Supervisors } from '../events/index.js';
import { ExecutionManager } from '../executions/index.js';
import {
  manualToConsole,
  sessionStoreWith,
  testManagerDeps,
  testRegistry,
} from '../executions/testing/index.js';
import { ExecutionService } from './execution-service.js';

/** A service over a real manager, with workflow `w` in sessions `s` and `t`. */
async function serviceWith(supervisors: readonly SupervisorEntry[] = []) {
  const clock = new ManualClock();
  const store = await sessionStoreWith([manualToConsole('w')], ['s', 't']);
  const registry = testRegistry();
  const bus = new EventBus(100);
  const manager = new ExecutionManager(
    testManagerDeps(store, {
      registry,
      clock,
      events: (event) => {
        bus.publish(event);
      },
    }),
  );
  const audit = new AuditLog({ capacity: 100, clock, ids: createSequentialIds('a') });
  const service = new ExecutionService({
    executions: manager,
    registry,
    audit,
    supervisors: new Supervisors(supervisors),
    bus,
    feeds: new EventFeeds(bus, { capacity: 10, frame: (event) => event.frame() }),
    progress: new ProgressHistory({
      perExecution: 10,
      executions: 10,
      ttlMs: 60_000,
      now: () => clock.now(),
    }),
  });
  /** Starts `w` in `sessionId` and waits for the run to end. */
  const finishedRun = async (sessionId: string): Promise<string> => {
    const { executionId } = await service.start({ sessionId, workflowId: 'w' });
    await registry.get(executionId)?.finished;
    return executionId;
  };
  return { service, audit, finishedRun };
}

function codeOf(command: () => unknown): string | undefined {
  try {
    command();
  } catch (error) {
    return isAppError(error) ? error.code : 'not an AppError';
  }
  return undefined;
}

describe('ExecutionService: reaching an execution through a session (SPEC Errors, Roles)', () => {
  it('answers an execution of another session like an unknown one, 404', async () => {
    const { service, finishedRun } = await serviceWith();
    const executionId = await finishedRun('s');
    expect(
      codeOf(() => {
        service.assertInSession('t', executionId);
      }),
    ).toBe('EXECUTION_NOT_FOUND');
    expect(codeOf(() => service.status(executionId, 't'))).toBe('EXECUTION_NOT_FOUND');
    expect(
      codeOf(() => {
        service.assertInSession('s', executionId);
      }),
    ).toBeUndefined();
    expect(service.status(executionId, 's').progress.nodesFinished).toBe(2);
    expect(service.sessionOf(executionId)).toBe('s');
    expect(service.sessionOf('unknown')).toBeUndefined();
  });

  it('opens no stream for an execution of another session', async () => {
    const { service, finishedRun } = await serviceWith();
    const executionId = await finishedRun('s');
    let opened = 0;
    const open = () => {
      opened++;
      throw new Error('no stream may be opened');
    };
    expect(
      codeOf(() => {
        service.followExecution('logs', 't', executionId, null, open);
      }),
    ).toBe('EXECUTION_NOT_FOUND');
    expect(
      codeOf(() => {
        service.followExecution('progress', 't', executionId, null, open);
      }),
    ).toBe('EXECUTION_NOT_FOUND');
    expect(opened).toBe(0);
  });
});

describe('ExecutionService: the audit of control commands (SPEC Events 8)', () => {
  it('records an applied command with the actor that sent it', async () => {
    const { service, audit } = await serviceWith();
    await service.setLimits({ maxConcurrent: 3, queueTimeout: undefined }, 'key:ops');
    expect(service.limits.maxConcurrent).toBe(3);
    expect(audit.list({ limit: 10 })).toMatchObject([
      { command: 'SCHEDULER_LIMITS', outcome: 'APPLIED', actor: 'key:ops', reason: null },
    ]);
  });

  it('records a refused command with the reason of its refusal, and passes the error on', async () => {
    const { service, audit, finishedRun } = await serviceWith();
    const executionId = await finishedRun('s');
    expect(codeOf(() => service.control(executionId, 'PAUSE', null))).toBe('EXECUTION_NOT_ACTIVE');
    const [entry] = audit.list({ limit: 10 });
    expect(entry).toMatchObject({ command: 'PAUSE', executionId, outcome: 'REFUSED', actor: null });
    expect(entry?.reason).toMatch(/.+/);
  });

  it('refuses approval fields on a node command before it runs, audited as refused', async () => {
    const { service, audit, finishedRun } = await serviceWith();
    const executionId = await finishedRun('s');
    const command = { executionId, nodeId: 'out', action: 'SKIP' as const };
    expect(codeOf(() => service.controlNode({ ...command, withApprovalFields: true }, 'a'))).toBe(
      'APPROVAL_ON_CONTROL',
    );
    expect(codeOf(() => service.controlNode(command, 'a'))).toBe('EXECUTION_NOT_ACTIVE');
    expect(audit.list({ limit: 10 }).map((entry) => [entry.command, entry.nodeId])).toEqual([
      ['SKIP', 'out'],
      ['SKIP', 'out'],
    ]);
  });

  it('does not run a command a supervisor denies, and audits the refusal (SPEC Events 7)', async () => {
    const { service, audit } = await serviceWith([
      {
        id: 'guard',
        type: 'review',
        deny: [{ command: 'SCHEDULER_LIMITS', actor: 'key:ci', sessionId: null, nodeId: null }],
      },
    ]);
    await expect(service.setLimits({ maxConcurrent: 3 }, 'key:ci')).rejects.toMatchObject({
      code: 'SUPERVISOR_REFUSED',
    });
    expect(service.limits.maxConcurrent).toBeNull();
    expect(audit.list({ limit: 10 })).toMatchObject([
      { command: 'SCHEDULER_LIMITS', outcome: 'REFUSED', actor: 'key:ci' },
    ]);
    expect(service.supervisors()).toMatchObject([{ id: 'guard', reviewed: 1, refused: 1 }]);
  });

  it('names restarts after their kind, with the node they start from (SPEC Restart rules)', async () => {
    const { service, audit } = await serviceWith();
    await expect(
      service.restart('unknown', { kind: 'from', nodeId: 'b' }, 'a'),
    ).rejects.toMatchObject({ code: 'EXECUTION_NOT_FOUND' });
    await expect(service.restart('unknown', { kind: 'whole' }, 'a')).rejects.toMatchObject({
      code: 'EXECUTION_NOT_FOUND',
    });
    await expect(service.recover('unknown', 'a')).rejects.toMatchObject({
      code: 'EXECUTION_NOT_FOUND',
    });
    expect(audit.list({ limit: 10 }).map((entry) => [entry.command, entry.nodeId])).toEqual([
      ['RECOVER', null],
      ['RESTART', null],
      ['RESTART_FROM_NODE', 'b'],
    ]);
  });

  it('does not audit starts and reads', async () => {
    const { service, audit, finishedRun } = await serviceWith();
    const executionId = await finishedRun('s');
    service.read(executionId);
    service.logs(executionId, {});
    expect(service.history('s', { limit: 10 })).toHaveLength(1);
    expect(audit.list({ limit: 10 })).toEqual([]);
  });
});
