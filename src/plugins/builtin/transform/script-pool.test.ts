import { afterEach, describe, expect, it } from 'vitest';
import { ScriptPool } from './script-pool.js';
import type { ScriptHandle, ScriptJob } from './script-pool.js';
import type { ConsoleLine, ScriptLimits } from './script-protocol.js';

const LIMITS: ScriptLimits = {
  timeoutMs: 10_000,
  maxStatements: 2_000_000_000,
  maxMemory: 64 * 1024 * 1024,
};

/**
 * Built without a loop, then sorted by the default `sort`, which has no interrupt point: QuickJS
 * first checks its limits after thousands of sorts, seconds into the run.
 */
const UNINTERRUPTIBLE =
  'const a = Object.keys(Array(5000).fill(0)).reverse(); for (;;) a.sort().reverse();';

const COUNTER = 'globalThis.n = (globalThis.n || 0) + 1; return n;';

let pool: ScriptPool | undefined;

afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function poolOf(workers = 1, sandboxesPerWorker?: number): ScriptPool {
  pool = new ScriptPool({
    workers,
    ...(sandboxesPerWorker === undefined ? {} : { sandboxesPerWorker }),
  });
  return pool;
}

function job(
  script: string,
  options: Partial<ScriptJob> = {},
): ScriptJob & { lines: ConsoleLine[] } {
  const lines: ConsoleLine[] = [];
  return {
    script,
    input: JSON.stringify({ payload: null, message: {} }),
    limits: LIMITS,
    signal: new AbortController().signal,
    log: (written) => lines.push(...written),
    lines,
    ...options,
  };
}

async function resultOf(running: ScriptPool, handle: ScriptHandle, script: string) {
  return JSON.parse(await running.run(handle, job(script))) as unknown;
}

/** The longest a timer of the event loop waited past its time, over `whileRunning`. */
async function worstTimerDelay(whileRunning: Promise<unknown>): Promise<number> {
  let worst = 0;
  let done = false;
  void whileRunning.finally(() => (done = true)).catch(() => undefined);
  while (!done) {
    const asked = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
    worst = Math.max(worst, performance.now() - asked - 10);
  }
  return worst;
}

