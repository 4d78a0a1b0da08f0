// The editor's canvas in Chromium (docs/ui.md "Editor"): where nodes were left is saved with the
// workflow and found again after a reload, moving a node (by mouse or arrow key) is one step of
// undo and redo, and an edge is drawn on the canvas with the keyboard alone, with no
// accessibility violation. Skipped with the reason when Chromium is missing and CI is not set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath, chromiumUnavailable } from './support/browser.js';
import { UI_ADMIN, accessibilityViolations, openUi, screenshot } from './support/ui-page.js';
import type { UiPage } from './support/ui-page.js';
import { linearWorkflow } from './support/workflows.js';

const executable = chromiumPath();
const unavailable = chromiumUnavailable(executable);

interface Point {
  readonly x: number;
  readonly y: number;
}

/** Where a node sits on the canvas, in the canvas's own coordinates (its CSS translation). */
async function placeOf(page: Page, nodeId: string): Promise<Point> {
  const transform =
    (await page.locator(`.react-flow__node[data-id="${nodeId}"]`).getAttribute('style')) ?? '';
  const found = /translate\((-?[\d.e+-]+)px, ?(-?[\d.e+-]+)px\)/.exec(transform);
  if (found === null) throw new Error(`Node ${nodeId} has no translation: '${transform}'`);
  return { x: Number(found[1]), y: Number(found[2]) };
}

/** Drags a node by its head, `dx` pixels of the screen to the right. */
async function dragNode(page: Page, nodeId: string, dx: number): Promise<void> {
  const head = page.locator(`.react-flow__node[data-id="${nodeId}"] .node-card-head`);
  const box = await head.boundingBox();
  if (box === null) throw new Error(`Node ${nodeId} is not on view`);
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx / 2, from.y + 10, { steps: 5 });
  await page.mouse.move(from.x + dx, from.y + 20, { steps: 5 });
  await page.mouse.up();
}

