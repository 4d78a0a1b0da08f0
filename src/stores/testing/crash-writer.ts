// Child process of the crash test in ../file/file-session-store.test.ts: saves versions of one
// workflow in a tight loop and prints each version number only after its write has resolved.
import type { WorkflowVersionRecord } from '../../engine/index.js';
import { FileSessionStore } from '../file/file-session-store.js';

const KEPT_VERSIONS = 20;
const CREATED = '2026-01-01T00:00:00.000Z';

async function writeForever(baseDir: string, sessionId: string, workflowId: string) {
  const store = new FileSessionStore({ baseDir });
  await store.open();
  await store.putSession({
    sessionId,
    name: 'crash',
    initiator: 'crash-writer',
    description: '',
    createdAt: CREATED,
    updatedAt: CREATED,
  });
  const versions: WorkflowVersionRecord[] = [];
  for (let version = 1; ; version++) {
    versions.push({
      version,
      createdAt: CREATED,
      author: 'crash-writer',
      note: null,
      definition: {
        workflowId,
        // Padding makes each write span several disk blocks, so a torn write would show.
        description: `version ${version} ${'x'.repeat(32_768)}`,
        nodes: [{ nodeId: 'in', type: 'MANUAL_TRIGGER' }],
        edges: [],
      },
    });
    if (versions.length > KEPT_VERSIONS) versions.shift();
    await store.putWorkflow({ sessionId, workflowId, createdAt: CREATED, versions });
    process.stdout.write(`${version}\n`);
  }
}

const [baseDir, sessionId, workflowId] = process.argv.slice(2);
if (baseDir === undefined || sessionId === undefined || workflowId === undefined) {
  process.stderr.write('usage: crash-writer <baseDir> <sessionId> <workflowId>\n');
  process.exitCode = 2;
} else {
  await writeForever(baseDir, sessionId, workflowId);
}
