// What the broker tests share whatever the broker: their server process, a workflow that fails
// odd numbers, and the server's resident memory.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Restartable } from './restored-history.js';

/** Resident memory of a process in bytes, from /proc. */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/**
 * A workflow of a consumer (`subscribe`, a broker's consumer node with id `in`) whose odd
 * numbers fail on both attempts of the next node and are skipped; even ones reach a terminal.
 */
export function oddFailing(workflowId: string, subscribe: Record<string, unknown>) {
  return {
    workflowId,
    description: 'fails odd numbers',
    nodes: [
      subscribe,
      {
        nodeId: 'check',
        type: 'MAPPER',
        config: {
          expression: 'n % 2 = 1 ? $error("odd") : $',
          onError: 'SKIP',
          engine: { retry: { maxAttempts: 2, backoffMs: 0 } },
        },
      },
      { nodeId: 'end', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'check' },
      { source: 'check', target: 'end' },
    ],
  };
}

/**
 * A server process for a broker test, with the file stores under `dir` (so a kill -9 and a
 * restart keep the sessions, the log and the checkpoints) and a heap below the 160 MB of
 * payloads the backlog tests send through: a server that held them would end.
 */
export function brokerServers(dir: string): Restartable {
  return new Restartable(
    [],
    () => ({
      SVC_SESSION_STORE_TYPE: 'file',
      SVC_SESSION_BASE_DIR: path.join(dir, 'sessions'),
      SVC_EXECUTION_LOG_DIR: path.join(dir, 'log'),
      SVC_RESTART_DIR: path.join(dir, 'checkpoints'),
      SVC_LOGGING_LEVEL_ENGINE: 'INFO',
      NODE_OPTIONS: '--max-old-space-size=128',
    }),
    // The server starts from its sources; on a busy machine that takes a while.
    60_000,
  );
}
