// What the executions layer's tests share: a memory session store holding workflows, the
// smallest workflow that runs, an execution manager with test dependencies, and bounded waits
// on conditions. Excluded from the build (tsconfig.build.json).
export { manualToConsole, sessionStoreWith } from './session-store-with.js';
export { createTestManager, testManagerDeps, testRegistry } from './test-manager.js';
export { tick, waitFor, waitUntil } from '../../core/testing/index.js';
export { testEntry } from './test-entry.js';
