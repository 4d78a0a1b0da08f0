// The studio at scale in Chromium against a real server (docs/ui.md "Large workflows and long
// runs"): a 500-node workflow opens in the graph, the editor and the run view and answers a
// click and typing within a bound, and a run of 100,000 log lines keeps only a window of rows
// in the page while it scrolls to the last line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumPath, chromiumUnavailable } from './support/browser.js';
import { UI_ADMIN, accessibilityViolations, openUi, screenshot } from './support/ui-page.js';
import type { TestServer } from './support/server.js';
import type { UiPage } from './support/ui-page.js';
import { eventually } from './support/wait.js';
import { chattyWorkflow as chatty, linearWorkflow } from './support/workflows.js';

const executable = chromiumPath();
const unavailable = chromiumUnavailable(executable);

const NODES = 500;
const CHAINS = 20;
const LOG_LINES = 100_000;
/** The largest page of the execution search (`limit` at most 1,000). */
const EXECUTIONS = 1_000;
/** How long a click or a key may take to show its effect, on a busy two-core test machine. */
const ANSWER_MS = 1_000;
/** How long a page may take from navigation until it answers input. */
const INTERACTIVE_MS = 10_000;
/** Rows a virtualised list may hold in the page: a window, never the whole list. */
const ROWS_IN_PAGE = 200;

/** A trigger feeding 20 chains of DELAY nodes, each ending in a terminal: 500 nodes in all. */
function wideWorkflow() {
  const ids = Array.from({ length: NODES - 1 }, (_, n) => `n-${String(n)}`);
  const lastOfChain = (n: number) => n + CHAINS >= ids.length;
  return {
    workflowId: 'wide',
    description: '500 nodes in 20 chains',
    nodes: [
      { nodeId: 'in', type: 'API_TRIGGER' },
      ...ids.map((nodeId, n) =>
        lastOfChain(n)
          ? { nodeId, type: 'CONSOLE_TERMINAL' }
          : { nodeId, type: 'DELAY', config: { delayMs: 0 } },
      ),
    ],
    edges: ids.map((target, n) => ({
      source: n < CHAINS ? 'in' : `n-${String(n - CHAINS)}`,
      target,
    })),
  };
}

/**
 * Milliseconds the page takes from `act` until `shown` is on view (or holds), by the page's own
 * clock: a page busy drawing answers late, however fast the test asks.
 */
async function answerTime(
  page: Page,
  act: () => Promise<void>,
  shown: Locator | (() => Promise<unknown>),
): Promise<number> {
  const before = await page.evaluate(() => performance.now());
  await act();
  await (typeof shown === 'function' ? shown() : shown.waitFor());
  return (await page.evaluate(() => performance.now())) - before;
}

/** Starts a workflow of the session and waits for it to complete; answers the execution id. */
async function runToCompletion(
  server: TestServer,
  workflowId: string,
  payload: unknown,
): Promise<string> {
  const started = await server.call('POST', '/api/workflow/start', {
    headers: UI_ADMIN,
    body: { sessionId: 'big', workflowId, payload },
  });
  const id = String(started.json.data.executionId);
  await eventually(
    () => server.call('GET', `/api/executions/${id}`, { headers: UI_ADMIN }),
    (answer) => answer.json.data.status === 'COMPLETED',
    60_000,
  );
  return id;
}

