// Which server a command talks to and with which key: the command line first, then the
// client's own variables (SVCCLI_*, never the server's SVC_* prefix, which the server refuses
// when unknown), then the chosen context, then the local default.
import { createApiClient } from '../client/index.js';
import type { ApiClient } from '../client/index.js';
import { CliError } from './cli-error.js';
import { configPath, readConfig } from './contexts.js';

export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

export interface ConnectionOptions {
  readonly server?: string | undefined;
  readonly key?: string | undefined;
  readonly context?: string | undefined;
}

export interface Connection {
  readonly server: string;
  readonly key: string | null;
  readonly api: ApiClient;
}

export function connect(
  options: ConnectionOptions,
  env: Readonly<Record<string, string | undefined>>,
): Connection {
  const config = readConfig(configPath(env));
  const contextName = options.context ?? given(env.SVCCLI_CONTEXT) ?? config.current ?? undefined;
  const context = contextName === undefined ? undefined : config.contexts[contextName];
  if (contextName !== undefined && context === undefined && options.context !== undefined) {
    throw new CliError(`No context named '${contextName}' (svc context ls lists them)`);
  }
  const server = (
    options.server ??
    given(env.SVCCLI_SERVER) ??
    context?.server ??
    DEFAULT_SERVER
  ).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(server)) {
    throw new CliError(`The server must be an http:// or https:// address, not '${server}'`, {
      exitCode: 2,
    });
  }
  const key = options.key ?? given(env.SVCCLI_KEY) ?? context?.key ?? null;
  return { server, key, api: createApiClient({ baseUrl: server, key }) };
}

/** A variable set to nothing counts as not set. */
function given(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
