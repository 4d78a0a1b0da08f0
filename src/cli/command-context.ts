// What every command gets: where to print, and the server connection, both made only when a
// command needs them (global options are parsed first, and `svc context` and `--help` work with
// no server and a broken variable).
import { connect } from './connection.js';
import type { Connection, ConnectionOptions } from './connection.js';
import type { Output } from './output.js';

export interface CommandContext {
  readonly output: Output;
  readonly env: Readonly<Record<string, string | undefined>>;
  connection(): Connection;
}

export function commandContext(
  output: () => Output,
  env: Readonly<Record<string, string | undefined>>,
  options: () => ConnectionOptions,
): CommandContext {
  let made: Connection | undefined;
  return {
    get output() {
      return output();
    },
    env,
    connection: () => (made ??= connect(options(), env)),
  };
}