/** Milliseconds since the page's navigation began, by the page's own clock. */
function sinceNavigation(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

describe.skipIf(unavailable !== undefined)(
  `The studio at scale in Chromium${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let ui: UiPage;

    beforeAll(async () => {
      ui = await openUi(executable ?? 'chromium', {
        SVC_LOGS_MAX_PER_EXECUTION: String(LOG_LINES),
        // Beyond the 500 runs kept by default, so that one page of the search holds 1,000.
        SVC_EXECUTION_LOG_RETAINED_RUNS: String(2 * EXECUTIONS),
      });
      const created = await ui.server.call('POST', '/api/sessions', {
        headers: UI_ADMIN,
        body: {
          sessionId: 'big',
          name: 'Big',
          initiator: 'ops',
          workflows: [wideWorkflow(), chatty, linearWorkflow('quick')],
        },
      });
      expect(created.status).toBe(201);
    });
    afterAll(async () => {
      await ui.close();
    });

    it('opens a 500-node workflow in the graph and the editor, and answers a click and typing within a second', async () => {
      const { page, server } = ui;
      await page.goto(`${server.baseUrl}/sessions/big/workflows/wide`);
      const graph = page.getByRole('img', { name: 'Graph of workflow wide' });
      await graph.getByText('n-498', { exact: true }).waitFor();
      const payload = page.getByLabel('Payload (JSON)');
      await payload.fill('{"ready": true}');
      expect(await sinceNavigation(page)).toBeLessThan(INTERACTIVE_MS);
      expect(
        await answerTime(
          page,
          () => payload.pressSequentially('x'),
          page.getByText('{"ready": true}x'),
        ),
      ).toBeLessThan(ANSWER_MS);
      expect(await accessibilityViolations(page)).toEqual([]);

      await page.goto(`${server.baseUrl}/sessions/big/workflows/wide/edit`);
      const outline = page.getByRole('list', { name: 'Nodes' });
      await outline.getByRole('button', { name: 'Edit n-0', exact: true }).waitFor();
      expect(await sinceNavigation(page)).toBeLessThan(INTERACTIVE_MS);
      expect(await outline.getByRole('listitem').count()).toBeLessThan(ROWS_IN_PAGE);
      const form = page.getByRole('region', { name: 'Settings of n-3' });
      expect(
        await answerTime(
          page,
          () => outline.getByRole('button', { name: 'Edit n-3', exact: true }).click(),
          form,
        ),
      ).toBeLessThan(ANSWER_MS);
      const nodeId = form.getByLabel('Node id');
      expect(
        await answerTime(
          page,
          async () => {
            await nodeId.press('End');
            await nodeId.pressSequentially('z');
          },
          () => expect.poll(() => nodeId.inputValue()).toBe('n-3z'),
        ),
      ).toBeLessThan(ANSWER_MS);
      await screenshot(page, 'scale-editor');
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(ui.errors).toEqual([]);
    }, 120_000);

    it('runs the 500-node workflow and inspects its last node from the run view within a second', async () => {
      const { page, server } = ui;
      const id = await runToCompletion(server, 'wide', { go: true });
      await page.goto(`${server.baseUrl}/executions/${id}`);
      // The node table holds a window of its 500 rows; End in it brings the last node.
      const table = page.getByRole('region', { name: 'Nodes' }).getByRole('table');
      await table.getByRole('button', { name: 'Inspect in', exact: true }).waitFor();
      expect(await table.getByRole('row').count()).toBeLessThan(ROWS_IN_PAGE);
      await table.evaluate((element) => {
        element.parentElement?.focus();
      });
      await page.keyboard.press('End');
      const inspect = table.getByRole('button', { name: 'Inspect n-498', exact: true });
      await inspect.waitFor();
      expect(await sinceNavigation(page)).toBeLessThan(INTERACTIVE_MS);
      expect(
        await answerTime(
          page,
          () => inspect.click(),
          page.getByRole('region', { name: 'Node n-498' }),
        ),
      ).toBeLessThan(ANSWER_MS);
      await screenshot(page, 'scale-run');
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(ui.errors).toEqual([]);
    }, 120_000);

    it('keeps a window of rows of a page of 1,000 executions in the page and reaches the last with End', async () => {
      const { page, server } = ui;
      const start = () =>
        server.call('POST', '/api/workflow/start', {
          headers: UI_ADMIN,
          body: { sessionId: 'big', workflowId: 'quick', payload: {} },
        });
      for (let started = 0; started < EXECUTIONS; started += 50) {
        const answers = await Promise.all(Array.from({ length: 50 }, start));
        expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
      }
      const search = `workflowId=quick&limit=${String(EXECUTIONS)}`;
      const listed = await server.call('GET', `/api/executions?${search}`, { headers: UI_ADMIN });
      const ids = (listed.json.data.items as { executionId: string }[]).map((e) => e.executionId);
      expect(ids).toHaveLength(EXECUTIONS);
      const [first = '', last = ''] = [ids[0], ids.at(-1)];
      await page.goto(`${server.baseUrl}/executions?${search}`);
      const table = page.getByRole('table', { name: 'Executions' });
      await table.getByRole('link', { name: first, exact: true }).waitFor();
      expect(await sinceNavigation(page)).toBeLessThan(INTERACTIVE_MS);
      const rows = table.getByRole('row');
      expect(await rows.count()).toBeLessThan(ROWS_IN_PAGE);
      expect(await table.getAttribute('aria-rowcount')).toBe(String(EXECUTIONS + 1));
      await table.evaluate((element) => {
        element.parentElement?.focus();
      });
      const lastLink = table.getByRole('link', { name: last, exact: true });
      expect(await answerTime(page, () => page.keyboard.press('End'), lastLink)).toBeLessThan(
        ANSWER_MS,
      );
      const lastRow = rows.filter({
        has: page.getByRole('link', { name: last, exact: true }),
      });
      expect(await lastRow.getAttribute('aria-rowindex')).toBe(String(EXECUTIONS + 1));
      expect(await rows.count()).toBeLessThan(ROWS_IN_PAGE);
      await page.keyboard.press('Home');
      await table.getByRole('link', { name: first, exact: true }).waitFor();
      await screenshot(page, 'scale-executions');
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(ui.errors).toEqual([]);
    }, 120_000);

    it('keeps a window of rows of a run with 100,000 log lines in the page and scrolls to the last line', async () => {
      const { page, server } = ui;
      const payload = Array.from({ length: LOG_LINES }, (_, n) => n);
      const id = await runToCompletion(server, 'chatty', payload);
      const reads: URL[] = [];
      const onRequest = (request: { url(): string }) => {
        const url = new URL(request.url());
        if (url.pathname === `/api/executions/${id}/logs`) reads.push(url);
      };
      page.on('request', onRequest);
      await page.goto(`${server.baseUrl}/executions/${id}`);
      const logs = page.getByRole('region', { name: 'Logs' });
      await logs.getByText(`${String(LOG_LINES)} lines`).waitFor({ timeout: 30_000 });
      page.off('request', onRequest);
      // Read a slice at a time, each after the newest line held: never all in one answer, and
      // never a slice twice (a change may ask once more after the last line).
      expect(reads.length).toBeGreaterThanOrEqual(LOG_LINES / 5_000);
      expect(reads.every((url) => url.searchParams.get('limit') === '5000')).toBe(true);
      const afters = reads.map((url) => Number(url.searchParams.get('after') ?? 0));
      expect(afters).toEqual([...afters].sort((a, b) => a - b));
      expect(new Set(afters).size).toBeGreaterThanOrEqual(LOG_LINES / 5_000);
      const rows = logs.getByRole('list', { name: 'Log lines of the run' }).getByRole('listitem');
      expect(await rows.count()).toBeGreaterThan(0);
      expect(await rows.count()).toBeLessThan(ROWS_IN_PAGE);
      // The list opens at its newest line; Home then End go to either end by keyboard.
      const last = rows.filter({ hasText: /"payload":99999}$/ });
      await last.waitFor();
      await rows.first().evaluate((row) => {
        row.parentElement?.parentElement?.focus();
      });
      await page.keyboard.press('Home');
      await rows.filter({ hasText: /"payload":0}$/ }).waitFor();
      expect(await rows.count()).toBeLessThan(ROWS_IN_PAGE);
      expect(await answerTime(page, () => page.keyboard.press('End'), last)).toBeLessThan(
        ANSWER_MS,
      );
      expect(await last.getAttribute('aria-posinset')).toBe(String(LOG_LINES));
      await screenshot(page, 'scale-logs');
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(ui.errors).toEqual([]);
    }, 180_000);
  },
);
