// An execution manager for the executions layer's own tests: the built-in plugins, a small
// registry, a manual clock, sequential ids and silent logs, with any dependency overridden.
import { ManualClock, createSequentialIds } from '../../core/index.js';
import type { WorkflowDefinition } from '../../engine/index.js';
import { Meters, createSilentLoggers } from '../../observability/index.js';
import { createPluginRegistry } from '../../plugins/index.js';
import { ExecutionManager } from '../execution-manager.js';
import type { ExecutionManagerDeps } from '../execution-manager.js';
import { ExecutionRegistry } from '../execution-registry.js';
import { sessionStoreWith } from './session-store-with.js';

/** A registry holding 10 executions with 10 results and 10 log entries each, or `max`. */
export function testRegistry(maxExecutions = 10): ExecutionRegistry {
  return new ExecutionRegistry({ maxExecutions, resultsPerExecution: 10, logsPerExecution: 10 });
}

/** The dependencies of a test manager over `store`; `overrides` replace any of them. */
export function testManagerDeps(
  store: ExecutionManagerDeps['store'],
  overrides: Partial<ExecutionManagerDeps> = {},
): ExecutionManagerDeps {
  return {
    store,
    catalog: createPluginRegistry({ optionalPlugins: [] }),
    registry: testRegistry(),
    clock: new ManualClock(),
    ids: createSequentialIds('e'),
    logger: createSilentLoggers().engine,
    workers: false,
    runDeadlineMs: 60_000,
    planTtlMs: 600_000,
    meters: new Meters(),
    ...overrides,
  };
}

/** A test manager whose session `s` holds `workflows`, each at version 1. */
export async function createTestManager(
  workflows: readonly WorkflowDefinition[],
  overrides: Partial<ExecutionManagerDeps> = {},
): Promise<ExecutionManager> {
  return new ExecutionManager(testManagerDeps(await sessionStoreWith(workflows), overrides));
}
