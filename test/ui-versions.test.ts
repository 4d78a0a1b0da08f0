// The versions page in Chromium (docs/ui.md "Versions"): two saved versions side by side as
// graphs with what was added, removed and changed marked in words, the text diff, and a
// rollback with a note; no accessibility violation. Skipped with the reason when Chromium is
// missing and CI is not set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath, chromiumUnavailable } from './support/browser.js';
import { UI_ADMIN, accessibilityViolations, openUi, screenshot } from './support/ui-page.js';
import type { UiPage } from './support/ui-page.js';

const executable = chromiumPath();
const unavailable = chromiumUnavailable(executable);

const first = {
  workflowId: 'greeting',
  description: 'first',
  nodes: [
    { nodeId: 'request', type: 'API_TRIGGER' },
    { nodeId: 'greet', type: 'MAPPER', config: { mode: 'TEMPLATE', template: 'Hello {{name}}' } },
    { nodeId: 'old-print', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'request', target: 'greet' },
    { source: 'greet', target: 'old-print' },
  ],
};

const second = {
  ...first,
  description: 'second',
  nodes: [
    { nodeId: 'request', type: 'API_TRIGGER' },
    { nodeId: 'greet', type: 'MAPPER', config: { mode: 'TEMPLATE', template: 'Hi {{name}}' } },
    { nodeId: 'new-print', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'request', target: 'greet' },
    { source: 'greet', target: 'new-print' },
  ],
};

describe.skipIf(unavailable !== undefined)(
  `The versions page in Chromium${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let ui: UiPage;
    let page: Page;

    beforeAll(async () => {
      ui = await openUi(executable ?? 'chromium');
      page = ui.page;
      await ui.server.call('POST', '/api/sessions', {
        headers: UI_ADMIN,
        body: { sessionId: 'history', name: 'History', initiator: 'author', workflows: [first] },
      });
      const saved = await ui.server.call(
        'PUT',
        '/api/sessions/history/workflows/greeting?note=shorter%20greeting',
        { headers: UI_ADMIN, body: second },
      );
      expect(saved.status).toBe(200);
    });
    afterAll(async () => {
      await ui.close();
    });

    it('shows two versions side by side with the added, removed and changed nodes and edges named, and their text diff', async () => {
      await page.goto(`${ui.server.baseUrl}/sessions/history/workflows/greeting`);
      await page.getByRole('link', { name: 'Compare versions' }).click();
      await page.waitForURL(/\/versions$/);
      await page.getByRole('cell', { name: 'shorter greeting' }).waitFor();

      const before = page.getByRole('figure', { name: 'Version 1' });
      const after = page.getByRole('figure', { name: 'Version 2' });
      const differences = (figure: typeof before) =>
        figure
          .getByRole('list', { name: /^Differences in/ })
          .getByRole('listitem')
          .allInnerTexts();
      await before.locator('.react-flow__node[data-id="old-print"]').getByText('removed').waitFor();
      await after.locator('.react-flow__node[data-id="new-print"]').getByText('added').waitFor();
      await after.locator('.react-flow__node[data-id="greet"]').getByText('changed').waitFor();
      expect((await differences(before)).sort()).toEqual([
        'edge greet (out) → old-print: - removed',
        'node greet: ✎ changed',
        'node old-print: - removed',
      ]);
      expect((await differences(after)).sort()).toEqual([
        'edge greet (out) → new-print: + added',
        'node greet: ✎ changed',
        'node new-print: + added',
      ]);
      // The unchanged node is not marked on either side.
      expect(await before.locator('.react-flow__node[data-id="request"] .diff-mark').count()).toBe(
        0,
      );

      const text = page.getByRole('region', { name: 'Text diff' });
      const lines = await text.locator('pre > div').allInnerTexts();
      const removed = lines.findIndex(
        (line) => line.startsWith('- ') && line.includes('"Hello {{name}}"'),
      );
      const added = lines.findIndex(
        (line) => line.startsWith('+ ') && line.includes('"Hi {{name}}"'),
      );
      expect(removed).toBeGreaterThan(0);
      expect(added).toBe(removed + 1);
      expect(lines.filter((line) => !line.startsWith('  '))).toHaveLength(8);
      await screenshot(page, 'versions-diff');

      expect(await accessibilityViolations(page)).toEqual([]);
    }, 60_000);

    it('rolls back to a version with a note, which becomes the current definition', async () => {
      await page.goto(`${ui.server.baseUrl}/sessions/history/workflows/greeting/versions`);
      const form = page.getByRole('form', { name: 'Rollback' });
      await form.getByLabel('Roll back to').selectOption('1');
      await form.getByLabel('Rollback note').fill('the old greeting was better');
      await form.getByRole('button', { name: 'Roll back' }).click();
      await page
        .getByRole('status', { name: 'Rollback status' })
        .filter({ hasText: 'version 3 is current' })
        .waitFor();
      await page
        .getByRole('cell', { name: 'Rollback to version 1: the old greeting was better' })
        .waitFor();

      const current = await ui.server.call('GET', '/api/sessions/history/workflows/greeting', {
        headers: UI_ADMIN,
      });
      expect(current.json.data).toMatchObject({ description: 'first', nodes: first.nodes });
      const versions = await ui.server.call(
        'GET',
        '/api/sessions/history/workflows/greeting/versions',
        { headers: UI_ADMIN },
      );
      expect(versions.json.data[0]).toMatchObject({
        version: 3,
        current: true,
        note: 'Rollback to version 1: the old greeting was better',
      });
    });
  },
);
