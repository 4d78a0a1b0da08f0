// What the executions layer's tests share: a memory session store holding workflows, and the
// smallest workflow that runs, and bounded waits on conditions. Excluded from the build (tsconfig.build.json).
export { manualToConsole, sessionStoreWith } from './session-store-with.js';
export { tick, waitFor, waitUntil } from '../../core/testing/index.js';
