// PROCESS_EXECUTOR (optional plugin process-executor): runs a command once per message.
// Which commands may run is a server safeguard (SPEC Workflow-author safeguards), checked when
// the node starts, on the configuration with its placeholders resolved.
import { stat } from 'node:fs/promises';
import { StepFailure, definePlugin, pluginSettings, z } from '../../../plugin-api/index.js';
import type {
  Emit,
  Message,
  MessageProcessor,
  NodeContext,
  SettingValues,
} from '../../../plugin-api/index.js';
import { ProcessRun } from './process-run.js';
import type { ProcessOutcome } from './process-run.js';

/** Most bytes of stdout and of stderr each that reach the emitted message. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Time a stopped command gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** The only variables of the server's environment a command sees, unless `env` adds more. */
const INHERITED_ENV = ['PATH', 'HOME', 'LANG'] as const;
const MAX_REASON_CHARS = 200;
/** The `plugin` tag of `svc.plugin.events` for runs of a command. */
export const RUN_EVENT = 'process.run';

const configSchema = z.looseObject({
  command: z.string().min(1).describe('Executable name, or a command line when useShell is set'),
  args: z.array(z.string()).optional().describe('Arguments passed to the command'),
  useShell: z.boolean().optional().describe('Run the command through a shell'),
  cwd: z.string().min(1).optional().describe('Working directory'),
  env: z.record(z.string(), z.string()).optional().describe('Extra environment variables'),
  stdin: z.string().optional().describe('Text written to the standard input'),
});

type ProcessExecutorConfig = z.output<typeof configSchema>;

/** The safeguards of the type: which executables may run. */
export type ProcessSettings = SettingValues<
  'svc.process.allowed-commands' | 'svc.process.allow-any'
>;

export const processExecutorPlugin = definePlugin({
  type: 'PROCESS_EXECUTOR',
  kind: 'processor',
  description:
    'Runs a command once per message and emits its output; a non-zero exit fails that message.',
  configSchema,
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
  settings: pluginSettings(
    ['svc.process.allowed-commands', 'svc.process.allow-any'],
    (values): ProcessSettings => values,
  ),
  create: (config, setup) => {
    const refusal = refusalOf(config, setup.settings);
    if (refusal === undefined) return new ProcessExecutor(config);
    // A refusal is the server's decision, so every message fails the same way and no retry
    // can help; onError still decides what the node does next.
    return {
      process: (_message, ctx) => {
        ctx.report(RUN_EVENT, 'refused');
        throw StepFailure.nonRetryable(refusal);
      },
    };
  },
});

/**
 * SPEC Workflow-author safeguards: nothing runs unless the server allows it; an allow-list is
 * matched exactly and forbids the shell (a command line could run anything); `allow-any`
 * counts only while the list is empty.
 */
export function refusalOf(
  config: Pick<ProcessExecutorConfig, 'command' | 'useShell'>,
  settings: ProcessSettings,
): string | undefined {
  const allowed = settings['svc.process.allowed-commands'];
  if (allowed.length === 0) {
    return settings['svc.process.allow-any']
      ? undefined
      : 'Process execution is disabled: set svc.process.allowed-commands or svc.process.allow-any';
  }
  if (config.useShell === true) {
    return 'useShell is not allowed while svc.process.allowed-commands is set';
  }
  if (!allowed.includes(config.command)) {
    return `Command '${config.command}' is not in svc.process.allowed-commands`;
  }
  return undefined;
}

class ProcessExecutor implements MessageProcessor {
  readonly #config: ProcessExecutorConfig;
  readonly #env: Readonly<Record<string, string>>;
  /** Commands still running; the runtime's timeouts may give up on a call without a signal. */
  readonly #running = new Set<ProcessRun>();

  constructor(config: ProcessExecutorConfig) {
    this.#config = config;
    this.#env = commandEnv(config.env);
  }

