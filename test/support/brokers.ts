// What the broker tests share whatever the broker: a workflow that fails odd numbers, and the
// server's resident memory.
import { readFile } from 'node:fs/promises';

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
