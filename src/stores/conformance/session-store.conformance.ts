// The one test suite every SessionStore adapter runs (memory, file, PostgreSQL), so they all
// keep the contract written on the port in src/engine/ports.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  SessionRecord,
  SessionStore,
  WorkflowRecord,
  WorkflowVersionRecord,
} from '../../engine/index.js';

export interface SessionStoreFixture {
  /** Not yet opened: the suite opens and closes it. */
  readonly store: SessionStore;
  /** A new, not yet opened store over the same persisted data; omitted by volatile stores. */
  readonly reopen?: () => Promise<SessionStore>;
  /** Runs after the suite has closed every store it opened. */
  readonly cleanup: () => Promise<void>;
}

/** Ids that break naive mappings to file names, URLs or keys; all must stay distinct. */
export const AWKWARD_IDS: readonly string[] = [
  'a b',
  'x.y',
  '.',
  '..',
  '\u00fcn\u00ef',
  // The same word decomposed: a normalising file system must not merge it with the above.
  'u\u0308ni\u0308',
  '%2F',
  '/',
  'a/b',
  'a\\b',
  'Case',
  'case',
  'CON',
  'con',
  '*',
  '~x',
  "it's (1)!",
  'tab\there',
  '\u{1F600}',
  '',
  'x'.repeat(300),
  `${'x'.repeat(299)}y`,
];

const CREATED = '2026-01-01T00:00:00.000Z';