/** Presses Tab until the element named `name` has the focus; fails after `most` presses. */
async function tabTo(page: Page, name: string, most = 300): Promise<void> {
  for (let presses = 0; presses < most; presses += 1) {
    const [focused] = await page
      .locator(':focus')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')));
    if (focused === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached '${name}'`);
}

function saveStatus(page: Page) {
  return page.getByRole('status', { name: 'Save status' });
}

describe.skipIf(unavailable !== undefined)(
  `The canvas in Chromium${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let ui: UiPage;
    let page: Page;
    const editPath = '/sessions/canvas/workflows/placed/edit';
    const apiPath = '/api/sessions/canvas/workflows/placed';

    beforeAll(async () => {
      ui = await openUi(executable ?? 'chromium');
      page = ui.page;
      const created = await ui.server.call('POST', '/api/sessions', {
        headers: UI_ADMIN,
        body: {
          sessionId: 'canvas',
          name: 'Canvas',
          initiator: 'author',
          workflows: [linearWorkflow('placed')],
        },
      });
      expect(created.status).toBe(201);
    });
    afterAll(async () => {
      await ui.close();
    });

    /** Opens the editor once its first layout has landed and the view no longer jumps. */
    async function openEditor(): Promise<void> {
      await page.goto(`${ui.server.baseUrl}${editPath}`);
      await page.locator('.react-flow__node[data-id="print"]').waitFor();
      await page.locator('.canvas[aria-busy="false"]').waitFor();
    }

    it('shows no node before the first layout has placed it and the view is fitted', async () => {
      // Watched from the page's first script on, after every change to the page: nodes shown
      // while two of them share one place (those without a saved place start at the origin)
      // are counted. The workflow has no saved layout yet.
      await page.addInitScript({
        content: `window.stackedShown = 0;
          new MutationObserver(() => {
            const viewport = document.querySelector('.react-flow__viewport');
            if (viewport === null || getComputedStyle(viewport).visibility === 'hidden') return;
            const places = [...document.querySelectorAll('.react-flow__node')].map(
              (node) => node.style.transform,
            );
            if (new Set(places).size < places.length) window.stackedShown += 1;
          }).observe(document, { subtree: true, childList: true, attributes: true });`,
      });
      await openEditor();
      await expect.poll(() => page.locator('.react-flow__node').count()).toBe(3);
      const stackedShown = await page.evaluate<number>('window.stackedShown');
      expect(stackedShown).toBe(0);
      await expect(page.locator('.react-flow__node[data-id="start"]').isVisible()).resolves.toBe(
        true,
      );
    });

    it('undoes a node moved by the mouse in one step, and redoes it', async () => {
      await openEditor();
      // The first layout has placed the nodes; the history starts empty.
      const undo = page.getByRole('button', { name: 'Undo' });
      const redo = page.getByRole('button', { name: 'Redo' });
      await expect.poll(() => undo.isDisabled()).toBe(true);
      const before = await placeOf(page, 'shape');
      await dragNode(page, 'shape', 160);
      await expect
        .poll(async () => (await placeOf(page, 'shape')).x)
        .toBeGreaterThan(before.x + 50);
      const moved = await placeOf(page, 'shape');
      await undo.click();
      await expect.poll(() => placeOf(page, 'shape')).toEqual(before);
      await expect.poll(() => undo.isDisabled()).toBe(true);
      await redo.click();
      await expect.poll(() => placeOf(page, 'shape')).toEqual(moved);
      await undo.click();
      await expect.poll(() => placeOf(page, 'shape')).toEqual(before);
    });

    it('keeps where nodes were left: Save writes only the layout when the definition is unchanged, and a reload finds them there', async () => {
      await openEditor();
      await dragNode(page, 'print', 200);
      const moved = await placeOf(page, 'print');
      await saveStatus(page).filter({ hasText: 'Unsaved changes.' }).waitFor();
      await page.getByRole('button', { name: 'Save version' }).click();
      await saveStatus(page)
        .filter({ hasText: 'Saved the layout: the definition is unchanged, so no new version' })
        .waitFor();
      const versions = await ui.server.call('GET', `${apiPath}/versions`, { headers: UI_ADMIN });
      expect(versions.json.data).toHaveLength(1);
      const layout = await ui.server.call('GET', `${apiPath}/layout`, { headers: UI_ADMIN });
      expect(layout.json.data).toMatchObject({ version: 1, positions: { print: moved } });
      const others = { start: await placeOf(page, 'start'), shape: await placeOf(page, 'shape') };

      await page.reload();
      await page.locator('.react-flow__node[data-id="print"]').waitFor();
      await expect.poll(() => placeOf(page, 'print')).toEqual(moved);
      expect(await placeOf(page, 'start')).toEqual(others.start);
      expect(await placeOf(page, 'shape')).toEqual(others.shape);
      expect(await saveStatus(page).textContent()).toBe('');

      // A changed definition is a new version, and its layout is written after it.
      await page.getByLabel('Description').fill('moved and described');
      await dragNode(page, 'start', 120);
      const start = await placeOf(page, 'start');
      await page.getByRole('button', { name: 'Save version' }).click();
      await saveStatus(page).filter({ hasText: 'Saved version 2 and its layout.' }).waitFor();
      const after = await ui.server.call('GET', `${apiPath}/layout`, { headers: UI_ADMIN });
      expect(after.json.data).toMatchObject({ version: 2, positions: { start, print: moved } });
      await page.reload();
      await page.locator('.react-flow__node[data-id="start"]').waitFor();
      await expect.poll(() => placeOf(page, 'start')).toEqual(start);
      await screenshot(page, 'canvas-layout-reloaded');
    });

    it('says a version was saved without its layout when writing the layout fails, and then saves the layout alone', async () => {
      await openEditor();
      const layoutCall = `**${apiPath}/layout`;
      await page.route(layoutCall, (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({
              status: 503,
              contentType: 'application/json',
              body: JSON.stringify({ status: 503, message: 'Layout store down' }),
            })
          : route.continue(),
      );
      await page.getByLabel('Description').fill('layout write fails');
      await dragNode(page, 'shape', 100);
      const shape = await placeOf(page, 'shape');
      await page.getByRole('button', { name: 'Save version' }).click();
      await saveStatus(page).filter({ hasText: 'its layout is not saved yet' }).waitFor();
      await page.getByText('Layout store down').waitFor();
      await page.unroute(layoutCall);
      const versions = await ui.server.call('GET', `${apiPath}/versions`, { headers: UI_ADMIN });
      const newest = versions.json.data[0].version as number;

      await page.getByRole('button', { name: 'Save version' }).click();
      await saveStatus(page).filter({ hasText: 'Saved the layout' }).waitFor();
      const after = await ui.server.call('GET', `${apiPath}/versions`, { headers: UI_ADMIN });
      expect(after.json.data[0].version).toBe(newest);
      const layout = await ui.server.call('GET', `${apiPath}/layout`, { headers: UI_ADMIN });
      expect(layout.json.data).toMatchObject({ version: newest, positions: { shape } });
    });

    it('draws an edge on the canvas with the keyboard alone, and moves a node with the arrow keys as one undo step each', async () => {
      await page.goto(`${ui.server.baseUrl}/sessions/canvas/workflows/wired/edit`);
      await page.getByText('The canvas is empty').waitFor();
      const nodes = page.getByRole('list', { name: 'Nodes' });
      for (const type of ['MANUAL', 'CONSOLE_TERMINAL']) {
        await tabTo(page, `Add ${type}`);
        await page.keyboard.press('Enter');
        await nodes.getByText(type.toLowerCase().replaceAll('_', '-'), { exact: true }).waitFor();
      }

      await tabTo(page, 'Output port out of node manual');
      await page.keyboard.press('Enter');
      await expect
        .poll(() =>
          page
            .getByRole('button', { name: 'Output port out of node manual' })
            .getAttribute('aria-pressed'),
        )
        .toBe('true');
      await tabTo(page, 'Input of node console-terminal');
      await page.keyboard.press('Enter');
      await page
        .getByRole('button', { name: 'Delete edge manual (out) → console-terminal' })
        .waitFor();
      await page.locator('.react-flow__edge').first().waitFor();
      expect(
        await page
          .getByRole('button', { name: 'Output port out of node manual' })
          .getAttribute('aria-pressed'),
      ).toBe('false');

      // Escape lets go of a chosen output without connecting anything.
      await tabTo(page, 'Output port out of node manual');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await tabTo(page, 'Input of node console-terminal');
      await page.keyboard.press('Enter');
      expect(await page.getByRole('list', { name: 'Edges' }).getByRole('listitem').count()).toBe(1);

      // A node chosen with Enter moves with the arrow keys; each press is one step of undo.
      await tabTo(page, 'Node console-terminal');
      await page.keyboard.press('Enter');
      const before = await placeOf(page, 'console-terminal');
      await page.keyboard.press('ArrowRight');
      await expect
        .poll(async () => (await placeOf(page, 'console-terminal')).x)
        .toBeGreaterThan(before.x);
      const once = await placeOf(page, 'console-terminal');
      await page.keyboard.press('ArrowDown');
      await expect
        .poll(async () => (await placeOf(page, 'console-terminal')).y)
        .toBeGreaterThan(once.y);
      await page.keyboard.press('Control+z');
      await expect.poll(() => placeOf(page, 'console-terminal')).toEqual(once);
      await page.keyboard.press('Control+z');
      await expect.poll(() => placeOf(page, 'console-terminal')).toEqual(before);
      // The edge, made before the moves, is still there.
      expect(await page.getByRole('list', { name: 'Edges' }).getByRole('listitem').count()).toBe(1);

      await page
        .getByRole('status', { name: 'Validation' })
        .filter({ hasNotText: 'checking' })
        .waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'canvas-keyboard-edge');
    });
  },
);
