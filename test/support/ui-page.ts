// What the browser tests of the UI's pages share: a server with a key, Chromium with a page
// that already holds the key, the errors the page logs, screenshots kept as test artifacts
// (test-artifacts/screenshots, not tracked) and an accessibility scan with axe.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import type { TestBrowser } from './browser.js';
import { startTestServer } from './server.js';
import type { TestServer } from './server.js';

export const UI_KEY = 'studio-key';
export const UI_ADMIN = { authorization: `Bearer ${UI_KEY}` };

export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-artifacts/screenshots');

export interface UiPage {
  readonly server: TestServer;
  readonly browser: TestBrowser;
  readonly page: Page;
  /** Errors the page logged and errors it threw, in order. */
  readonly errors: string[];
  close(): Promise<void>;
}

/** `env` adds settings of the server beside its key. */
export async function openUi(
  executable: string,
  env: Readonly<Record<string, string>> = {},
): Promise<UiPage> {
  const server = await startTestServer({ env: { ...env, SVC_API_KEY: UI_KEY } });
  const browser = await launchChromium(executable);
  const page = await browser.context.newPage();
  page.setDefaultTimeout(10_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => {
    errors.push(`page error: ${error.message}`);
  });
  // The key field keeps the key in sessionStorage; the page starts with it there.
  await page.addInitScript({
    content: `sessionStorage.setItem('svc.api-key', ${JSON.stringify(UI_KEY)});
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI);
      });`,
  });
  return {
    server,
    browser,
    page,
    errors,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Saves a full-page screenshot under test-artifacts/screenshots. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The violations axe finds on the page as it is, one line each. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? 'n/a'}): ${node.target.join(' ')} ${node.failureSummary ?? ''}`,
    ),
  );
}
