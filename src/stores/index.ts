// Public surface of the stores layer: the session store adapters and the factory choosing one.
// The conformance suite is not exported here (it imports vitest); tests import its file.
export { createSessionStore } from './create-session-store.js';
export type { SessionStoreOptions } from './create-session-store.js';
export { FileSessionStore } from './file/file-session-store.js';
export type { FileSessionStoreOptions } from './file/file-session-store.js';
export { MemorySessionStore } from './memory/memory-session-store.js';
