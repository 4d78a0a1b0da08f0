// High availability (docs/high-availability.md): sessions and workflows live in the database
// both servers share, and only the leader changes them. A standby reads them as they are; a
// change it would make is answered 503, like a start, so that two servers never save versions
// of the same workflow at once (each numbers the next version from what it read).
import { AppError } from '../core/index.js';
import type { SessionStore } from '../engine/index.js';

/** `store` whose changes are refused with NOT_LEADER while `isLeader()` is false. */
export function leaderOnlyWrites(store: SessionStore, isLeader: () => boolean): SessionStore {
  const leading = (): void => {
    if (!isLeader()) throw new AppError('NOT_LEADER');
  };
  return {
    get kind() {
      return store.kind;
    },
    open: () => store.open(),
    close: () => store.close(),
    listSessions: () => store.listSessions(),
    getSession: (sessionId) => store.getSession(sessionId),
    listWorkflows: (sessionId) => store.listWorkflows(sessionId),
    getWorkflow: (sessionId, workflowId) => store.getWorkflow(sessionId, workflowId),
    putSession: async (session) => {
      leading();
      await store.putSession(session);
    },
    deleteSession: async (sessionId) => {
      leading();
      return store.deleteSession(sessionId);
    },
    putWorkflow: async (workflow) => {
      leading();
      await store.putWorkflow(workflow);
    },
    deleteWorkflow: async (sessionId, workflowId) => {
      leading();
      return store.deleteWorkflow(sessionId, workflowId);
    },
  };
}
