// MAPPER's SCRIPT mode (optional plugin script-js): the script runs in a QuickJS sandbox, one
// per node and run, with no access to the server, the file system or the network. It is the
// body of `function (payload, message)`; what it returns (as JSON) becomes the new payload.
// SPEC Workflow-author safeguards: every run of the script is limited in time
// (`svc.script.timeout-ms`) and in statements (`svc.script.max-statements`); there is no
// memory limit.
import { getQuickJS } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import { messageOf, StepFailure } from '../../../plugin-api/index.js';
import type { Message, MessageProcessor, NodeContext, NodeLog } from '../../../plugin-api/index.js';

/**
 * QuickJS asks whether to stop once per this many interrupt points (function calls and loop
 * iterations); statements are counted in these steps.
 */
export const STATEMENTS_PER_CHECK = 10_000;
/** Kept small: a deep recursion fails as a stack overflow rather than crashing the server. */
const STACK_BYTES = 256 * 1024;
/** Most characters of a logged console line. */
const MAX_LOG_CHARS = 2048;

export interface ScriptLimits {
  readonly timeoutMs: number;
  readonly maxStatements: number;
}

/**
 * A syntax error of a script, as V8 reports it without running anything; undefined when the
 * script compiles. QuickJS reads the same language, so validation can answer before a run.
 */
export function scriptProblem(script: string): string | undefined {
  try {
    // Compiling is not running: the body is never called here.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    new Function('payload', 'message', script);
    return undefined;
  } catch (error) {
    return `Invalid script: ${messageOf(error)}`;
  }
}

/** Why a run of the script was stopped, set by the interrupt handler. */
type Stop = 'timeout' | 'statements' | undefined;

export class ScriptRunner implements MessageProcessor {
  readonly #script: string;
  readonly #limits: ScriptLimits;
  #sandbox: Promise<Sandbox> | undefined;

  constructor(script: string, limits: ScriptLimits) {
    this.#script = script;
    this.#limits = limits;
  }

  async process(message: Message, ctx: NodeContext) {
    this.#sandbox ??= Sandbox.create(this.#script);
    const sandbox = await this.#sandbox;
    return { payload: sandbox.run(message, ctx.log, this.#limits) };
  }

  async close(): Promise<void> {
    const sandbox = this.#sandbox;
    this.#sandbox = undefined;
    (await sandbox?.catch(() => undefined))?.dispose();
  }
}

class Sandbox {
  readonly #runtime: QuickJSRuntime;
  readonly #vm: QuickJSContext;
  readonly #entry: QuickJSHandle;
  #log: NodeLog | undefined;
  #stop: Stop;
  #deadline = 0;
  #checksLeft = 0;

  private constructor(runtime: QuickJSRuntime, vm: QuickJSContext, entry: QuickJSHandle) {
    this.#runtime = runtime;
    this.#vm = vm;
    this.#entry = entry;
    runtime.setInterruptHandler(() => this.#interrupt());
    this.#installConsole();
  }

  static async create(script: string): Promise<Sandbox> {
    const quickjs = await getQuickJS();
    const runtime = quickjs.newRuntime();
    runtime.setMaxStackSize(STACK_BYTES);
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
      throw StepFailure.nonRetryable(`Invalid script: ${reason}`);
    }
    return new Sandbox(runtime, vm, compiled.value);
  }

  run(message: Message, log: NodeLog, limits: ScriptLimits): unknown {
    const vm = this.#vm;
    const input = vm.newString(JSON.stringify({ payload: message.payload, message }));
    this.#log = log;
    this.#stop = undefined;
    this.#deadline = performance.now() + limits.timeoutMs;
    this.#checksLeft = Math.ceil(limits.maxStatements / STATEMENTS_PER_CHECK);
    const result = vm.callFunction(this.#entry, vm.undefined, input);
    input.dispose();
    this.#log = undefined;
    if (result.error !== undefined) {
      const reason = describe(vm, result.error);
      result.error.dispose();
      throw StepFailure.nonRetryable(this.#failure(reason, limits));
    }
    const json = vm.getString(result.value);
    result.value.dispose();
    return JSON.parse(json) as unknown;
  }

  dispose(): void {
    try {
      this.#entry.dispose();
      this.#vm.dispose();
      this.#runtime.dispose();
    } catch {
      // A runtime left in a broken state still frees its memory with the module.
    }
  }

  #failure(reason: string, limits: ScriptLimits): string {
    switch (this.#stop) {
      case 'timeout':
        return `Script ran longer than svc.script.timeout-ms (${limits.timeoutMs} ms)`;
      case 'statements':
        return `Script ran more than svc.script.max-statements (${limits.maxStatements}) statements`;
      case undefined:
        return `Script failed: ${reason}`;
    }
  }

  /** Called by QuickJS every STATEMENTS_PER_CHECK interrupt points; true stops the script. */
  #interrupt(): boolean {
    if (--this.#checksLeft < 0) this.#stop = 'statements';
    else if (performance.now() > this.#deadline) this.#stop = 'timeout';
    return this.#stop !== undefined;
  }

  /** `console.log`, `info`, `warn` and `error` write node log lines. */
  #installConsole(): void {
    const vm = this.#vm;
    const console = vm.newObject();
    for (const level of ['log', 'info', 'warn', 'error'] as const) {
      const write = vm.newFunction(level, (...args) => {
        const text = args
          .map((arg) => {
            const value: unknown = vm.dump(arg);
            return typeof value === 'string' ? value : JSON.stringify(value);
          })
          .join(' ')
          .slice(0, MAX_LOG_CHARS);
        const log = this.#log;
        if (log === undefined) return;
        if (level === 'warn') log.warn(text);
        else if (level === 'error') log.error(text);
        else log.info(text);
      });
      vm.setProp(console, level, write);
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
