// A worker thread of the script pool: runs MAPPER scripts in QuickJS sandboxes off the server's
// event loop. It keeps one sandbox per node and run (the script compiled once, its globals
// kept between messages), at most `maxSandboxes` of them. Imports no module of the server at
// run time (types only), so the same file runs from the sources and from the build.
import { parentPort, workerData } from 'node:worker_threads';
import { getQuickJS } from 'quickjs-emscripten';
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten';
import type {
  ConsoleLevel,
  ConsoleLine,
  FailureCause,
  RunRequest,
  ScriptLimits,
  WorkerAnswer,
  WorkerRequest,
  WorkerSetup,
} from './script-protocol.js';

/**
 * QuickJS asks whether to stop once per this many interrupt points (function calls and loop
 * iterations); statements are counted in these steps.
 */
const STATEMENTS_PER_CHECK = 10_000;
/** Kept small: a deep recursion fails as a stack overflow rather than crashing the worker. */
const STACK_BYTES = 256 * 1024;
/** Most characters of a logged console line. */
const MAX_LOG_CHARS = 2048;
/** Most console lines one run sends back: the rest are counted in a last line. */
const MAX_LOG_LINES = 1000;

/** Why the interrupt handler stopped a run. */
type Stop = 'timeout' | 'statements' | 'aborted' | undefined;

class ScriptError extends Error {
  readonly why: FailureCause;
  constructor(why: FailureCause, detail: string) {
    super(detail);
    this.why = why;
  }
}

class Sandbox {
  readonly script: string;
  readonly #runtime: QuickJSRuntime;
  readonly #vm: QuickJSContext;
  readonly #entry: QuickJSHandle;
  readonly #abort: Int32Array;
  #logs: ConsoleLine[] = [];
  #dropped = 0;
  #stop: Stop;
  #task = 0;
  #deadline = 0;
  #checksLeft = 0;

