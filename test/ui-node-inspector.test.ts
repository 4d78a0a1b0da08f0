// The node inspector of the web UI in a real browser (Debian's Chromium through
// playwright-core): what a node received and sent, paged, its log lines, and an approval
// answered from it with a comment (docs/ui.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath, chromiumUnavailable, launchChromium } from './support/browser.js';
import type { TestBrowser } from './support/browser.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { accessibilityViolations, screenshot } from './support/ui-page.js';
import { endOf, eventually } from './support/wait.js';

const executable = chromiumPath();
const unavailable = chromiumUnavailable(executable);

/** Each item of the start payload asks for approval, then is printed (a log line each). */
const ask = {
  workflowId: 'ask',
  description: 'asks before printing',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'ask', type: 'WAIT_FOR_SIGNAL', config: { prompt: 'Ship {{item}}?' } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
    { nodeId: 'no', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'ask' },
    { source: 'ask', target: 'print', sourcePort: 'approved' },
    { source: 'ask', target: 'no', sourcePort: 'rejected' },
  ],
};

describe.skipIf(unavailable !== undefined)(
  `The node inspector in Chromium${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let server: TestServer;
    let browser: TestBrowser;
    let page: Page;

    beforeAll(async () => {
      server = await startTestServer();
      await server.call('POST', '/api/sessions', {
        body: { sessionId: 'ops', name: 'Ops', initiator: 'ops', workflows: [ask] },
      });
      browser = await launchChromium(executable ?? 'chromium');
      page = await browser.context.newPage();
      page.setDefaultTimeout(10_000);
    });
    afterAll(async () => {
      await browser.close();
      await server.close();
    });

    it("pages a node's recorded messages, shows its log lines, and approves from it with a comment", async () => {
      const items = Array.from({ length: 25 }, (_, index) => ({ item: `box-${String(index)}` }));
      const started = await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 'ops', workflowId: 'ask', payload: items },
      });
      const id = String(started.json.data.executionId);
      // Every item but one is answered through the API; the last is answered in the inspector.
      const pending = async () =>
        (await server.call('GET', `/api/executions/${id}/approvals`)).json.data as {
          messageId: string;
          payload: { item: string };
        }[];
      const all = await eventually(pending, (list) => list.length === 25);
      for (const approval of all.filter((entry) => entry.payload.item !== 'box-24')) {
        await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
          body: { approved: true, messageId: approval.messageId },
        });
      }
      await eventually(pending, (list) => list.length === 1);

      await page.goto(`${server.baseUrl}/executions/${id}`);
      await page.getByRole('button', { name: 'Inspect ask' }).click();
      const inspector = page.getByRole('region', { name: 'Node ask' });
      await inspector.getByText('Ship box-24?').waitFor();
      await screenshot(page, 'node-inspector');
      expect(await accessibilityViolations(page)).toEqual([]);
      await inspector.getByLabel('Comment for ask').fill('last one');
      await inspector.getByRole('button', { name: 'Approve' }).click();
      expect((await endOf(server, id)).status).toBe('COMPLETED');

      // What ask received: 25 messages, 20 to a page, oldest first.
      const received = inspector.getByRole('region', { name: 'Received by ask' });
      await received.getByText('"box-0"').waitFor();
      expect(await received.getByRole('row').count()).toBe(21);
      await received.getByRole('button', { name: 'Next' }).click();
      await received.getByText('"box-24"').waitFor();
      expect(await received.getByRole('row').count()).toBe(6);
      // What it sent, on the port of the answer.
      const sent = inspector.getByRole('region', { name: 'Sent by ask' });
      await sent.getByRole('cell', { name: 'approved' }).first().waitFor();

      await page.getByRole('button', { name: 'Inspect print' }).click();
      const print = page.getByRole('region', { name: 'Node print' });
      const lines = print.getByRole('region', { name: 'Log lines of print' });
      await lines.getByText(/box-24/).waitFor();
      const audit = await server.call('GET', `/api/control/audit?executionId=${id}`);
      expect(audit.json.data[0]).toMatchObject({ command: 'SIGNAL', nodeId: 'ask' });
    });
  },
);