  /** Counts every run in `svc.plugin.events` (`process.run`) by how it ended. */
  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    try {
      const emit = await this.#run(message, ctx);
      ctx.report(RUN_EVENT, 'completed');
      return emit;
    } catch (error) {
      ctx.report(RUN_EVENT, ctx.signal.aborted ? 'stopped' : 'failed');
      throw error;
    }
  }

  async #run(message: Message, ctx: NodeContext): Promise<Emit> {
    const { command } = this.#config;
    const { signal, log } = ctx;
    const messageId = message.id;
    signal.throwIfAborted();
    let run: ProcessRun;
    try {
      run = new ProcessRun({
        command,
        args: this.#config.args ?? [],
        shell: this.#config.useShell === true,
        cwd: this.#config.cwd,
        env: this.#env,
        stdin: this.#config.stdin,
        maxOutputBytes: MAX_OUTPUT_BYTES,
        killGraceMs: KILL_GRACE_MS,
      });
    } catch (error) {
      // Node's own message would quote the offending argument, which may hold a secret.
      throw StepFailure.nonRetryable(
        `Command '${command}' could not be started (${codeOf(error)})`,
        error,
      );
    }
    this.#running.add(run);
    // terminate() releases the pipes once the process is gone, so `done` settles after it.
    const stop = (): void => {
      void run.terminate();
    };
    signal.addEventListener('abort', stop, { once: true });
    let outcome: ProcessOutcome;
    try {
      outcome = await run.done;
      // `done` can settle before the group is gone: what the command started may still be
      // dying, and the node must not end before it has.
      if (signal.aborted) await run.terminate();
    } finally {
      signal.removeEventListener('abort', stop);
      this.#running.delete(run);
    }
    if (signal.aborted) throw abortReason(signal, command);
    if (outcome.kind === 'not-started') throw await this.#notStarted(outcome);
    const { exitCode, stdout, stderr } = outcome;
    // The command's stdout lines become the node's log lines as well as its output.
    for (const line of stdout.split('\n')) {
      if (line !== '') log.info(line, { messageId, stream: 'stdout' });
    }
    if (exitCode !== 0) {
      const how =
        exitCode === null
          ? `was ended by ${outcome.signal ?? 'a signal'}`
          : `exited with code ${exitCode}`;
      const reason = firstLine(stderr);
      throw StepFailure.retryable(
        `Command '${command}' ${how}${reason === '' ? '' : `: ${reason}`}`,
      );
    }
    return { payload: { exitCode, stdout, stderr } };
  }

  /** The process must never outlive the node, whichever way the node ends. */
  async close(): Promise<void> {
    await Promise.all([...this.#running].map((run) => run.terminate()));
  }

  /** Node reports a missing working directory as a missing command; tell them apart. */
  async #notStarted(outcome: {
    readonly code: string;
    readonly path: string | undefined;
  }): Promise<StepFailure> {
    const { command, cwd } = this.#config;
    if (outcome.code === 'ENOENT' && cwd !== undefined && !(await isDirectory(cwd))) {
      return StepFailure.nonRetryable(
        `Command '${command}' could not be started: working directory '${cwd}' does not exist`,
      );
    }
    if (outcome.code !== 'ENOENT') {
      return StepFailure.nonRetryable(`Command '${command}' could not be started: ${outcome.code}`);
    }
    // With useShell the missing program may be the shell itself.
    const missing = outcome.path ?? command;
    return StepFailure.nonRetryable(
      missing === command
        ? `Command '${command}' was not found`
        : `Command '${command}' could not be started: ${missing} was not found`,
    );
  }
}

/** PATH, HOME and LANG of the server, then the node's `env`: no other server variable leaks. */
function commandEnv(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return Object.assign(env, extra);
}

/** The stop reason the runtime gave, so a stopped message is not mistaken for a command failure. */
function abortReason(signal: AbortSignal, command: string): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : StepFailure.retryable(`Command '${command}' was stopped`);
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > MAX_REASON_CHARS ? `${trimmed.slice(0, MAX_REASON_CHARS)}...` : trimmed;
}

function codeOf(error: unknown): string {
  const code: unknown = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' ? code : 'invalid arguments';
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
