import { describe, expect, it } from 'vitest';
import { ManualClock, createSequentialIds } from '../core/index.js';
import { Meters, RecordingTracer, createSilentLoggers } from '../observability/index.js';
import { createPluginRegistry } from '../plugins/index.js';
import { ExecutionManager } from './execution-manager.js';
import { ExecutionRegistry } from './execution-registry.js';
import { sessionStoreWith } from './test-support.js';

const flow = (workflowId: string) => ({
  workflowId,
  description: '',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
});

describe('ExecutionManager: prepared workflows (SPEC Limits, workflow.cache.ttl.ms)', () => {
  it('prepares a workflow version once and drops it after the cache TTL unused', async () => {
    const clock = new ManualClock();
    const store = await sessionStoreWith([flow('a'), flow('b')]);
    const manager = new ExecutionManager({
      store,
      catalog: createPluginRegistry({ optionalPlugins: [] }),
      registry: new ExecutionRegistry({
        maxExecutions: 10,
        resultsPerExecution: 10,
        logsPerExecution: 10,
      }),
      clock,
      ids: createSequentialIds('e'),
      logger: createSilentLoggers().engine,
      workers: false,
      runDeadlineMs: 60_000,
      planTtlMs: 600_000,
      meters: new Meters(),
    });
    await manager.start({ sessionId: 's', workflowId: 'a' });
    await manager.start({ sessionId: 's', workflowId: 'a' });
    expect(manager.cachedPlans).toBe(1);
    clock.advance(600_001);
    await manager.start({ sessionId: 's', workflowId: 'b' });
    expect(manager.cachedPlans).toBe(1);
    await manager.stopAll('done');
  });
});

describe('ExecutionManager: observations (SPEC Tracing)', () => {
  it('records one svc.run observation per execution, parent of one svc.node per node', async () => {
    const store = await sessionStoreWith([flow('a')]);
    const tracer = new RecordingTracer();
    const manager = new ExecutionManager({
      store,
      catalog: createPluginRegistry({ optionalPlugins: [] }),
      registry: new ExecutionRegistry({
        maxExecutions: 10,
        resultsPerExecution: 10,
        logsPerExecution: 10,
      }),
      clock: new ManualClock(),
      ids: createSequentialIds('e'),
      logger: createSilentLoggers().engine,
      workers: false,
      runDeadlineMs: 60_000,
      planTtlMs: 600_000,
      meters: new Meters(),
      tracer,
    });
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'a' });
    await manager.require(executionId).finished;
    const run = tracer.observations.find((observation) => observation.name === 'svc.run');
    expect(run).toMatchObject({ id: executionId, parentId: null, tags: { status: 'COMPLETED' } });
    const nodes = tracer.observations.filter((observation) => observation.name === 'svc.node');
    expect(nodes.map((node) => [node.parentId, node.tags])).toEqual([
      [executionId, { module: 'MANUAL', status: 'COMPLETED' }],
      [executionId, { module: 'CONSOLE_TERMINAL', status: 'COMPLETED' }],
    ]);
  });
});
