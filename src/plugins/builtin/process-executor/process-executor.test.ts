import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StepFailure } from '../../../plugin-api/index.js';
import type { MessageProcessor } from '../../../plugin-api/index.js';
import { createTestContext, message, processAll, waitUntil } from '../../testing/index.js';
import { MAX_OUTPUT_BYTES, processExecutorPlugin } from './process-executor.js';
import type { ProcessSettings } from './process-executor.js';

const NODE = process.execPath;
/** Node allowed by the list: most tests run `node -e <script>`. */
/** Process execution off, as a server's defaults have it. */
const OFF: ProcessSettings = {
  'svc.process.allowed-commands': [],
  'svc.process.allow-any': false,
};
const NODE_ONLY: ProcessSettings = { ...OFF, 'svc.process.allowed-commands': [NODE] };
const ANY: ProcessSettings = { ...OFF, 'svc.process.allow-any': true };

let dir = '';
const started: number[] = [];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'process-executor-')));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A failed assertion must not leave a test's process behind.
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone: the expected case.
    }
  }
});

function runtimeOf(config: unknown, settings: ProcessSettings = NODE_ONLY): MessageProcessor {
  return processExecutorPlugin.create!(processExecutorPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings,
  }) as MessageProcessor;
}

function nodeScript(script: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: NODE, args: ['-e', script], ...extra };
}

async function failureOf(work: Promise<unknown>): Promise<StepFailure> {
  const error: unknown = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof StepFailure))
    throw new Error(`expected a StepFailure, got ${String(error)}`);
  return error;
}

async function failureOfRun(runtime: MessageProcessor): Promise<StepFailure> {
  return failureOf(Promise.resolve().then(() => runtime.process(message({}), createTestContext())));
}

/** A script that records its pid in `file` and then runs until it is killed. */
function foreverScript(file: string, ignoreTerm = false): string {
  return [
    ignoreTerm ? "process.on('SIGTERM', () => {});" : '',
    `require('node:fs').writeFileSync(${JSON.stringify(file)}, String(process.pid));`,
    'setInterval(() => {}, 1000);',
  ].join('');
}

/** Waits, at most 10 s, for a process to write its pid. */
async function pidFrom(file: string): Promise<number> {
  const written = (): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  await waitUntil(() => written() !== '', `a pid written to ${file}`, 10_000);
  const pid = Number(written());
  started.push(pid);
  return pid;
}

