// What the executions layer's tests share: a memory session store holding workflows, and the
// smallest workflow that runs. Excluded from the build (tsconfig.build.json).
export { manualToConsole, sessionStoreWith } from './session-store-with.js';
