// Where `promtool` is, if it is on the PATH: tests that compare with it run only then, since
// the project does not depend on Prometheus being installed.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function promtoolPath(): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, 'promtool');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}
