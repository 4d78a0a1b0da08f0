// What the broker tests share whatever the broker: their server process, a workflow that fails
// odd numbers, and the memory the server holds live.
import path from 'node:path';
import { expect } from 'vitest';
import type { ServerProcess } from './process.js';
import { Restartable } from './restored-history.js';

/** What a server process holds once a full garbage collection has run, in bytes. */
export interface LiveMemory {
  /** The JavaScript heap. */
  readonly heap: number;
  /** Memory outside the heap held by JavaScript objects: buffers, mostly. */
  readonly buffers: number;
}

/**
 * The memory a server process started by `brokerServers` holds live, asked of it through its
 * inspector: a full collection first, then `process.memoryUsage()`. Resident memory would also
 * count garbage not yet collected, and how much of it there is depends on the host's load; what
 * survives a full collection is what the server keeps.
 */
export async function liveMemory(server: ServerProcess): Promise<LiveMemory> {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(server.output())?.[1];
  if (url === undefined) throw new Error('The server process has no inspector (--inspect).');
  const socket = new WebSocket(url);
  const answers = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) answers.get(message.id)?.(message.result);
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let next = 0;
  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((resolve) => {
      next += 1;
      answers.set(next, resolve);
      socket.send(JSON.stringify({ id: next, method, params }));
    });
  try {
    await send('HeapProfiler.collectGarbage');
    const evaluated = (await send('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    })) as { result: { value: string } };
    const usage = JSON.parse(evaluated.result.value) as NodeJS.MemoryUsage;
    return { heap: usage.heapUsed, buffers: usage.external };
  } finally {
    socket.close();
  }
}

/**
 * Holds the server to keeping less than `bound` more bytes live, on its heap and in buffers, at
 * `late` than at `early`: what flows through must not stay.
 */
export function expectFlat(early: LiveMemory, late: LiveMemory, bound: number): void {
  const said = `live memory ${JSON.stringify(early)} then ${JSON.stringify(late)}`;
  expect(late.heap - early.heap, said).toBeLessThan(bound);
  expect(late.buffers - early.buffers, said).toBeLessThan(bound);
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
      // The inspector, on a port of its own on loopback, is how liveMemory asks for a collection.
      NODE_OPTIONS: '--max-old-space-size=128 --inspect=127.0.0.1:0',
    }),
    // The server starts from its sources; on a busy machine that takes a while.
    60_000,
  );
}
