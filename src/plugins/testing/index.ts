// What plugin tests share: a NodeContext with a manual clock and recorded logs, ways to feed a
// plugin messages and collect what it emits, a plugin's runtime as the host makes it, a
// loopback HTTP server, and bounded waits on conditions. Excluded from the build (tsconfig.build.json).
export { asEmits, collect, createTestContext, message, processAll } from './fake-context.js';
export type {
  LoggedLine,
  MeterCall,
  TestContext,
  TestContextOptions,
  TracedCall,
} from './fake-context.js';
export { closeServer, listenForBodies, listenOnLoopback } from './local-http.js';
export type { ReceivedRequest } from './local-http.js';
export { runtimeOf, setupOf } from './runtime-of.js';
export { tick, waitFor, waitUntil } from '../../core/testing/index.js';
