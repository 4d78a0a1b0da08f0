// MAPPER's SCRIPT mode (optional plugin script-js): the script runs in a QuickJS sandbox, one
// per node and run, with no access to the server, the file system or the network. It is the
// body of `function (payload, message)`; what it returns (as JSON) becomes the new payload.
// SPEC Workflow-author safeguards: every run of the script is limited in time
// (`svc.script.timeout-ms`), in statements (`svc.script.max-statements`) and in memory
// (`svc.script.max-memory`), and runs on a worker thread of the script pool, never on the
// server's event loop.
import { messageOf } from '../../../plugin-api/index.js';
import type { Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import type { ScriptHandle, ScriptPool } from './script-pool.js';
import type { ScriptLimits } from './script-protocol.js';

export type { ScriptLimits } from './script-protocol.js';

/** What every SCRIPT node of a server shares: the limits and the pool of worker threads. */
export interface ScriptSettings {
  readonly limits: ScriptLimits;
  readonly pool: ScriptPool;
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

export class ScriptRunner implements MessageProcessor {
  readonly #script: string;
  readonly #settings: ScriptSettings;
  #handle: ScriptHandle | undefined;

  constructor(script: string, settings: ScriptSettings) {
    this.#script = script;
    this.#settings = settings;
  }

  async process(message: Message, ctx: NodeContext) {
    const { pool, limits } = this.#settings;
    this.#handle ??= pool.open();
    const output = await pool.run(this.#handle, {
      script: this.#script,
      input: JSON.stringify({ payload: message.payload, message }),
      limits,
      signal: ctx.signal,
      log: (lines) => {
        for (const [level, text] of lines) ctx.log[level](text);
      },
    });
    return { payload: JSON.parse(output) as unknown };
  }

  close(): void {
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle !== undefined) this.#settings.pool.release(handle);
  }
}
