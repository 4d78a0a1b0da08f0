// The web UI in a real browser (Debian's Chromium through playwright-core): an operator with a
// key opens the UI, starts a run and follows it to its result, under the page's policy
// (SPEC "Deployment facts"). Skipped with the reason when Chromium is missing and CI is not set.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath, chromiumUnavailable, launchChromium } from './support/browser.js';
import type { TestBrowser } from './support/browser.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { Restartable } from './support/restored-history.js';
import { endOf, eventually } from './support/wait.js';
import { accessibilityViolations, screenshot } from './support/ui-page.js';
import { doubling, failingWorkflow, slowWorkflow } from './support/workflows.js';

const executable = chromiumPath();
const unavailable = chromiumUnavailable(executable);

const KEY = 'browser-key';
const ADMIN = { authorization: `Bearer ${KEY}` };

const hello = {
  workflowId: 'hello',
  description: 'greets the payload',
  nodes: [
    { nodeId: 'request', type: 'API_TRIGGER' },
    { nodeId: 'greet', type: 'MAPPER', config: { mode: 'TEMPLATE', template: 'Hello {{name}}' } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'request', target: 'greet' },
    { source: 'greet', target: 'print' },
  ],
};

const broken = failingWorkflow('broken', 'boom-ui', 'API_TRIGGER');

/** The one console error expected: the first read, made before the key is entered. */
const KEYLESS_READ = /Failed to load resource: the server responded with a status of 401/;