/** Whether `pid` runs; a zombie left for a parent that never reaps it counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; the name before it is in parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

describe('PROCESS_EXECUTOR run time', () => {
  it('emits the exit code, stdout and stderr of each run on out (CONTRACT 2: PROCESS_EXECUTOR)', async () => {
    const script = "process.stdout.write('out ' + process.argv[1]); process.stderr.write('err')";
    const runtime = runtimeOf({ command: NODE, args: ['-e', script, 'x y'] });
    const emits = await processAll(runtime, [message(1), message(2)]);
    expect(emits).toEqual([
      { payload: { exitCode: 0, stdout: 'out x y', stderr: 'err' } },
      { payload: { exitCode: 0, stdout: 'out x y', stderr: 'err' } },
    ]);
  });

  it('fails a message on a non-zero exit with a retryable failure naming the code and the first line of stderr (CONTRACT 2: PROCESS_EXECUTOR)', async () => {
    const runtime = runtimeOf(
      nodeScript("process.stderr.write('\\n  disk full  \\nmore detail\\n'); process.exit(3)"),
    );
    const failure = await failureOfRun(runtime);
    expect(failure.retryable).toBe(true);
    expect(failure.message).toBe(`Command '${NODE}' exited with code 3: disk full`);
  });

  it('writes stdin to the command and closes it', async () => {
    const script =
      "let s = ''; process.stdin.on('data', (c) => (s += c)); process.stdin.on('end', () => process.stdout.write(s.toUpperCase()))";
    const emits = await processAll(runtimeOf(nodeScript(script, { stdin: 'hello\nworld' })), [
      message(null),
    ]);
    expect(emits[0]?.payload).toMatchObject({ stdout: 'HELLO\nWORLD' });
  });

  it('gives the command an empty input when no stdin is configured', async () => {
    const script =
      "let n = 0; process.stdin.on('data', (c) => (n += c.length)); process.stdin.on('end', () => process.stdout.write(String(n)))";
    const emits = await processAll(runtimeOf(nodeScript(script)), [message(null)]);
    expect(emits[0]?.payload).toMatchObject({ stdout: '0' });
  });

  it('passes only PATH, HOME and LANG of the server, with the configured env over them', async () => {
    process.env['SVC_TEST_LEAK'] = 'leaked';
    try {
      const runtime = runtimeOf(
        nodeScript('process.stdout.write(JSON.stringify(process.env))', {
          env: { EXTRA: 'one', LANG: 'C' },
        }),
      );
      const emits = await processAll(runtime, [message(null)]);
      const env = JSON.parse((emits[0]?.payload as { stdout: string }).stdout) as Record<
        string,
        string
      >;
      expect(env).toMatchObject({ EXTRA: 'one', LANG: 'C' });
      expect(env['PATH']).toBe(process.env['PATH']);
      expect(env['SVC_TEST_LEAK']).toBeUndefined();
      for (const name of Object.keys(env))
        expect(['PATH', 'HOME', 'LANG', 'EXTRA']).toContain(name);
    } finally {
      delete process.env['SVC_TEST_LEAK'];
    }
  });

  it('runs the command in the configured working directory', async () => {
    const runtime = runtimeOf(nodeScript('process.stdout.write(process.cwd())', { cwd: dir }));
    const emits = await processAll(runtime, [message(null)]);
    expect(emits[0]?.payload).toMatchObject({ stdout: dir });
  });

  it('fails without retry when the working directory does not exist, saying so', async () => {
    const missing = path.join(dir, 'missing');
    const failure = await failureOfRun(runtimeOf(nodeScript('', { cwd: missing })));
    expect(failure.retryable).toBe(false);
    expect(failure.message).toBe(
      `Command '${NODE}' could not be started: working directory '${missing}' does not exist`,
    );
  });

  it('fails without retry, naming the command, when the executable does not exist', async () => {
    const failure = await failureOfRun(runtimeOf({ command: 'no-such-command-4711' }, ANY));
    expect(failure.retryable).toBe(false);
    expect(failure.message).toBe("Command 'no-such-command-4711' was not found");
  });

  it('refuses arguments Node cannot pass without quoting them in the failure', async () => {
    const failure = await failureOfRun(runtimeOf({ command: NODE, args: ['pw-\u0000-secret'] }));
    expect(failure.retryable).toBe(false);
    expect(failure.message).toBe(`Command '${NODE}' could not be started (ERR_INVALID_ARG_VALUE)`);
  });

  it('caps stdout and stderr at 1 MiB each and marks the cut', async () => {
    const size = MAX_OUTPUT_BYTES + 1000;
    const runtime = runtimeOf(
      nodeScript(
        `process.stdout.write('o'.repeat(${size})); process.stderr.write('e'.repeat(${size}))`,
      ),
    );
    const emits = await processAll(runtime, [message(null)]);
    const { stdout, stderr } = emits[0]?.payload as { stdout: string; stderr: string };
    expect(stdout).toBe(`${'o'.repeat(MAX_OUTPUT_BYTES)}\n[truncated: 1000 more bytes]`);
    expect(stderr).toBe(`${'e'.repeat(MAX_OUTPUT_BYTES)}\n[truncated: 1000 more bytes]`);
  });

  it('kills the command when the node is stopped, and returns once it is gone', async () => {
    const file = path.join(dir, 'abort.pid');
    const ctx = createTestContext();
    const running = Promise.resolve(
      runtimeOf(nodeScript(foreverScript(file))).process(message(null), ctx),
    );
    const pid = await pidFrom(file);
    expect(isAlive(pid)).toBe(true);
    ctx.abort(new Error('stopped by test'));
    await expect(running).rejects.toThrow('stopped by test');
    expect(isAlive(pid)).toBe(false);
  });

  it('sends SIGKILL after the grace period to a command that ignores SIGTERM', async () => {
    const file = path.join(dir, 'stubborn.pid');
    const ctx = createTestContext();
    const running = Promise.resolve(
      runtimeOf(nodeScript(foreverScript(file, true))).process(message(null), ctx),
    );
    const pid = await pidFrom(file);
    const abortedAt = Date.now();
    ctx.abort();
    await expect(running).rejects.toThrow('aborted');
    expect(Date.now() - abortedAt).toBeGreaterThanOrEqual(1900);
    expect(isAlive(pid)).toBe(false);
  });

  it('kills what a shell command started when the node is stopped', async () => {
    const file = path.join(dir, 'grandchild.pid');
    const line = `"${NODE}" -e ${shellQuote(foreverScript(file))} & wait`;
    const ctx = createTestContext();
    const running = Promise.resolve(
      runtimeOf({ command: line, useShell: true }, ANY).process(message(null), ctx),
    );
    const pid = await pidFrom(file);
    ctx.abort();
    await expect(running).rejects.toThrow('aborted');
    expect(isAlive(pid)).toBe(false);
  });

  it('kills a command still running when the node closes without a stop signal', async () => {
    const file = path.join(dir, 'close.pid');
    const runtime = runtimeOf(nodeScript(foreverScript(file)));
    const running = Promise.resolve(runtime.process(message(null), createTestContext()));
    const pid = await pidFrom(file);
    const failed = failureOf(running);
    await runtime.close?.();
    expect(isAlive(pid)).toBe(false);
    const failure = await failed;
    expect(failure.message).toBe(`Command '${NODE}' was ended by SIGTERM`);
  });

  it('starts nothing for a message whose node is already stopped', async () => {
    const file = path.join(dir, 'never.pid');
    const ctx = createTestContext();
    ctx.abort();
    await expect(
      Promise.resolve().then(() =>
        runtimeOf(nodeScript(foreverScript(file))).process(message(null), ctx),
      ),
    ).rejects.toThrow('aborted');
    expect(existsSync(file)).toBe(false);
  });
});

describe('PROCESS_EXECUTOR reports (SPEC Meters: svc.plugin.events)', () => {
  it('reports every run as process.run by how it ended: completed, failed, stopped or refused', async () => {
    const ctx = createTestContext();
    await runtimeOf(nodeScript('')).process(message(1), ctx);
    await failureOf(
      Promise.resolve(runtimeOf(nodeScript('process.exit(2)')).process(message(2), ctx)),
    );
    await failureOf(
      Promise.resolve().then(() => runtimeOf({ command: 'node' }).process(message(3), ctx)),
    );
    const stopped = createTestContext();
    stopped.abort();
    await expect(
      Promise.resolve().then(() => runtimeOf(nodeScript('')).process(message(4), stopped)),
    ).rejects.toThrow('aborted');
    expect(ctx.reports).toEqual([
      'process.run:completed',
      'process.run:failed',
      'process.run:refused',
    ]);
    expect(stopped.reports).toEqual(['process.run:stopped']);
  });
});

describe('PROCESS_EXECUTOR safeguards (SPEC Workflow-author safeguards)', () => {
  it('refuses every message while process execution is off', async () => {
    const failure = await failureOfRun(runtimeOf({ command: NODE }, OFF));
    expect(failure.retryable).toBe(false);
    expect(failure.message).toBe(
      'Process execution is disabled: set svc.process.allowed-commands or svc.process.allow-any',
    );
  });

  it('refuses useShell while an allow-list is set, even for a listed command', async () => {
    const failure = await failureOfRun(runtimeOf({ command: NODE, useShell: true }));
    expect(failure.retryable).toBe(false);
    expect(failure.message).toBe(
      'useShell is not allowed while svc.process.allowed-commands is set',
    );
  });

  it('refuses a command that is not in the allow-list, matched exactly', async () => {
    const failure = await failureOfRun(runtimeOf({ command: 'node' }));
    expect(failure.retryable).toBe(false);
    expect(failure.message).toBe("Command 'node' is not in svc.process.allowed-commands");
  });

  it('runs a listed command given by its exact name', async () => {
    const safeguards = { ...OFF, 'svc.process.allowed-commands': ['/bin/echo', 'true'] };
    const emits = await processAll(
      runtimeOf({ command: '/bin/echo', args: ['a', 'b'] }, safeguards),
      [message(null)],
    );
    expect(emits).toEqual([{ payload: { exitCode: 0, stdout: 'a b\n', stderr: '' } }]);
  });

  it('ignores allow-any while the allow-list is set', async () => {
    const safeguards = { ...NODE_ONLY, 'svc.process.allow-any': true };
    const failure = await failureOfRun(runtimeOf({ command: '/bin/echo' }, safeguards));
    expect(failure.message).toBe("Command '/bin/echo' is not in svc.process.allowed-commands");
  });

  it('runs any executable with allow-any and no list', async () => {
    const emits = await processAll(runtimeOf({ command: '/bin/echo', args: ['any'] }, ANY), [
      message(null),
    ]);
    expect(emits[0]?.payload).toMatchObject({ exitCode: 0, stdout: 'any\n' });
  });

  it('allows useShell only with allow-any and no list', async () => {
    const emits = await processAll(
      runtimeOf(
        { command: 'echo "$GREETING" | tr a-z A-Z', useShell: true, env: { GREETING: 'hi' } },
        ANY,
      ),
      [message(null)],
    );
    expect(emits[0]?.payload).toMatchObject({ exitCode: 0, stdout: 'HI\n' });
    const off = await failureOfRun(runtimeOf({ command: 'echo hi', useShell: true }, OFF));
    expect(off.message).toBe(
      'Process execution is disabled: set svc.process.allowed-commands or svc.process.allow-any',
    );
  });
});

/** Single-quotes a word for /bin/sh. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
