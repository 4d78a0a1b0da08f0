// Runs the `svc` command-line client as a child process: the built command of the package
// (`bin.svc`, dist/cli/main.js) when the build is up to date, as in CI, else its sources.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason } from '../../scripts/build-freshness.mjs';
import { runToExit } from './process.js';
import type { ProcessResult } from './process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

let command: readonly string[] | undefined;

/** How `svc` is started: the built command when the build is up to date (looked at once). */
export function svcCommand(): readonly string[] {
  command ??=
    staleReason(root) === undefined
      ? [join(root, 'dist/cli/main.js')]
      : ['--import', import.meta.resolve('tsx'), join(root, 'src/cli/main.ts')];
  return command;
}

export function runSvc(
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Readonly<Record<string, string>> },
): Promise<ProcessResult> {
  return runToExit(process.execPath, [...svcCommand(), ...args], {
    cwd: options.cwd,
    timeoutMs: 60_000,
    env: { NO_COLOR: '1', ...options.env },
  });
}
