// What the unit tests of every layer share: bounded waits on conditions. Excluded from the
// build (tsconfig.build.json).
export { tick, waitFor, waitUntil } from './wait.js';