describe('ScriptPool', () => {
  it('runs a script on a worker thread, leaving the event loop free while it loops, and stops it at svc.script.timeout-ms', async () => {
    const running = poolOf();
    const handle = running.open();
    expect(running.running).toBe(0);
    expect(await resultOf(running, handle, 'return 1;')).toBe(1);
    const endless = running.run(
      handle,
      job('while (true) {}', { limits: { ...LIMITS, timeoutMs: 600 } }),
    );
    const delay = await worstTimerDelay(endless);
    await expect(endless).rejects.toThrow('Script ran longer than svc.script.timeout-ms (600 ms)');
    await expect(endless).rejects.toHaveProperty('retryable', false);
    // The loop never reaches the event loop; only the machine's own scheduling delays a timer,
    // whereas a script on the event loop would hold it for the whole 600 ms.
    expect(delay).toBeLessThan(300);
    expect(running.running).toBe(1);
  });

  it('sends the console lines back with the result, and keeps the globals of a handle between runs', async () => {
    const running = poolOf();
    const handle = running.open();
    const logged = job('console.log("n is", 1, { a: 2 }); console.warn("w"); return 7;');
    expect(await running.run(handle, logged)).toBe('7');
    expect(logged.lines).toEqual([
      ['info', 'n is 1 {"a":2}'],
      ['warn', 'w'],
    ]);
    expect(await resultOf(running, handle, COUNTER)).toBe(1);
    expect(await resultOf(running, handle, COUNTER)).toBe(2);
    expect(await resultOf(running, running.open(), COUNTER)).toBe(1);
  });

  it('keeps at most sandboxesPerWorker sandboxes a worker, dropping the one used least recently', async () => {
    const running = poolOf(1, 2);
    const [a, b, c] = [running.open(), running.open(), running.open()];
    expect(await resultOf(running, a, COUNTER)).toBe(1);
    expect(await resultOf(running, b, COUNTER)).toBe(1);
    expect(await resultOf(running, a, COUNTER)).toBe(2);
    // A third sandbox pushes out b, the one used least recently.
    expect(await resultOf(running, c, COUNTER)).toBe(1);
    expect(await resultOf(running, a, COUNTER)).toBe(3);
    expect(await resultOf(running, b, COUNTER)).toBe(1);
    // A released handle's sandbox goes at once.
    running.release(a);
    const d = running.open();
    expect(await resultOf(running, d, COUNTER)).toBe(1);
    expect(await resultOf(running, b, COUNTER)).toBe(2);
  });

  it('terminates a worker that does not answer within the time limit and a grace, and starts another', async () => {
    const running = poolOf();
    const hung = running.open();
    const other = running.open();
    expect(await resultOf(running, other, COUNTER)).toBe(1);
    const started = performance.now();
    const stuck = running.run(
      hung,
      job(UNINTERRUPTIBLE, { limits: { ...LIMITS, timeoutMs: 200 } }),
    );
    await expect(stuck).rejects.toThrow('Script ran longer than svc.script.timeout-ms (200 ms)');
    expect(performance.now() - started).toBeLessThan(5000);
    // The new worker serves the same handles; what the old one kept went with it.
    expect(await resultOf(running, other, COUNTER)).toBe(1);
    expect(running.started).toBe(2);
  });

  it('gives up a script when its signal aborts, within a second, whether or not it can be interrupted', async () => {
    const running = poolOf();
    const handle = running.open();
    for (const script of ['while (true) {}', UNINTERRUPTIBLE]) {
      const controller = new AbortController();
      const run = running.run(handle, job(script, { signal: controller.signal }));
      await expect.poll(() => running.busy).toBe(true);
      const stopped = performance.now();
      controller.abort(new Error('Run stopped'));
      await expect(run).rejects.toThrow('Run stopped');
      // The worker is free again (interrupted, or terminated after the grace) within a second.
      await expect.poll(() => running.busy, { timeout: 2000 }).toBe(false);
      expect(performance.now() - stopped).toBeLessThan(1500);
    }
    expect(await resultOf(running, handle, 'return 1;')).toBe(1);
    // The loop was interrupted; the sort needed a new worker.
    expect(running.started).toBe(2);
  });

  it('fails a script over svc.script.max-memory, and gives its handle a fresh sandbox', async () => {
    const running = poolOf();
    const handle = running.open();
    const limits = { ...LIMITS, maxMemory: 8 * 1024 * 1024 };
    expect(await running.run(handle, job(COUNTER, { limits }))).toBe('1');
    const hungry = running.run(
      handle,
      job('const a = []; for (;;) a.push(new Uint8Array(1 << 20));', { limits }),
    );
    await expect(hungry).rejects.toThrow(
      'Script used more memory than svc.script.max-memory (8388608 bytes)',
    );
    await expect(hungry).rejects.toHaveProperty('retryable', false);
    expect(await running.run(handle, job(COUNTER, { limits }))).toBe('1');
  });

  it('reports a script that throws or does not compile, without retry', async () => {
    const running = poolOf();
    await expect(running.run(running.open(), job('throw new RangeError("no")'))).rejects.toThrow(
      'Script failed: RangeError: no',
    );
    await expect(running.run(running.open(), job('return {'))).rejects.toThrow(
      /^Invalid script: SyntaxError/,
    );
  });

  it('pins handles to the workers with the fewest, starting each worker on first use', async () => {
    const running = poolOf(2);
    const handles = [running.open(), running.open(), running.open()];
    expect(handles.map((handle) => handle.slot)).toEqual([0, 1, 0]);
    expect(running.running).toBe(0);
    await resultOf(running, handles[1] as ScriptHandle, 'return 1;');
    expect(running.running).toBe(1);
  });

  it('ends its workers and fails waiting runs when closed, and refuses runs after', async () => {
    const running = poolOf();
    const handle = running.open();
    const endless = running.run(handle, job('while (true) {}'));
    const waiting = running.run(handle, job('return 1;'));
    await expect.poll(() => running.busy).toBe(true);
    const refused = Promise.all([
      expect(endless).rejects.toThrow('Scripts are stopping'),
      expect(waiting).rejects.toThrow('Scripts are stopping'),
    ]);
    await running.close();
    await refused;
    expect(running.running).toBe(0);
    await expect(running.run(handle, job('return 1;'))).rejects.toThrow('Scripts are stopping');
  });
});
