// What the engine's tests (and the benchmarks) share: a plugin catalogue made from plain data,
// runs of small workflows with everything they report recorded, bounded waits on the event
// loop, and the plugins the control tests drive. Excluded from the build (tsconfig.build.json).
export { createTestCatalog, testCatalog } from './test-catalog.js';
export type { TestPluginType } from './test-catalog.js';
export { tick, waitFor, waitUntil } from '../../core/testing/index.js';
export { chainOf, createTestRun, processorOf, sourceOf, testSink } from './test-run.js';
export type { TestRun, TestRunOptions } from './test-run.js';
export {
  counters,
  hang,
  holdingProcessor,
  pass,
  passChain,
  pausedMidFlow,
  pushSource,
  refusal,
} from './control-fixtures.js';
export type { Control, NodeControl } from './control-fixtures.js';
