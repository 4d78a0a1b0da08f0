import { describe, expect, it } from 'vitest';
import { ManualClock, createSequentialIds } from '../core/index.js';
import { AuditLog } from './audit-log.js';
import type { AuditEntry } from './audit-log.js';

const entry = (id: string, command = 'STOP'): AuditEntry => ({
  id,
  timestamp: '2026-01-01T00:00:00.000Z',
  executionId: 'e1',
  nodeId: null,
  command,
  outcome: 'APPLIED',
  reason: null,
  actor: null,
});

describe('the control audit (SPEC Events 8)', () => {
  it('puts back entries from before a restart ahead of new ones, once, skipping what is not an entry', () => {
    const recorded: string[] = [];
    const audit = new AuditLog({
      capacity: 3,
      clock: new ManualClock(),
      ids: createSequentialIds('new'),
      onRecord: (added) => recorded.push(added.id),
    });
    const fresh = audit.record({
      executionId: 'e1',
      command: 'PAUSE',
      outcome: 'APPLIED',
      actor: null,
    });
    audit.restore([entry('old-1'), { id: 'broken' }, entry('old-2'), { ...fresh }]);
    expect(audit.list({ limit: 10 }).map((listed) => listed.id)).toEqual([
      fresh.id,
      'old-2',
      'old-1',
    ]);
    // Restored entries are not recorded again.
    expect(recorded).toEqual([fresh.id]);
    audit.restore([entry('old-0')]);
    expect(audit.list({ limit: 10 }).map((listed) => listed.id)).toEqual([
      fresh.id,
      'old-2',
      'old-1',
    ]);
  });
});
