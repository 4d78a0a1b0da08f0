// What the script pool and its worker threads say to each other. Types only: the worker
// imports nothing of the server at run time, so it starts from its source file as well as
// from the build.

export interface ScriptLimits {
  readonly timeoutMs: number;
  readonly maxStatements: number;
  /** Bytes one sandbox may hold: its globals plus what one run allocates. */
  readonly maxMemory: number;
}

export interface WorkerSetup {
  /** One Int32: the task the pool abandoned; the running script stops when it is its own. */
  readonly abort: SharedArrayBuffer;
  /** Sandboxes a worker keeps; the one used least recently goes first. */
  readonly maxSandboxes: number;
}

/** Runs one message through the sandbox `sandbox`, made from `script` if the worker lacks it. */
export interface RunRequest {
  readonly kind: 'run';
  readonly task: number;
  readonly sandbox: number;
  readonly script: string;
  /** `{ payload, message }` as JSON: only plain data crosses into the sandbox. */
  readonly input: string;
  readonly limits: ScriptLimits;
}

/** The node ended: its sandbox and the state it kept go. */
export interface DropRequest {
  readonly kind: 'drop';
  readonly sandbox: number;
}

export type WorkerRequest = RunRequest | DropRequest;

export type ConsoleLevel = 'info' | 'warn' | 'error';
export type ConsoleLine = readonly [level: ConsoleLevel, text: string];

/** Why a run gave no result: a limit, the pool giving up on it, or the script itself. */
export type FailureCause = 'timeout' | 'statements' | 'memory' | 'aborted' | 'invalid' | 'thrown';

export type WorkerAnswer =
  | { readonly kind: 'ready' }
  | {
      readonly kind: 'done';
      readonly task: number;
      /** The script's result as JSON. */
      readonly output: string;
      readonly logs: readonly ConsoleLine[];
      readonly retire: boolean;
    }
  | {
      readonly kind: 'failed';
      readonly task: number;
      readonly cause: FailureCause;
      /** What the script threw or why it did not compile, as text. */
      readonly detail: string;
      readonly logs: readonly ConsoleLine[];
      /** The engine may be damaged (a sandbox that could not be freed): replace the worker. */
      readonly retire: boolean;
    };
