// The executions layer over real file stores: restart rule 5, svc.checkpoint.errors, the
// recover and restart refusals that a server cannot easily be brought to (every node finished,
// a start payload too large to record, a deleted workflow), and the execution log's trims.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSequentialIds, systemClock } from '../core/index.js';
import type { CheckpointStore, CheckpointWriter } from '../engine/index.js';
import { Meters } from '../observability/index.js';
import type { MemorySessionStore } from '../stores/index.js';
import {
  EXECUTION_LOG_FILE,
  FileCheckpointStore,
  FileExecutionLog,
  MemoryCheckpointStore,
} from '../stores/index.js';
import { ExecutionJournal } from './execution-journal.js';
import { ExecutionManager } from './execution-manager.js';
import { sessionStoreWith, testManagerDeps, testRegistry, waitUntil } from './testing/index.js';

const flow = {
  workflowId: 'w',
  description: '',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};

/** A store whose end markers cannot be saved; everything else is the wrapped store's. */
class FailingMarkers implements CheckpointStore {
  readonly kind;
  readonly durable;
  constructor(readonly inner: CheckpointStore) {
    this.kind = inner.kind;
    this.durable = inner.durable;
  }
  get bytes(): number {
    return this.inner.bytes;
  }
  open = (): Promise<void> => this.inner.open();
  close = (): Promise<void> => this.inner.close();
  writer(executionId: string): CheckpointWriter {
    const writer = this.inner.writer(executionId);
    return {
      node: (nodeId) => {
        const node = writer.node(nodeId);
        return {
          record: (message) => node.record(message),
          end: () => Promise.reject(new Error('disk full')),
        };
      },
      approval: (answer) => writer.approval(answer),
      close: () => writer.close(),
    };
  }
  summary = (id: string) => this.inner.summary(id);
  output = (id: string, nodeId: string) => this.inner.output(id, nodeId);
  approvals = (id: string) => this.inner.approvals(id);
  drop = (id: string) => this.inner.drop(id);
  executions = () => this.inner.executions();
}

interface Harness {
  readonly manager: ExecutionManager;
  readonly meters: Meters;
  readonly dropped: string[];
  close(): Promise<void>;
}

