import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { createPluginRegistry } from '../plugins/index.js';
import { MemoryCheckpointStore } from '../stores/index.js';
import type { Archived } from './restart-archive.js';
import { Restarts } from './restarts.js';
import { PlanCache } from './plan-cache.js';
import { manualToConsole, sessionStoreWith } from './testing/index.js';

const plans = new PlanCache({
  store: await sessionStoreWith([manualToConsole('a')]),
  catalog: createPluginRegistry({ optionalPlugins: [] }),
  clock: new ManualClock(),
  workers: false,
  ttlMs: 600_000,
});
const { plan, version } = await plans.current('s', 'a');
/** What the archive keeps of an execution; restarts read it, the archive's bound does not. */
const archived: Archived = {
  launch: { request: { sessionId: 's', workflowId: 'a' }, plan, version },
  lineage: 'l',
  source: null,
};

function restartsKeeping(retained: number, forgotten: string[]): Restarts {
  return new Restarts({
    plans,
    checkpoints: new MemoryCheckpointStore(),
    journal: undefined,
    retained,
    acceptMs: 1_000,
    admit: () => Promise.reject(new Error('not started here')),
    stop: () => undefined,
    forgotten: (executionId) => forgotten.push(executionId),
  });
}

describe('the archive of restartable executions (SPEC Restart rule 1)', () => {
  it('keeps the newest executions and lets the oldest go in the order they came', () => {
    const forgotten: string[] = [];
    const restarts = restartsKeeping(3, forgotten);
    for (let n = 1; n <= 5_000; n++) restarts.archive(`e${n}`, archived);
    expect(forgotten).toEqual(Array.from({ length: 4_997 }, (_, index) => `e${index + 1}`));
    for (const kept of ['e4998', 'e4999', 'e5000']) expect(restarts.has(kept)).toBe(true);
    expect(restarts.has('e4997')).toBe(false);
  });

  it('keeps the place of an execution archived again', () => {
    const forgotten: string[] = [];
    const restarts = restartsKeeping(2, forgotten);
    restarts.archive('a', archived);
    restarts.archive('b', archived);
    restarts.archive('a', archived);
    restarts.archive('c', archived);
    expect(forgotten).toEqual(['a']);
    expect(restarts.has('b') && restarts.has('c')).toBe(true);
  });
});
