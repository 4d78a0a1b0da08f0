// The live run view of the web UI in a real browser (Debian's Chromium through playwright-core)
// against a real server: per-edge rates and loads on the graph and in the edge table, the node
// that holds the others back named in words, and the timeline of node activity with its
// retries (docs/ui.md).
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath, chromiumUnavailable } from './support/browser.js';
import { UI_ADMIN, accessibilityViolations, openUi, screenshot } from './support/ui-page.js';
import type { TestServer } from './support/server.js';
import type { UiPage } from './support/ui-page.js';
import { eventually } from './support/wait.js';

const executable = chromiumPath();
const unavailable = chromiumUnavailable(executable);

/** A fast node feeding a slow one: the slow node's input fills and the fast one waits. */
const bottleneck = {
  workflowId: 'bottleneck',
  description: 'a fast node feeding a slow one',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'fast', type: 'DELAY', config: { delayMs: 0 } },
    // Not 1000 ms: a delay as long as the flow events' interval would keep the two timers in
    // step, and every flow would be read at the same point of the slow node's cycle.
    { nodeId: 'slow', type: 'DELAY', config: { delayMs: 1500 } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'fast' },
    { source: 'fast', target: 'slow' },
    { source: 'slow', target: 'out' },
  ],
};

/**
 * An endpoint that answers 503 to its first request and 200 to every later one. With `held`,
 * the first request waits for `release()` first: the test decides when that attempt ends.
 */
