// The live run view of the web UI in a real browser (Debian's Chromium through playwright-core)
// against a real server: per-edge rates and loads on the graph and in the edge table, the node
// that holds the others back named in words, and the timeline of node activity (docs/ui.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, chromiumUnavailable } from './support/browser.js';
import { UI_ADMIN, accessibilityViolations, openUi, screenshot } from './support/ui-page.js';
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
    { nodeId: 'slow', type: 'DELAY', config: { delayMs: 1000 } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'fast' },
    { source: 'fast', target: 'slow' },
    { source: 'slow', target: 'out' },
  ],
};

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
      // A rate comes with the second flow: about one message a second into the slow node.
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

      await server.call('POST', `/api/executions/${id}/stop`, { headers: UI_ADMIN });
      await eventually(
        () => server.call('GET', `/api/executions/${id}`, { headers: UI_ADMIN }),
        (answer) => answer.json.data.status === 'STOPPED',
      );
      // The run is over: the live flow goes (no stale "held back"), the timeline stays.
      await heldBack.waitFor({ state: 'detached' });
      expect(await graph.getByText(/holds back/).count()).toBe(0);
      expect(await activity.getByRole('listitem').count()).toBeGreaterThan(0);
      expect(ui.errors).toEqual([]);
    }, 60_000);
  },
);