describe('durability in the executions layer', () => {
  let dir: string;
  let store: MemorySessionStore;
  const open: Harness[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'executions-durability-'));
    store = await sessionStoreWith([flow]);
  });

  afterEach(async () => {
    for (const harness of open.splice(0)) await harness.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A manager over the file stores in `dir`; a second one over the same files is a restart. */
  async function harness(
    options: {
      retainedRuns?: number;
      compactAfter?: number;
      checkpoints?: CheckpointStore;
    } = {},
  ): Promise<Harness> {
    const meters = new Meters();
    const dropped: string[] = [];
    const checkpoints =
      options.checkpoints ?? new FileCheckpointStore({ dir: path.join(dir, 'checkpoints') });
    await checkpoints.open();
    const journal = new ExecutionJournal({
      store: new FileExecutionLog({ dir: path.join(dir, 'log'), onAppendFailed: () => undefined }),
      retainedRuns: options.retainedRuns ?? 100,
      compactAfter: options.compactAfter ?? 10_000,
      now: () => systemClock.now(),
      onDrop: (executionId) => {
        dropped.push(executionId);
        void checkpoints.drop(executionId);
      },
    });
    const manager = new ExecutionManager(
      testManagerDeps(store, {
        registry: testRegistry(100),
        clock: systemClock,
        ids: createSequentialIds(`e${open.length}`),
        meters,
        checkpoints,
        journal,
      }),
    );
    await manager.boot({ autoResume: false });
    const made: Harness = {
      manager,
      meters,
      dropped,
      close: async () => {
        await manager.stopAll('done');
        await journal.close(1000);
        await checkpoints.close();
      },
    };
    open.push(made);
    return made;
  }

  async function runToEnd(manager: ExecutionManager, payload?: unknown): Promise<string> {
    const { executionId } = await manager.start({ sessionId: 's', workflowId: 'w', payload });
    await manager.require(executionId).finished;
    return executionId;
  }

  /**
   * A run that completed, whose end is then taken out of the log, and a manager started again
   * over the same files: the run is ABORTED with every node finished.
   */
  async function abortedRun(
    payload: unknown = 1,
  ): Promise<{ id: string; manager: ExecutionManager }> {
    const first = await harness();
    const id = await runToEnd(first.manager, payload);
    await first.close();
    open.splice(open.indexOf(first), 1);
    await forgetEnd(id);
    return { id, manager: (await harness()).manager };
  }

  /** Takes a run's end out of the log, as a crash right before it was written would. */
  async function forgetEnd(executionId: string): Promise<void> {
    const file = path.join(dir, 'log', EXECUTION_LOG_FILE);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const kept = lines.filter(
      (line) => !(line.includes('"run.ended"') && line.includes(`"${executionId}"`)),
    );
    await writeFile(file, kept.join('\n'));
  }

  it('refuses a second restart of the same execution while one is in progress (rule 5)', async () => {
    const { manager } = await harness();
    const id = await runToEnd(manager, 1);
    const first = manager.restart(id, { kind: 'whole' });
    await expect(manager.restart(id, { kind: 'whole' })).rejects.toMatchObject({
      code: 'RESTART_IN_PROGRESS',
    });
    await first;
  });

  it('counts a marker that cannot be saved in svc.checkpoint.errors and lets the run complete', async () => {
    const failing = new FailingMarkers(new MemoryCheckpointStore());
    const { manager, meters } = await harness({ checkpoints: failing });
    const id = await runToEnd(manager, 1);
    expect(manager.require(id).status).toBe('COMPLETED');
    expect(await meters.read('svc.checkpoint.errors')).toBe(2);
  });

  it("shows an interrupted run's nodes as their end markers tell, also when the log lacks their end", async () => {
    const first = await harness();
    const id = await runToEnd(first.manager, 1);
    await first.close();
    open.splice(0);
    await forgetEnd(id);
    // The crash came after the end marker of `out`, before the log had any of its events.
    const file = path.join(dir, 'log', EXECUTION_LOG_FILE);
    const lines = (await readFile(file, 'utf8')).split('\n');
    await writeFile(file, lines.filter((line) => !line.includes('"nodeId":"out"')).join('\n'));
    const { manager } = await harness();
    const nodes = manager.require(id).nodes;
    expect(nodes.map((node) => [node.nodeId, node.type, node.status])).toEqual([
      ['in', 'API_TRIGGER', 'COMPLETED'],
      ['out', 'CONSOLE_TERMINAL', 'COMPLETED'],
    ]);
  });

  it('refuses to recover a run whose every node already finished (409)', async () => {
    const { id, manager } = await abortedRun();
    expect(manager.require(id).status).toBe('ABORTED');
    await expect(manager.recover(id)).rejects.toMatchObject({
      code: 'RECOVER_REFUSED',
      message: expect.stringContaining('every node already finished') as unknown,
    });
  });

  it('refuses a second recover of a run while the first is under way (409)', async () => {
    const { id, manager } = await abortedRun();
    // How the first one ends does not matter here, only that it is under way.
    const resuming = manager.recover(id).catch((error: unknown) => error);
    await expect(manager.recover(id)).rejects.toMatchObject({
      message: expect.stringContaining('being resumed') as unknown,
    });
    await resuming;
  });

  it('refuses to recover a run whose start payload was too large to record (409)', async () => {
    const { id, manager } = await abortedRun('x'.repeat(1_100_000));
    await expect(manager.recover(id)).rejects.toMatchObject({
      message: expect.stringContaining('start payload was not recorded') as unknown,
    });
  });

  it('answers 404 to recover a run whose workflow no longer exists', async () => {
    const first = await harness();
    const id = await runToEnd(first.manager, 1);
    await first.close();
    open.splice(0);
    await forgetEnd(id);
    await store.deleteWorkflow('s', 'w');
    const { manager } = await harness();
    await expect(manager.recover(id)).rejects.toMatchObject({ code: 'WORKFLOW_NOT_FOUND' });
  });

  /** A run that ended in an earlier manager, and the manager that restored it. */
  async function restoredRun(
    payload?: unknown,
  ): Promise<{ id: string; manager: ExecutionManager }> {
    const first = await harness();
    const id = await runToEnd(first.manager, payload);
    await first.close();
    open.splice(0);
    return { id, manager: (await harness()).manager };
  }

  it('restarts a run of an earlier manager from the checkpoints and log on files (Restart rule 1)', async () => {
    const { id, manager } = await restoredRun(7);
    const answer = await manager.restart(id, { kind: 'from', nodeId: 'out' });
    const again = manager.require(answer.executionId);
    await again.finished;
    expect(again).toMatchObject({ status: 'COMPLETED', restartOf: id });
    expect(again.results.map((result) => result.payload)).toEqual([7]);
  });

  it('refuses with 404 a restart of a run of an earlier manager whose start payload was not recorded, or whose version is gone', async () => {
    const large = await restoredRun('x'.repeat(1_100_000));
    await expect(large.manager.restart(large.id, { kind: 'whole' })).rejects.toMatchObject({
      code: 'NOT_RESTARTABLE',
      message: expect.stringContaining('its start payload was not recorded') as unknown,
    });
    const { id, manager } = await restoredRun(1);
    await store.deleteWorkflow('s', 'w');
    await expect(manager.restart(id, { kind: 'whole' })).rejects.toMatchObject({
      code: 'NOT_RESTARTABLE',
      message: `Execution '${id}' is no longer restartable: version 1 of workflow 'w', which it ran, is no longer saved`,
    });
  });

  it('keeps the newest runs in the log, drops older ones with their checkpoints, and compacts', async () => {
    const { manager, dropped } = await harness({ retainedRuns: 3, compactAfter: 20 });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await runToEnd(manager, i));
    await manager.durableNow();
    expect(dropped).toEqual(ids.slice(0, 7));
    const files = new FileCheckpointStore({ dir: path.join(dir, 'checkpoints') });
    await files.open();
    // Dropping a run's checkpoints goes on after the log has forgotten it.
    const kept = ids.slice(7).sort().join();
    await waitUntil(
      async () => [...(await files.executions())].sort().join() === kept,
      'the checkpoints of the dropped runs to go',
    );
    await files.close();
    // Compaction rewrote the log: it holds no event of a dropped run.
    const log = await readFile(path.join(dir, 'log', EXECUTION_LOG_FILE), 'utf8');
    expect(log).not.toContain(`"${ids[0]}"`);
    expect(log.trim().split('\n').length).toBeLessThan(10 * 6);
  });
});