  private constructor(
    script: string,
    runtime: QuickJSRuntime,
    vm: QuickJSContext,
    entry: QuickJSHandle,
    abort: Int32Array,
  ) {
    this.script = script;
    this.#runtime = runtime;
    this.#vm = vm;
    this.#entry = entry;
    this.#abort = abort;
    runtime.setInterruptHandler(() => this.#interrupt());
    this.#installConsole();
  }

  static create(
    quickjs: QuickJSWASMModule,
    script: string,
    limits: ScriptLimits,
    abort: Int32Array,
  ): Sandbox {
    const runtime = quickjs.newRuntime();
    runtime.setMaxStackSize(STACK_BYTES);
    runtime.setMemoryLimit(limits.maxMemory);
    const vm = runtime.newContext();
    // The input comes and the result goes as JSON text: plain data only, never a handle on
    // anything of the server's.
    const compiled = vm.evalCode(
      `(function () {
        const user = function (payload, message) {\n${script}\n};
        return function (input) {
          const { payload, message } = JSON.parse(input);
          const json = JSON.stringify(user(payload, message));
          return json === undefined ? 'null' : json;
        };
      })()`,
      'script.js',
    );
    if (compiled.error !== undefined) {
      const reason = describe(vm, compiled.error);
      compiled.error.dispose();
      vm.dispose();
      runtime.dispose();
      throw new ScriptError('invalid', reason);
    }
    return new Sandbox(script, runtime, vm, compiled.value, abort);
  }

  /** The result as JSON, with the console lines written meanwhile. */
  run(request: RunRequest): { output: string; logs: ConsoleLine[] } {
    const vm = this.#vm;
    this.#logs = [];
    this.#dropped = 0;
    this.#stop = undefined;
    this.#task = request.task;
    this.#deadline = performance.now() + request.limits.timeoutMs;
    this.#checksLeft = Math.ceil(request.limits.maxStatements / STATEMENTS_PER_CHECK);
    const input = vm.newString(request.input);
    const result = vm.callFunction(this.#entry, vm.undefined, input);
    input.dispose();
    if (result.error !== undefined) {
      const reason = describe(vm, result.error);
      result.error.dispose();
      throw new ScriptError(this.#stopped() ?? causeOf(reason), reason);
    }
    const output = vm.getString(result.value);
    result.value.dispose();
    return { output, logs: this.logs() };
  }

  /** The lines written so far, with a count of those left out. */
  logs(): ConsoleLine[] {
    const lines = this.#logs;
    if (this.#dropped > 0) lines.push(['warn', `${this.#dropped} more console lines left out`]);
    return lines;
  }

  /** False when the engine could not free it: the worker should then be replaced. */
  dispose(): boolean {
    try {
      this.#entry.dispose();
      this.#vm.dispose();
      this.#runtime.dispose();
      return true;
    } catch {
      return false;
    }
  }

  /** Set by the interrupt handler during a run, which the compiler cannot see. */
  #stopped(): Stop {
    return this.#stop;
  }

  /** Called by QuickJS every STATEMENTS_PER_CHECK interrupt points; true stops the script. */
  #interrupt(): boolean {
    if (Atomics.load(this.#abort, 0) === this.#task) this.#stop = 'aborted';
    else if (--this.#checksLeft < 0) this.#stop = 'statements';
    else if (performance.now() > this.#deadline) this.#stop = 'timeout';
    return this.#stop !== undefined;
  }

  /** `console.log`, `info`, `warn` and `error` become node log lines, sent with the result. */
  #installConsole(): void {
    const vm = this.#vm;
    const console = vm.newObject();
    for (const name of ['log', 'info', 'warn', 'error'] as const) {
      const level: ConsoleLevel = name === 'log' ? 'info' : name;
      const write = vm.newFunction(name, (...args) => {
        if (this.#logs.length >= MAX_LOG_LINES) {
          this.#dropped++;
          return;
        }
        const text = args
          .map((arg) => {
            const value: unknown = vm.dump(arg);
            return typeof value === 'string' ? value : JSON.stringify(value);
          })
          .join(' ')
          .slice(0, MAX_LOG_CHARS);
        this.#logs.push([level, text]);
      });
      vm.setProp(console, name, write);
      write.dispose();
    }
    vm.setProp(vm.global, 'console', console);
    console.dispose();
  }
}

/** A thrown value as text: an error's name and message, anything else as it dumps. */
function describe(vm: QuickJSContext, error: QuickJSHandle): string {
  const value: unknown = vm.dump(error);
  if (typeof value === 'object' && value !== null && 'message' in value) {
    const { name, message } = value as { name?: unknown; message?: unknown };
    return `${typeof name === 'string' ? `${name}: ` : ''}${String(message)}`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** QuickJS reports a runtime over its memory limit as this error. */
function causeOf(reason: string): FailureCause {
  return reason === 'InternalError: out of memory' ? 'memory' : 'thrown';
}

const port = parentPort;
if (port === null) throw new Error('script-worker runs only as a worker thread');
const setup = workerData as WorkerSetup;
const abort = new Int32Array(setup.abort);
/** In order of use, the least recent first. */
const sandboxes = new Map<number, Sandbox>();

/** Set when a sandbox could not be freed: the engine may be damaged, so the worker retires. */
let damaged = false;

function drop(id: number): void {
  const sandbox = sandboxes.get(id);
  sandboxes.delete(id);
  if (sandbox?.dispose() === false) damaged = true;
}

function answer(quickjs: QuickJSWASMModule, request: RunRequest): WorkerAnswer {
  let sandbox = sandboxes.get(request.sandbox);
  try {
    if (sandbox !== undefined && sandbox.script !== request.script) {
      drop(request.sandbox);
      sandbox = undefined;
    }
    if (sandbox === undefined) {
      sandbox = Sandbox.create(quickjs, request.script, request.limits, abort);
      for (const [id] of sandboxes) {
        if (sandboxes.size < setup.maxSandboxes) break;
        drop(id);
      }
    } else {
      sandboxes.delete(request.sandbox);
    }
    sandboxes.set(request.sandbox, sandbox);
    return { kind: 'done', task: request.task, ...sandbox.run(request), retire: damaged };
  } catch (error) {
    const failure = error instanceof ScriptError ? error : new ScriptError('thrown', String(error));
    const logs = sandbox?.logs() ?? [];
    // A runtime that ran out of memory may be left inconsistent: its node starts afresh.
    if (failure.why === 'memory') drop(request.sandbox);
    return {
      kind: 'failed',
      task: request.task,
      cause: failure.why,
      detail: failure.message,
      logs,
      retire: damaged,
    };
  }
}

// No top-level await: the native binary carries this file bundled as CommonJS.
void getQuickJS().then((quickjs) => {
  port.on('message', (request: WorkerRequest) => {
    if (request.kind === 'drop') {
      drop(request.sandbox);
      // No run is under way: the pool sees the exit and starts another worker when needed.
      if (damaged) process.exit(1);
      return;
    }
    port.postMessage(answer(quickjs, request));
  });
  port.postMessage({ kind: 'ready' } satisfies WorkerAnswer);
});