async function startFailingOnce(
  held = false,
): Promise<{ server: Server; url: string; release: () => void }> {
  let release = (): void => undefined;
  const released = held
    ? new Promise<void>((resolve) => {
        release = resolve;
      })
    : Promise.resolve();
  let first = true;
  const server = createServer((request, response) => {
    const failing = first;
    first = false;
    request.resume();
    request.on('end', () => {
      void (failing ? released : Promise.resolve()).then(() => {
        response.statusCode = failing ? 503 : 200;
        response.setHeader('content-type', 'application/json');
        response.end('{"ok":true}');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`;
  return { server, url, release };
}

/** Creates a session holding `workflow`, starts it and answers the execution id. */
async function startInNewSession(
  server: TestServer,
  sessionId: string,
  workflow: { readonly workflowId: string },
): Promise<string> {
  await server.call('POST', '/api/sessions', {
    headers: UI_ADMIN,
    body: { sessionId, name: sessionId, initiator: 'ops', workflows: [workflow] },
  });
  const started = await server.call('POST', '/api/workflow/start', {
    headers: UI_ADMIN,
    body: { sessionId, workflowId: workflow.workflowId, payload: { n: 1 } },
  });
  return String(started.json.data.executionId);
}

/** A call retried once, and nothing after it: the run ends as soon as the retry succeeds. */
function retryThenEnd(url: string) {
  const held = retrying(url);
  return {
    ...held,
    workflowId: 'retry-then-end',
    description: 'a call retried once, then the end',
    nodes: held.nodes.filter((node) => node.nodeId !== 'ask'),
    edges: [
      { source: 'in', target: 'call' },
      { source: 'call', target: 'out' },
    ],
  };
}

/** What the activity list tells of one node, in order, without the times. */
async function toldOf(page: Page, nodeId: string): Promise<string[]> {
  const items = await page
    .getByRole('list', { name: 'Node activity' })
    .getByRole('listitem')
    .allTextContents();
  const mark = ` ${nodeId} `;
  return items
    .filter((text) => text.includes(mark))
    .map((text) => text.slice(text.indexOf(mark) + mark.length));
}

/** A call that fails once and succeeds on its retry, then an approval that holds the run open. */
function retrying(url: string) {
  return {
    workflowId: 'retrying',
    description: 'a call retried once, then a wait for approval',
    nodes: [
      { nodeId: 'in', type: 'API_TRIGGER' },
      {
        nodeId: 'call',
        type: 'HTTP_REQUEST',
        config: { method: 'POST', url, engine: { retry: { maxAttempts: 2, backoffMs: 1 } } },
      },
      { nodeId: 'ask', type: 'WAIT_FOR_SIGNAL', config: { prompt: 'Done?' } },
      { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'call' },
      { source: 'call', target: 'ask' },
      { source: 'ask', target: 'out', sourcePort: 'approved' },
    ],
  };
}

/** Stops the run and waits until it is STOPPED. */
async function stopRun(server: TestServer, id: string): Promise<void> {
  await server.call('POST', `/api/executions/${id}/stop`, { headers: UI_ADMIN });
  await eventually(
    () => server.call('GET', `/api/executions/${id}`, { headers: UI_ADMIN }),
    (answer) => answer.json.data.status === 'STOPPED',
  );
}

describe.skipIf(unavailable !== undefined)(
  `The live run view in Chromium${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let ui: UiPage;

    beforeAll(async () => {
      ui = await openUi(executable ?? 'chromium');
      await ui.server.call('POST', '/api/sessions', {
        headers: UI_ADMIN,
        body: { sessionId: 'ops', name: 'Ops', initiator: 'ops', workflows: [bottleneck] },
      });
    });
    afterAll(async () => {
      await ui.close();
    });

    it("sees a slow node's incoming edge reported full while its parent waits, names the node holding the others back, and lists node activity", async () => {
      const { page, server } = ui;
      const started = await server.call('POST', '/api/workflow/start', {
        headers: UI_ADMIN,
        body: {
          sessionId: 'ops',
          workflowId: 'bottleneck',
          payload: Array.from({ length: 200 }, (_, n) => ({ n })),
        },
      });
      const id = String(started.json.data.executionId);
      await page.goto(`${server.baseUrl}/executions/${id}`);

      // Named in words, not by colour alone.
      const heldBack = page.getByRole('status', { name: 'Held back by' });
      await expect
        .poll(() => heldBack.textContent(), { timeout: 10_000 })
        .toBe('Held back by: slow');
      const edges = page.getByRole('table', { name: 'Edges' });
      const intoSlow = edges.getByRole('row').filter({ hasText: 'fastslow' });
      await expect
        .poll(() => intoSlow.getByRole('cell').last().textContent())
        .toBe('full, fast waits');
      // 64 of 64: the run's edge capacity, all of it used by the fast node's messages.
      expect(await intoSlow.getByRole('cell').nth(3).textContent()).toBe('64 of 64');
      // The graph says it too: the edge label and the slow node's counts.
      const graph = page.getByRole('img', { name: 'Graph of workflow bottleneck' });
      await expect.poll(() => graph.getByText('64/64 full').count()).toBeGreaterThan(0);
      await expect.poll(() => graph.getByText(/holds back/).count()).toBe(1);
      // A rate comes with the second flow: a message every 1.5 s into the slow node.
      await expect
        .poll(() => intoSlow.getByRole('cell').nth(2).textContent(), { timeout: 5_000 })
        .toMatch(/^\d+\.\d$/);

      const activity = page.getByRole('list', { name: 'Node activity' });
      await activity
        .getByText(/slow\s+started/)
        .first()
        .waitFor();
      await activity
        .getByText(/fast\s+waits for room downstream/)
        .first()
        .waitFor();
      await page.getByRole('img', { name: /Timeline of node activity/ }).waitFor();

      await screenshot(page, 'live-run');
      expect(await accessibilityViolations(page)).toEqual([]);

      await stopRun(server, id);
      // The run is over: the live flow goes (no stale "held back"), the timeline stays.
      await heldBack.waitFor({ state: 'detached' });
      expect(await graph.getByText(/holds back/).count()).toBe(0);
      expect(await activity.getByRole('listitem').count()).toBeGreaterThan(0);
      expect(ui.errors).toEqual([]);
    }, 60_000);

    it('shows a node that failed once and succeeded on its retry as a retry in the timeline and its list', async () => {
      const { page, server } = ui;
      const endpoint = await startFailingOnce();
      try {
        const id = await startInNewSession(server, 'retries', retrying(endpoint.url));
        // The call has succeeded on its second attempt; the approval holds the run open.
        await eventually(
          () => server.call('GET', `/api/executions/${id}/approvals`, { headers: UI_ADMIN }),
          (answer) => (answer.json.data as unknown[]).length === 1,
        );
        const record = await server.call('GET', `/api/executions/${id}`, { headers: UI_ADMIN });
        expect(record.json.data.nodes.call).toMatchObject({ status: 'COMPLETED', retries: 1 });

        await page.goto(`${server.baseUrl}/executions/${id}`);
        const activity = page.getByRole('list', { name: 'Node activity' });
        await activity.getByText(/call\s+retried a message/).waitFor();
        // Seen only after the call had completed, the retry is still told before its end.
        const told = (await activity.getByRole('listitem').allTextContents()).filter((text) =>
          / call /.test(text),
        );
        expect(told.map((text) => text.replace(/^.* call /, ''))).toEqual([
          'started',
          'retried a message before it ended',
          'completed',
        ]);
        const timeline = page.getByRole('img', { name: /Timeline of node activity/ });
        expect(await timeline.locator('.retry-mark').count()).toBe(1);
        await screenshot(page, 'live-run-retry');
        expect(await accessibilityViolations(page)).toEqual([]);

        await stopRun(server, id);
        // The run is over: the retry stays in the timeline.
        await page.getByLabel('Execution status').filter({ hasText: 'STOPPED' }).waitFor();
        expect(await timeline.locator('.retry-mark').count()).toBe(1);
        expect(ui.errors).toEqual([]);
      } finally {
        await new Promise((resolve) => endpoint.server.close(resolve));
      }
    }, 60_000);

    it('shows the retry of a run that ended before the next flow, live and after a reload', async () => {
      const { page, server } = ui;
      const endpoint = await startFailingOnce(true);
      try {
        const id = await startInNewSession(server, 'quick', retryThenEnd(endpoint.url));
        await page.goto(`${server.baseUrl}/executions/${id}`);
        // The page follows the run while its first attempt hangs: flows have said "no retries".
        const activity = page.getByRole('list', { name: 'Node activity' });
        await activity.getByText(/call\s+started/).waitFor();
        await page.getByRole('region', { name: 'Live flow' }).getByText('Edges').waitFor();
        // Now the attempt fails, the retry succeeds and the run ends within milliseconds, long
        // before the next flow could be sent.
        endpoint.release();
        await page.getByLabel('Execution status').filter({ hasText: 'COMPLETED' }).waitFor();
        // Told by the state event that first carries the count: one of the call's own end, or
        // one of the terminal's start while the call still sends.
        await expect
          .poll(() => toldOf(page, 'call'))
          .toEqual(['started', expect.stringMatching(/^retried a message/), 'completed']);
        const timeline = page.getByRole('img', { name: /Timeline of node activity/ });
        expect(await timeline.locator('.retry-mark').count()).toBe(1);
        const record = await server.call('GET', `/api/executions/${id}`, { headers: UI_ADMIN });
        expect(record.json.data.nodes.call).toMatchObject({ status: 'COMPLETED', retries: 1 });

        // Opened after the end, the page learns it from the run's progress history.
        await page.reload();
        await page.getByLabel('Execution status').filter({ hasText: 'COMPLETED' }).waitFor();
        await expect
          .poll(() => toldOf(page, 'call'))
          .toEqual(['started', 'retried a message before it ended', 'completed']);
        expect(await timeline.locator('.retry-mark').count()).toBe(1);
        await screenshot(page, 'live-run-quick-retry');
        expect(ui.errors).toEqual([]);
      } finally {
        endpoint.release();
        await new Promise((resolve) => endpoint.server.close(resolve));
      }
    }, 60_000);
  },
);