export function sessionRecord(
  sessionId: string,
  overrides: Partial<SessionRecord> = {},
): SessionRecord {
  return {
    sessionId,
    name: `Session ${sessionId}`,
    initiator: 'tester',
    description: 'made by the conformance suite',
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

export function versionRecord(workflowId: string, version: number): WorkflowVersionRecord {
  return {
    version,
    createdAt: new Date(Date.parse(CREATED) + version * 1000).toISOString(),
    author: 'tester',
    note: version % 2 === 0 ? `note ${version}` : null,
    definition: {
      workflowId,
      description: `version ${version}`,
      nodes: [
        { nodeId: 'in', type: 'MANUAL_TRIGGER' },
        { nodeId: 'out', type: 'CONSOLE', config: { level: 'info', nested: { count: version } } },
      ],
      edges: [{ source: 'in', target: 'out', sourcePort: 'out' }],
    },
  };
}

/** A workflow holding versions 1..`latest` (at most the last 20, as the service keeps). */
export function workflowRecord(sessionId: string, workflowId: string, latest = 1): WorkflowRecord {
  const first = Math.max(1, latest - 19);
  return {
    sessionId,
    workflowId,
    createdAt: CREATED,
    versions: Array.from({ length: latest - first + 1 }, (_, index) =>
      versionRecord(workflowId, first + index),
    ),
  };
}

export function describeSessionStoreConformance(
  name: string,
  createStore: () => Promise<SessionStoreFixture>,
): void {
  describe(`${name} session store conformance`, () => {
    let fixture: SessionStoreFixture;
    /** The store the current test talks to; replaced by `reopened()`. */
    let store: SessionStore;

    beforeEach(async () => {
      fixture = await createStore();
      store = fixture.store;
      await store.open();
    });

    afterEach(async () => {
      await store.close();
      await fixture.cleanup();
    });

    /** Closes the current store and opens a new one over the same data. */
    async function reopened(reopen: () => Promise<SessionStore>): Promise<SessionStore> {
      await store.close();
      store = await reopen();
      await store.open();
      return store;
    }

    /** Runs `check` now, and again after a reopen when the adapter persists. */
    async function checkNowAndAfterReopen(check: (current: SessionStore) => Promise<void>) {
      await check(store);
      if (fixture.reopen) await check(await reopened(fixture.reopen));
    }

    describe('sessions', () => {
      it('answers undefined, false and empty lists for ids it does not hold', async () => {
        expect(await store.listSessions()).toEqual([]);
        expect(await store.getSession('missing')).toBeUndefined();
        expect(await store.deleteSession('missing')).toBe(false);
        expect(await store.listWorkflows('missing')).toEqual([]);
        expect(await store.getWorkflow('missing', 'w')).toBeUndefined();
        expect(await store.deleteWorkflow('missing', 'w')).toBe(false);
      });

      it('returns a stored session by id and in the list', async () => {
        const session = sessionRecord('s1');
        await store.putSession(session);
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getSession('s1')).toEqual(session);
          expect(await current.listSessions()).toEqual([session]);
        });
      });

      it('replaces a session put again with the same id and keeps its workflows', async () => {
        await store.putSession(sessionRecord('s1'));
        await store.putWorkflow(workflowRecord('s1', 'w1'));
        const updated = sessionRecord('s1', {
          name: 'renamed',
          updatedAt: '2026-01-02T00:00:00.000Z',
        });
        await store.putSession(updated);
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getSession('s1')).toEqual(updated);
          expect(await current.listSessions()).toHaveLength(1);
          expect(await current.listWorkflows('s1')).toEqual([workflowRecord('s1', 'w1')]);
        });
      });

      it('lists sessions by createdAt, then by sessionId', async () => {
        const later = '2026-03-01T00:00:00.000Z';
        await store.putSession(sessionRecord('b', { createdAt: later }));
        await store.putSession(sessionRecord('c'));
        await store.putSession(sessionRecord('a', { createdAt: later }));
        await store.putSession(sessionRecord('d'));
        await checkNowAndAfterReopen(async (current) => {
          const ids = (await current.listSessions()).map((session) => session.sessionId);
          expect(ids).toEqual(['c', 'd', 'a', 'b']);
        });
      });

      it('deletes a session, answering true once and false afterwards', async () => {
        await store.putSession(sessionRecord('s1'));
        await store.putSession(sessionRecord('s2'));
        expect(await store.deleteSession('s1')).toBe(true);
        expect(await store.deleteSession('s1')).toBe(false);
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getSession('s1')).toBeUndefined();
          expect((await current.listSessions()).map((session) => session.sessionId)).toEqual([
            's2',
          ]);
        });
      });

      it('removes the workflows of a deleted session, also when the id is used again', async () => {
        await store.putSession(sessionRecord('s1'));
        await store.putWorkflow(workflowRecord('s1', 'w1'));
        await store.putWorkflow(workflowRecord('s1', 'w2'));
        await store.deleteSession('s1');
        expect(await store.listWorkflows('s1')).toEqual([]);
        expect(await store.getWorkflow('s1', 'w1')).toBeUndefined();
        await store.putSession(sessionRecord('s1'));
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getSession('s1')).toEqual(sessionRecord('s1'));
          expect(await current.listWorkflows('s1')).toEqual([]);
          expect(await current.getWorkflow('s1', 'w2')).toBeUndefined();
        });
      });
    });

    describe('workflows', () => {
      it('keeps whether a workflow is always on, and turns it off again', async () => {
        await store.putSession(sessionRecord('s1'));
        const workflow = workflowRecord('s1', 'w1', 2);
        await store.putWorkflow({ ...workflow, active: true });
        await store.putWorkflow(workflowRecord('s1', 'w2'));
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getWorkflow('s1', 'w1')).toEqual({ ...workflow, active: true });
          expect((await current.listWorkflows('s1')).map((each) => each.active)).toEqual([
            true,
            undefined,
          ]);
        });
        await store.putWorkflow(workflow);
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getWorkflow('s1', 'w1')).toEqual(workflow);
        });
      });

      it("keeps a workflow's layout, replaces it and drops it when put without one", async () => {
        await store.putSession(sessionRecord('s1'));
        const workflow = workflowRecord('s1', 'w1', 2);
        const layout = {
          in: { x: 40, y: -12.5 },
          out: { x: 1e6, y: 0 },
          [AWKWARD_IDS[0] ?? '']: { x: 1, y: 2 },
        };
        await store.putWorkflow({ ...workflow, layout });
        await store.putWorkflow({ ...workflowRecord('s1', 'w2'), active: true, layout: {} });
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getWorkflow('s1', 'w1')).toEqual({ ...workflow, layout });
          expect((await current.listWorkflows('s1')).map((each) => each.layout)).toEqual([
            layout,
            {},
          ]);
        });
        const moved = { in: { x: 0, y: 0 } };
        await store.putWorkflow({ ...workflow, layout: moved });
        await checkNowAndAfterReopen(async (current) => {
          expect((await current.getWorkflow('s1', 'w1'))?.layout).toEqual(moved);
        });
        await store.putWorkflow(workflow);
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getWorkflow('s1', 'w1')).toEqual(workflow);
        });
      });

      it('drops the layout with its workflow, so a workflow made again under that id has none', async () => {
        await store.putSession(sessionRecord('s1'));
        const workflow = workflowRecord('s1', 'w1');
        await store.putWorkflow({ ...workflow, layout: { in: { x: 1, y: 2 } } });
        expect(await store.deleteWorkflow('s1', 'w1')).toBe(true);
        await store.putWorkflow(workflow);
        await checkNowAndAfterReopen(async (current) => {
          expect((await current.getWorkflow('s1', 'w1'))?.layout).toBeUndefined();
        });
      });

      it('refuses a layout whose positions are not finite numbers with STORE_FAILED', async () => {
        await store.putSession(sessionRecord('s1'));
        const workflow = workflowRecord('s1', 'w1');
        await expect(
          store.putWorkflow({ ...workflow, layout: { in: { x: Number.NaN, y: 0 } } }),
        ).rejects.toMatchObject({ code: 'STORE_FAILED' });
        expect(await store.getWorkflow('s1', 'w1')).toBeUndefined();
      });

      it('stores a workflow with all its versions, oldest first', async () => {
        await store.putSession(sessionRecord('s1'));
        const workflow = workflowRecord('s1', 'w1', 3);
        await store.putWorkflow(workflow);
        await checkNowAndAfterReopen(async (current) => {
          const stored = await current.getWorkflow('s1', 'w1');
          expect(stored).toEqual(workflow);
          expect(stored?.versions.map((version) => version.version)).toEqual([1, 2, 3]);
          expect(stored?.versions[0]?.note).toBeNull();
        });
      });

      it('replaces a workflow put again, keeping exactly the versions passed (SPEC Versioning 3)', async () => {
        await store.putSession(sessionRecord('s1'));
        await store.putWorkflow(workflowRecord('s1', 'w1', 20));
        const trimmed = workflowRecord('s1', 'w1', 21);
        await store.putWorkflow(trimmed);
        await checkNowAndAfterReopen(async (current) => {
          const stored = await current.getWorkflow('s1', 'w1');
          expect(stored).toEqual(trimmed);
          expect(stored?.versions).toHaveLength(20);
          expect(stored?.versions[0]?.version).toBe(2);
        });
      });

      it("lists a session's workflows by workflowId, and only that session's", async () => {
        await store.putSession(sessionRecord('s1'));
        await store.putSession(sessionRecord('s2'));
        for (const workflowId of ['w-b', 'w-c', 'w-a']) {
          await store.putWorkflow(workflowRecord('s1', workflowId));
        }
        await store.putWorkflow(workflowRecord('s2', 'w-0'));
        await checkNowAndAfterReopen(async (current) => {
          const ids = (await current.listWorkflows('s1')).map((workflow) => workflow.workflowId);
          expect(ids).toEqual(['w-a', 'w-b', 'w-c']);
          expect(await current.listWorkflows('s2')).toEqual([workflowRecord('s2', 'w-0')]);
        });
      });

      it('deletes a workflow, answering true once and false for unknown ids', async () => {
        await store.putSession(sessionRecord('s1'));
        await store.putWorkflow(workflowRecord('s1', 'w1'));
        await store.putWorkflow(workflowRecord('s1', 'w2'));
        expect(await store.deleteWorkflow('s1', 'w1')).toBe(true);
        expect(await store.deleteWorkflow('s1', 'w1')).toBe(false);
        expect(await store.deleteWorkflow('s1', 'unknown')).toBe(false);
        expect(await store.deleteWorkflow('unknown', 'w2')).toBe(false);
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getWorkflow('s1', 'w1')).toBeUndefined();
          expect(await current.listWorkflows('s1')).toEqual([workflowRecord('s1', 'w2')]);
        });
      });

      it('keeps a workflow id separate per session', async () => {
        await store.putSession(sessionRecord('s1'));
        await store.putSession(sessionRecord('s2'));
        await store.putWorkflow(workflowRecord('s1', 'w', 1));
        await store.putWorkflow(workflowRecord('s2', 'w', 2));
        await store.deleteWorkflow('s1', 'w');
        expect(await store.getWorkflow('s2', 'w')).toEqual(workflowRecord('s2', 'w', 2));
      });

      it('rejects a workflow of a session that does not exist with STORE_FAILED', async () => {
        await expect(store.putWorkflow(workflowRecord('missing', 'w1'))).rejects.toMatchObject({
          code: 'STORE_FAILED',
        });
        await store.putSession(sessionRecord('gone'));
        await store.deleteSession('gone');
        await expect(store.putWorkflow(workflowRecord('gone', 'w1'))).rejects.toMatchObject({
          code: 'STORE_FAILED',
        });
        expect(await store.listWorkflows('missing')).toEqual([]);
        expect(await store.getSession('missing')).toBeUndefined();
      });

      it('keeps the last of concurrent writes to the same workflow, in call order', async () => {
        await store.putSession(sessionRecord('s1'));
        const writes = Array.from({ length: 25 }, (_, index) =>
          store.putWorkflow(workflowRecord('s1', 'w1', index + 1)),
        );
        await Promise.all(writes);
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.getWorkflow('s1', 'w1')).toEqual(workflowRecord('s1', 'w1', 25));
        });
      });

      it('keeps every one of concurrent writes to different workflows and sessions', async () => {
        const sessionIds = ['s1', 's2', 's3'];
        await Promise.all(sessionIds.map((id) => store.putSession(sessionRecord(id))));
        await Promise.all(
          sessionIds.flatMap((sessionId) =>
            ['w1', 'w2', 'w3'].map((workflowId) =>
              store.putWorkflow(workflowRecord(sessionId, workflowId, 2)),
            ),
          ),
        );
        await checkNowAndAfterReopen(async (current) => {
          for (const sessionId of sessionIds) {
            expect(await current.listWorkflows(sessionId)).toEqual(
              ['w1', 'w2', 'w3'].map((workflowId) => workflowRecord(sessionId, workflowId, 2)),
            );
          }
        });
      });
    });

    describe('copies (SessionStore: every method works on copies)', () => {
      it('is not changed by mutating a session after passing it in', async () => {
        const session = { ...sessionRecord('s1') };
        await store.putSession(session);
        Object.assign(session, { name: 'mutated' });
        expect((await store.getSession('s1'))?.name).toBe('Session s1');
      });

      it('takes its copy when called, not when the write completes', async () => {
        await store.putSession(sessionRecord('s1'));
        const workflow = structuredClone(workflowRecord('s1', 'w1', 2));
        const write = store.putWorkflow(workflow);
        (workflow.versions as WorkflowVersionRecord[]).push(versionRecord('w1', 3));
        await write;
        expect((await store.getWorkflow('s1', 'w1'))?.versions).toHaveLength(2);
      });

      it('is not changed by mutating a workflow after passing it in', async () => {
        await store.putSession(sessionRecord('s1'));
        const workflow = structuredClone(workflowRecord('s1', 'w1', 2));
        await store.putWorkflow(workflow);
        (workflow.versions as WorkflowVersionRecord[]).pop();
        Object.assign(workflow.versions[0]?.definition.nodes[1]?.config ?? {}, { level: 'x' });
        expect(await store.getWorkflow('s1', 'w1')).toEqual(workflowRecord('s1', 'w1', 2));
      });

      it('is not changed by mutating a layout passed in or handed out', async () => {
        await store.putSession(sessionRecord('s1'));
        const layout = { in: { x: 1, y: 2 } };
        await store.putWorkflow({ ...workflowRecord('s1', 'w1'), layout });
        layout.in.x = 99;
        const read = await store.getWorkflow('s1', 'w1');
        expect(() => Object.assign(read?.layout?.in ?? {}, { x: 7 })).toThrow(TypeError);
        expect((await store.getWorkflow('s1', 'w1'))?.layout).toEqual({ in: { x: 1, y: 2 } });
      });

      it('is not changed by mutating what it returned', async () => {
        await store.putSession(sessionRecord('s1'));
        await store.putWorkflow(workflowRecord('s1', 'w1', 2));
        const session = await store.getSession('s1');
        Object.assign(session ?? {}, { name: 'mutated' });
        const [listed] = await store.listSessions();
        Object.assign(listed ?? {}, { description: 'mutated' });
        const workflow = await store.getWorkflow('s1', 'w1');
        (workflow?.versions as WorkflowVersionRecord[] | undefined)?.splice(0);
        const [fromList] = await store.listWorkflows('s1');
        // Saved versions are immutable: they are handed out frozen, so a change fails loudly.
        expect(() =>
          Object.assign(fromList?.versions[1]?.definition ?? {}, { description: 'mutated' }),
        ).toThrow(TypeError);
        expect(await store.getSession('s1')).toEqual(sessionRecord('s1'));
        expect(await store.getWorkflow('s1', 'w1')).toEqual(workflowRecord('s1', 'w1', 2));
      });
    });

    describe('awkward ids', () => {
      it('stores, lists and deletes sessions whose ids have awkward characters', async () => {
        for (const id of AWKWARD_IDS) await store.putSession(sessionRecord(id));
        const sorted = [...AWKWARD_IDS].sort();
        await checkNowAndAfterReopen(async (current) => {
          const listed = (await current.listSessions()).map((session) => session.sessionId);
          expect(listed).toEqual(sorted);
          for (const id of AWKWARD_IDS) {
            expect(await current.getSession(id)).toEqual(sessionRecord(id));
          }
        });
        for (const id of AWKWARD_IDS) expect(await store.deleteSession(id)).toBe(true);
        expect(await store.listSessions()).toEqual([]);
      });

      it('stores, lists and deletes workflows whose ids have awkward characters', async () => {
        const sessionId = AWKWARD_IDS[0] ?? 'a b';
        await store.putSession(sessionRecord(sessionId));
        for (const [index, id] of AWKWARD_IDS.entries()) {
          await store.putWorkflow(workflowRecord(sessionId, id, index + 1));
        }
        const expected = AWKWARD_IDS.map((id, index) => workflowRecord(sessionId, id, index + 1));
        expected.sort((left, right) => (left.workflowId < right.workflowId ? -1 : 1));
        await checkNowAndAfterReopen(async (current) => {
          expect(await current.listWorkflows(sessionId)).toEqual(expected);
          for (const workflow of expected) {
            expect(await current.getWorkflow(sessionId, workflow.workflowId)).toEqual(workflow);
          }
        });
        for (const id of AWKWARD_IDS) expect(await store.deleteWorkflow(sessionId, id)).toBe(true);
        expect(await store.listWorkflows(sessionId)).toEqual([]);
      });
    });

    describe('persistence', () => {
      it('keeps sessions, workflows and deletions across a reopen (SPEC Deployment facts)', async ({
        skip,
      }) => {
        const { reopen } = fixture;
        if (!reopen) return skip('the adapter does not persist');
        await store.putSession(sessionRecord('kept'));
        await store.putWorkflow(workflowRecord('kept', 'w1', 4));
        await store.putWorkflow(workflowRecord('kept', 'w2', 1));
        await store.putSession(sessionRecord('dropped'));
        await store.putWorkflow(workflowRecord('dropped', 'w1', 1));
        await store.deleteSession('dropped');
        await store.deleteWorkflow('kept', 'w2');

        const current = await reopened(reopen);
        expect(await current.listSessions()).toEqual([sessionRecord('kept')]);
        expect(await current.listWorkflows('kept')).toEqual([workflowRecord('kept', 'w1', 4)]);
        expect(await current.getSession('dropped')).toBeUndefined();

        await current.putWorkflow(workflowRecord('kept', 'w1', 5));
        const again = await reopened(reopen);
        expect(await again.getWorkflow('kept', 'w1')).toEqual(workflowRecord('kept', 'w1', 5));
      });
    });
  });
}
