import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUSES } from './execution-states.js';
import { RUN_STATUS_EVENTS, isStateEvent, statusEvent } from './execution-events.js';

const header = {
  timestamp: '2026-01-01T00:00:00.000Z',
  executionId: 'e1',
  sessionId: 's',
  workflowId: 'w',
};

describe('execution events (CONTRACT section 3, Event)', () => {
  it('tells the present status of an execution as the event of that status, with what that event carries', () => {
    for (const status of EXECUTION_STATUSES) {
      const event = statusEvent(header, { status, priority: 3, error: 'boom' });
      expect(event).toMatchObject({ ...header, kind: RUN_STATUS_EVENTS[status], status });
      expect(isStateEvent(event.kind)).toBe(true);
    }
    expect(statusEvent(header, { status: 'QUEUED', priority: 3, error: null })).toMatchObject({
      priority: 3,
    });
    expect(statusEvent(header, { status: 'FAILED', priority: 0, error: 'boom' })).toMatchObject({
      error: 'boom',
    });
  });
});
