// The web UI's Queue and Audit pages in a real browser (Debian's Chromium through
// playwright-core): an operator sees why each start waits, moves one up, and finds the change
// in the control audit with its filters (docs/scheduler-queue.md, docs/ui.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath, chromiumUnavailable, launchChromium } from './support/browser.js';
import type { TestBrowser } from './support/browser.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { accessibilityViolations, screenshot } from './support/ui-page.js';
import { slowWorkflow } from './support/workflows.js';

const executable = chromiumPath();
const unavailable = chromiumUnavailable(executable);

describe.skipIf(unavailable !== undefined)(
  `The Queue and Audit pages in Chromium${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let server: TestServer;
    let browser: TestBrowser;
    let page: Page;
    let ids: [string, string, string];

    beforeAll(async () => {
      server = await startTestServer();
      await server.call('POST', '/api/sessions', {
        body: { sessionId: 'ops', name: 'Ops', initiator: 'ops', workflows: [slowWorkflow()] },
      });
      await server.call('POST', '/api/scheduler/limits?maxPerWorkflow=1&onLimit=QUEUE');
      const start = async () =>
        String(
          (
            await server.call('POST', '/api/workflow/start', {
              body: { sessionId: 'ops', workflowId: 'slow' },
            })
          ).json.data.executionId,
        );
      ids = [await start(), await start(), await start()];
      browser = await launchChromium(executable ?? 'chromium');
      page = await browser.context.newPage();
      page.setDefaultTimeout(10_000);
    });
    afterAll(async () => {
      for (const id of ids) await server.call('POST', `/api/executions/${id}/stop`);
      await browser.close();
      await server.close();
    });

    it('lists the waiting starts with why each waits, and moves one up with its priority field', async () => {
      const [, second, third] = ids;
      await page.goto(`${server.baseUrl}/queue`);
      await page.getByText('1 running, 2 waiting for a slot.').waitFor();
      const rows = page.getByRole('row', { name: /^Waiting start / });
      expect(await rows.count()).toBe(2);
      const first = rows.first();
      expect(await first.getByRole('link', { name: second }).count()).toBe(1);
      await first
        .getByText("Workflow 'slow' runs 1 execution, at its limit of 1 (maxPerWorkflow)")
        .waitFor();

      const last = rows.nth(1);
      await last.getByLabel(`Priority of ${third}`).fill('5');
      await last.getByRole('button', { name: 'Set' }).click();
      // The queue is read again: the start moved up is first now.
      await eventually(
        () => rows.first().getByRole('link', { name: third }).count(),
        (count) => count === 1,
      );
      await screenshot(page, 'queue');
      expect(await accessibilityViolations(page)).toEqual([]);
      const waiting = await server.call('GET', '/api/scheduler/queue');
      expect(waiting.json.data.items[0]).toMatchObject({ executionId: third, priority: 5 });
    });

    it('shows the control audit, narrowed by command and outcome', async () => {
      const [, , third] = ids;
      // A refused command: the running start has no place in the queue to change.
      await server.call('POST', `/api/executions/${ids[0]}/priority?priority=1`);
      await page.goto(`${server.baseUrl}/audit`);
      await page.getByRole('link', { name: 'Audit' }).waitFor();
      await page.getByRole('cell', { name: 'PRIORITY' }).first().waitFor();
      await page.getByLabel('Command').fill('PRIORITY');
      await page.getByLabel('Outcome').selectOption('APPLIED');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/command=PRIORITY&outcome=APPLIED/);
      const applied = page.getByRole('row').filter({ hasText: 'PRIORITY' });
      await eventually(
        () => applied.count(),
        (count) => count === 1,
      );
      expect(await applied.getByRole('link', { name: third }).count()).toBe(1);
      await screenshot(page, 'audit');
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByLabel('Outcome').selectOption('REFUSED');
      await page.getByRole('button', { name: 'Filter' }).click();
      const refused = page.getByRole('row').filter({ hasText: 'refused' });
      await eventually(
        () => refused.count(),
        (count) => count === 1,
      );
      expect(await refused.getByRole('link', { name: ids[0] }).count()).toBe(1);
      await page.getByLabel('Command').fill('STOP');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('No control command matches.').waitFor();
    });
  },
);
