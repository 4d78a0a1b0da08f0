// Named servers saved in the user's config directory (`svc context`), so a command needs no
// --server and --key each time. The file holds keys: it is written readable by its owner only.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CliError } from './cli-error.js';

const contextSchema = z.strictObject({
  server: z.string(),
  key: z.string().optional(),
});

const configSchema = z.strictObject({
  current: z.string().nullable().default(null),
  contexts: z.record(z.string(), contextSchema).default({}),
});

export type SavedContext = z.infer<typeof contextSchema>;
export type CliConfig = z.infer<typeof configSchema>;

/** `SVCCLI_CONFIG`, else `$XDG_CONFIG_HOME/svc/config.json`, else `~/.config/svc/config.json`. */
export function configPath(env: Readonly<Record<string, string | undefined>>): string {
  if (env.SVCCLI_CONFIG !== undefined && env.SVCCLI_CONFIG !== '') return env.SVCCLI_CONFIG;
  const base =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== ''
      ? env.XDG_CONFIG_HOME
      : join(homedir(), '.config');
  return join(base, 'svc', 'config.json');
}

export function readConfig(path: string): CliConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return configSchema.parse({});
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not JSON; fix or remove it`);
  }
  const config = configSchema.safeParse(parsed);
  if (!config.success) {
    throw new CliError(`${path} is not a config file of svc: ${z.prettifyError(config.error)}`);
  }
  return config.data;
}

export function writeConfig(path: string, config: CliConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}