describe.skipIf(unavailable !== undefined)(
  `The web UI in Chromium${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let server: TestServer;
    let browser: TestBrowser;
    let page: Page;
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      server = await startTestServer({ env: { SVC_API_KEY: KEY } });
      const created = await server.call('POST', '/api/sessions', {
        headers: ADMIN,
        body: { sessionId: 'demo', name: 'Demo', initiator: 'ops', workflows: [hello, broken] },
      });
      expect(created.status).toBe(201);
      browser = await launchChromium(executable ?? 'chromium');
      page = await browser.context.newPage();
      page.setDefaultTimeout(10_000);
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => {
        consoleErrors.push(`page error: ${error.message}`);
      });
      // Chromium reports refusals of the policy on the console too; this names them plainly.
      // (Scripts for the page are text: the tests are compiled without the DOM's types.)
      await page.addInitScript({
        content: `document.addEventListener('securitypolicyviolation', (event) => {
          console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI);
        });`,
      });
    });
    afterAll(async () => {
      await browser.close();
      await server.close();
    });

    it('lets an operator enter the key, start a run with a JSON payload and follow it to COMPLETED and its result, with no policy violation', async () => {
      await page.goto(`${server.baseUrl}/`);
      // Without a key the server refuses the API; the UI says so.
      await page.getByRole('alert').filter({ hasText: '401' }).waitFor();

      await page.getByLabel('API key').fill(KEY);
      await page.getByRole('button', { name: 'Use key' }).click();
      await page.getByRole('link', { name: 'demo', exact: true }).click();
      await page.getByRole('link', { name: 'hello', exact: true }).click();
      await page.locator('[aria-label="Graph of workflow hello"] [data-node-id="greet"]').waitFor();

      await page.getByLabel('Payload (JSON)').fill('{"name": "browser"}');
      await page.getByRole('button', { name: 'Start' }).click();
      await page.waitForURL(/\/executions\/[^/]+$/);
      await page.getByLabel('Execution status').filter({ hasText: 'COMPLETED' }).waitFor();
      await page.getByRole('region', { name: 'Results' }).getByText('"Hello browser"').waitFor();
      // The progress stream, read with the key, ended with the run.
      await page.getByText('stream: ended').waitFor();
      await screenshot(page, 'execution');
      expect(await accessibilityViolations(page)).toEqual([]);

      const executionId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
      const execution = await server.call('GET', `/api/executions/${executionId}`, {
        headers: ADMIN,
      });
      expect(execution.json.data.status).toBe('COMPLETED');
      expect(execution.json.data.nodes.print.messagesIn).toBe(1);

      // A reload of the deep link shows the same execution: the key stays for the tab.
      await page.reload();
      await page.getByLabel('Execution status').filter({ hasText: 'COMPLETED' }).waitFor();

      expect(consoleErrors.filter((text) => !KEYLESS_READ.test(text))).toEqual([]);
    });

    it('turns a workflow always on and off from the session page, saying which it is in words', async () => {
      await page.goto(`${server.baseUrl}/sessions/demo`);
      const row = page.getByRole('row').filter({ hasText: 'hello' });
      await row.getByRole('button', { name: 'Activate hello' }).click();
      await row.getByRole('button', { name: 'Deactivate hello' }).waitFor();
      await row
        .getByRole('cell')
        .filter({ hasText: /^on Deactivate$/ })
        .waitFor();
      const listed = await server.call('GET', '/api/sessions/demo/workflows', { headers: ADMIN });
      expect(
        listed.json.data.find(
          (workflow: { workflowId: string }) => workflow.workflowId === 'hello',
        ),
      ).toMatchObject({ active: true });
      await row.getByRole('button', { name: 'Deactivate hello' }).click();
      await row.getByRole('button', { name: 'Activate hello' }).waitFor();
      const after = await server.call('GET', '/api/sessions/demo/workflows', { headers: ADMIN });
      expect(
        after.json.data.find((workflow: { workflowId: string }) => workflow.workflowId === 'hello'),
      ).toMatchObject({ active: false });
    });

    it('says plainly that the results and log lines of a run cut off by a server crash were not kept', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'ui-history-'));
      // A server process of its own, without a key, killed while a run goes on.
      const servers = new Restartable([], () => ({
        SVC_SESSION_STORE_TYPE: 'file',
        SVC_SESSION_BASE_DIR: path.join(dir, 'sessions'),
        SVC_EXECUTION_LOG_DIR: path.join(dir, 'log'),
      }));
      try {
        await servers.boot();
        await servers.define([slowWorkflow()]);
        const executionId = await servers.start('slow');
        await eventually(
          () => servers.record(executionId),
          (record) => record.nodes.in?.messagesOut === 1,
        );
        await servers.crashAndBoot();

        await page.goto(`${servers.server.baseUrl}/executions/${executionId}`);
        await page.getByLabel('Execution status').filter({ hasText: 'ABORTED' }).waitFor();
        await page
          .getByRole('region', { name: 'Results' })
          .getByText('Results were not kept.')
          .waitFor();
        await page
          .getByRole('region', { name: 'Logs' })
          .getByText('Log lines were not kept.')
          .waitFor();
      } finally {
        await servers.kill();
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('shows the message of the error envelope when the API refuses a start', async () => {
      await page.goto(`${server.baseUrl}/sessions/demo/workflows/hello`);
      await page.getByLabel('Payload (JSON)').fill('{}');
      await page.getByLabel('Priority').fill('1.5');
      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByRole('alert').filter({ hasText: 'Priority must be an integer' }).waitFor();
    });

    it('shows the node that failed first and its error at the top of a failed run', async () => {
      const start = await server.call('POST', '/api/workflow/start', {
        headers: ADMIN,
        body: { sessionId: 'demo', workflowId: 'broken' },
      });
      expect(start.status).toBe(202);
      await page.goto(`${server.baseUrl}/executions/${String(start.json.data.executionId)}`);
      await page.getByLabel('Execution status').filter({ hasText: 'FAILED' }).waitFor();
      const cause = page.getByRole('alert', { name: 'Why the run failed' });
      await cause.filter({ hasText: 'Node boom ended FAILURE' }).waitFor();
      expect(await cause.textContent()).toContain('boom-ui');
      // It stands above the summary, not below the nodes that ended UPSTREAM_FAILED.
      const region = page.getByRole('region', { name: /^Execution / });
      const first = await region.locator('h2 + *').getAttribute('aria-label');
      expect(first).toBe('Why the run failed');
    });

    it('lists the executions, narrows them by status and opens one, with no accessibility violation', async () => {
      await page.goto(`${server.baseUrl}/executions`);
      const table = page.getByRole('table');
      await table.getByRole('row').filter({ hasText: 'COMPLETED' }).first().waitFor();
      await table.getByRole('row').filter({ hasText: 'FAILED' }).first().waitFor();
      await screenshot(page, 'executions');
      expect(await accessibilityViolations(page)).toEqual([]);

      await page.getByLabel('Status').selectOption('FAILED');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/status=FAILED/);
      await expect
        .poll(() => table.getByRole('row').filter({ hasText: 'COMPLETED' }).count())
        .toBe(0);
      const failed = table.getByRole('row').filter({ hasText: 'broken' }).first();
      await failed.getByRole('link').first().click();
      await page.getByLabel('Execution status').filter({ hasText: 'FAILED' }).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
    });

    it('lists dead letters, redrives one with an edited payload opening the new run, and deletes one (docs/dead-letters.md)', async () => {
      await server.call('POST', '/api/sessions', {
        headers: ADMIN,
        body: { sessionId: 'letters', name: 'Letters', initiator: 'ops', workflows: [doubling()] },
      });
      const start = await server.call('POST', '/api/workflow/start', {
        headers: ADMIN,
        body: { sessionId: 'letters', workflowId: 'doubling' },
      });
      const first = String(start.json.data.executionId);
      await endOf({ call: (method, url) => server.call(method, url, { headers: ADMIN }) }, first);
      await page.goto(`${server.baseUrl}/dead-letters?executionId=${first}`);
      const letters = page.getByRole('article', { name: /^Dead letter / });
      await letters.first().waitFor();
      expect(await letters.count()).toBe(2);
      await screenshot(page, 'dead-letters');
      expect(await accessibilityViolations(page)).toEqual([]);
      await letters.nth(1).getByRole('button', { name: 'Delete' }).click();
      await eventually(
        () => letters.count(),
        (count) => count === 1,
      );
      await letters
        .first()
        .getByLabel(/^Payload of message /)
        .fill('4');
      await letters.first().getByRole('button', { name: 'Redrive' }).click();
      await page.waitForURL(/\/executions\/[^/]+$/);
      await page.getByLabel('Execution status').filter({ hasText: 'COMPLETED' }).waitFor();
      await page.getByRole('region', { name: 'Results' }).getByText('8', { exact: true }).waitFor();
    });

    it('edits what a node received and restarts the run from it, opening the new run (docs/run-repair.md)', async () => {
      const start = await server.call('POST', '/api/workflow/start', {
        headers: ADMIN,
        body: { sessionId: 'demo', workflowId: 'hello', payload: { name: 'Ann' } },
      });
      const first = String(start.json.data.executionId);
      await page.goto(`${server.baseUrl}/executions/${first}`);
      await page.getByLabel('Execution status').filter({ hasText: 'COMPLETED' }).waitFor();
      await page.getByRole('button', { name: 'Edit input of greet and restart from it' }).click();
      const repair = page.getByRole('region', { name: 'Restart from greet' });
      const payload = repair.getByLabel(/^Payload of message/);
      expect(JSON.parse(await payload.inputValue())).toEqual({ name: 'Ann' });
      await payload.fill('{"name": "Bob"}');
      await repair.getByRole('button', { name: 'Restart from greet' }).click();
      await page.waitForURL(
        (url) => url.pathname.startsWith('/executions/') && !url.pathname.endsWith(first),
      );
      const again = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
      const ended = await eventually(
        async () =>
          (await server.call('GET', `/api/executions/${again}`, { headers: ADMIN })).json.data,
        (data) => (data as { status: string }).status === 'COMPLETED',
      );
      expect(ended).toMatchObject({ restartOf: first });
      const results = await server.call('GET', `/api/executions/${again}/results`, {
        headers: ADMIN,
      });
      expect(results.json.data[0].payload).toBe('Hello Bob');
    });

    it('has the browser enforce the page policy: an inline script is refused', async () => {
      consoleErrors.length = 0;
      const ran = await page.evaluate(`(() => {
        const script = document.createElement('script');
        script.textContent = 'document.body.dataset.inline = "ran"';
        document.head.append(script);
        return document.body.dataset.inline ?? 'refused';
      })()`);
      expect(ran).toBe('refused');
      await expect
        .poll(() => consoleErrors.some((text) => text.includes('CSP violation: script-src')))
        .toBe(true);
    });
  },
);

describe('Browser tests', () => {
  it('are skipped with the reason when Chromium is missing and CI is not set', () => {
    expect(chromiumUnavailable(undefined, '')).toMatch(/apt-get install -y chromium/);
    expect(chromiumUnavailable('/usr/bin/chromium', 'true')).toBeUndefined();
  });

  it('fail when Chromium is missing and CI is set, so that a run without it is noticed', () => {
    expect(() => chromiumUnavailable(undefined, 'true')).toThrow(/no chromium on the PATH/);
  });
});
