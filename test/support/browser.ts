// Debian's Chromium for browser tests, driven by playwright-core. When it is not installed the
// browser tests are skipped with the reason, unless CI is set: then they fail, so that a run
// without it is noticed (as the PostgreSQL tests do, test/support/postgres.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';

/** What `command -v chromium` prints, or undefined when there is no Chromium on the PATH. */
export function chromiumPath(): string | undefined {
  try {
    const path = execFileSync('sh', ['-c', 'command -v chromium'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return path === '' ? undefined : path;
  } catch {
    return undefined;
  }
}

/**
 * Why browser tests cannot run here, or undefined when Chromium is installed. Throws when CI
 * is set and it is not.
 */
export function chromiumUnavailable(
  executable: string | undefined,
  ci: string | undefined = process.env.CI,
): string | undefined {
  if (executable !== undefined) return undefined;
  const reason = 'no chromium on the PATH; install it with `apt-get install -y chromium`';
  if (ci !== undefined && ci !== '') throw new Error(reason);
  return reason;
}

export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile. The flags keep it from reaching out to the network
 * (updates, sync, QUIC), which a closed machine refuses, and let it run as root.
 */
export async function launchChromium(executablePath: string): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
