import { describeSessionStoreConformance } from '../conformance/session-store.conformance.js';
import { MemorySessionStore } from './memory-session-store.js';

describeSessionStoreConformance('memory', () =>
  Promise.resolve({ store: new MemorySessionStore(), cleanup: () => Promise.resolve() }),
);
