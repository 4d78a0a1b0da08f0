// The editor page in Chromium (docs/ui.md "Editor"): a workflow built from an empty canvas by
// mouse and by keyboard alone, validated live, saved as versions with notes and run; undo and
// redo, copy and paste, the text view, port labels that never overlap, and no accessibility
// violation. Skipped with the reason when Chromium is missing and CI is not set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumPath, chromiumUnavailable } from './support/browser.js';
import { UI_ADMIN, accessibilityViolations, openUi, screenshot } from './support/ui-page.js';
import type { UiPage } from './support/ui-page.js';

const executable = chromiumPath();
const unavailable = chromiumUnavailable(executable);

/** The middle of an element, where the mouse goes. */
async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (box === null) throw new Error('The element is not on view');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Draws an edge with the mouse, from a node's output handle to another's input handle. */
async function drawEdge(page: Page, source: string, port: string, target: string): Promise<void> {
  const from = await centre(
    page.locator(`.react-flow__node[data-id="${source}"] .output-handle[data-handleid="${port}"]`),
  );
  const to = await centre(page.locator(`.react-flow__node[data-id="${target}"] .input-handle`));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
}

/** The id the editor gives the first node of a plugin type. */
function idOf(type: string): string {
  return type.toLowerCase().replaceAll('_', '-');
}

/** Drags a palette entry onto the canvas and drops it at (x, y) of the canvas. */
async function dragFromPalette(page: Page, type: string, x: number, y: number): Promise<void> {
  const entry = page.locator(`[data-plugin-type="${type}"] .palette-name`);
  await entry.scrollIntoViewIfNeeded();
  const from = await centre(entry);
  const pane = await page.locator('.react-flow__pane').boundingBox();
  if (pane === null) throw new Error('The canvas is not on view');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 20, from.y, { steps: 3 });
  await page.mouse.move(pane.x + x, pane.y + y, { steps: 5 });
  await page.mouse.up();
}

/** Whether any two of the boxes overlap. */
function overlapping(boxes: readonly { x: number; y: number; width: number; height: number }[]) {
  return boxes.some((a, i) =>
    boxes.some(
      (b, j) =>
        i < j &&
        a.x < b.x + b.width &&
        b.x < a.x + a.width &&
        a.y < b.y + b.height &&
        b.y < a.y + a.height,
    ),
  );
}

describe.skipIf(unavailable !== undefined)(
  `The editor in Chromium${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let ui: UiPage;
    let page: Page;

    beforeAll(async () => {
      ui = await openUi(executable ?? 'chromium');
      page = ui.page;
    });
    afterAll(async () => {
      await ui.close();
    });

    it(
      'creates a session and builds, saves and runs a workflow from an empty canvas with the mouse',
      { timeout: 60_000 },
      async () => {
        await page.goto(`${ui.server.baseUrl}/`);
        const newSession = page.getByRole('form', { name: 'New session' });
        await newSession.getByLabel('Session id (optional)').fill('studio');
        await newSession.getByLabel('Name').fill('Studio');
        await newSession.getByLabel('Initiator').fill('author');
        await newSession.getByRole('button', { name: 'Create session' }).click();
        await page.waitForURL(/\/sessions\/studio$/);

        await page.getByLabel('New workflow id').fill('by-mouse');
        await page.getByRole('button', { name: 'New workflow' }).click();
        await page.waitForURL(/\/sessions\/studio\/workflows\/by-mouse\/edit$/);
        await page.getByText('The canvas is empty').waitFor();

        const drop = async (type: string, x: number, y: number) => {
          await dragFromPalette(page, type, x, y);
          await page.locator(`.react-flow__node[data-id="${idOf(type)}"]`).waitFor();
        };
        await drop('API_TRIGGER', 30, 60);
        await drop('MAPPER', 290, 60);
        await drop('CONSOLE_TERMINAL', 550, 60);

        // The mapper needs an expression in its default mode: the problem is on the node.
        const mapper = page.locator('.react-flow__node[data-id="mapper"]');
        await mapper.getByText('1 problem').waitFor();
        await screenshot(page, 'editor-mouse-problem');

        await drawEdge(page, 'api-trigger', 'out', 'mapper');
        await drawEdge(page, 'mapper', 'out', 'console-terminal');
        const edges = page.getByRole('list', { name: 'Edges' });
        await edges
          .getByRole('button', { name: 'Delete edge api-trigger (out) → mapper' })
          .waitFor();
        await edges
          .getByRole('button', { name: 'Delete edge mapper (out) → console-terminal' })
          .waitFor();

        // The form of the node opens by clicking it, with the problem on its field.
        await mapper.locator('.node-card-head').click();
        const form = page.getByRole('region', { name: 'Settings of mapper' });
        await form.getByLabel('mode').selectOption('TEMPLATE');
        await form.getByLabel('template').fill('Hello {{name}}');
        await page
          .getByRole('status', { name: 'Validation' })
          .filter({ hasText: '✓ valid' })
          .waitFor();
        await mapper.getByText('no problems').waitFor();

        await page.getByLabel('Version note').fill('first draft by mouse');
        await page.getByRole('button', { name: 'Save version' }).click();
        await page
          .getByRole('status', { name: 'Save status' })
          .filter({ hasText: 'Saved version 1' })
          .waitFor();
        await screenshot(page, 'editor-mouse-saved');

        const versions = await ui.server.call(
          'GET',
          '/api/sessions/studio/workflows/by-mouse/versions',
          {
            headers: UI_ADMIN,
          },
        );
        expect(versions.json.data).toMatchObject([{ version: 1, note: 'first draft by mouse' }]);

        await page.getByRole('link', { name: 'Open by-mouse to run it' }).click();
        await page.getByLabel('Payload (JSON)').fill('{"name": "mouse"}');
        await page.getByRole('button', { name: 'Start' }).click();
        await page.waitForURL(/\/executions\/[^/]+$/);
        await page.getByLabel('Execution status').filter({ hasText: 'COMPLETED' }).waitFor();
        await page.getByRole('region', { name: 'Results' }).getByText('"Hello mouse"').waitFor();
        expect(ui.errors.filter((text) => text.includes('CSP'))).toEqual([]);
      },
    );

    it(
      'builds, checks and saves a workflow with the keyboard alone, through the palette buttons and the outline',
      { timeout: 60_000 },
      async () => {
        const created = await ui.server.call('POST', '/api/sessions', {
          headers: UI_ADMIN,
          body: { sessionId: 'keys', name: 'Keys', initiator: 'author' },
        });
        expect(created.status).toBe(201);
        await page.goto(`${ui.server.baseUrl}/sessions/keys`);
        await page.getByLabel('New workflow id').focus();
        await page.keyboard.type('by-keys');
        await page.keyboard.press('Enter');
        await page.waitForURL(/\/workflows\/by-keys\/edit$/);

        const press = async (locator: Locator, key = 'Enter') => {
          await locator.focus();
          await page.keyboard.press(key);
        };
        const settled = page
          .getByRole('status', { name: 'Validation' })
          .filter({ hasNotText: 'checking' });
        for (const type of ['API_TRIGGER', 'BRANCH', 'MAPPER', 'CONSOLE_TERMINAL']) {
          await press(page.getByRole('button', { name: `Add ${type}` }));
          await page
            .getByRole('list', { name: 'Nodes' })
            .getByText(idOf(type), { exact: true })
            .waitFor();
        }

        // The branch's ports follow its cases, as the validate call reports them.
        await press(page.getByRole('button', { name: 'Edit branch' }));
        const branchForm = page.getByRole('region', { name: 'Settings of branch' });
        await branchForm.getByLabel('cases').focus();
        await page.keyboard.type('[{"name": "big", "expression": "n > 10"}]');
        const branch = page.locator('.react-flow__node[data-id="branch"]');
        await branch.locator('.output-handle[data-handleid="big"]').waitFor();
        await settled.waitFor();
        const draft = JSON.parse(await page.getByLabel('Workflow as JSON').inputValue()) as unknown;
        const checked = await ui.server.call('POST', '/api/sessions/validate', {
          headers: UI_ADMIN,
          body: draft,
        });
        const reported = checked.json.data.outputPorts.branch as string[];
        expect(reported).toContain('big');
        expect(
          await branch
            .locator('.output-handle')
            .evaluateAll((handles) =>
              handles.map((handle) => handle.getAttribute('data-handleid')),
            ),
        ).toEqual(reported);

        const connect = async (source: string, port: string, target: string) => {
          const form = page.getByRole('form', { name: 'Connect nodes' });
          await form.getByLabel('From').selectOption(source);
          await form.getByLabel('Port').selectOption(port);
          await form.getByLabel('To').selectOption(target);
          await press(form.getByRole('button', { name: 'Connect' }));
          await page
            .getByRole('button', { name: `Delete edge ${source} (${port}) → ${target}` })
            .waitFor();
        };
        await connect('api-trigger', 'out', 'branch');
        await connect('branch', 'big', 'mapper');
        await connect('mapper', 'out', 'console-terminal');
        await connect('branch', 'default', 'console-terminal');
        const edges = page.getByRole('list', { name: 'Edges' }).getByRole('listitem');
        expect(await edges.count()).toBe(4);

        // Undo and redo, from the keyboard.
        const undoButton = page.getByRole('button', { name: 'Undo' });
        await press(undoButton, 'Control+z');
        await expect.poll(() => edges.count()).toBe(3);
        await press(undoButton, 'Control+y');
        await expect.poll(() => edges.count()).toBe(4);

        // A problem in an engine setting is shown on its field and on the node, live.
        await press(page.getByRole('button', { name: 'Edit mapper' }));
        const mapperForm = page.getByRole('region', { name: 'Settings of mapper' });
        await mapperForm.getByLabel('mode').selectOption('TEMPLATE');
        await mapperForm.getByLabel('template').focus();
        await page.keyboard.type('big {{n}}');
        const attempts = mapperForm.getByLabel('Attempts per message');
        await attempts.focus();
        await page.keyboard.type('11');
        await expect.poll(() => attempts.getAttribute('aria-invalid')).toBe('true');
        await mapperForm.locator('.field-invalid .field-problems').getByText(/10/).waitFor();
        await page.locator('.react-flow__node[data-id="mapper"]').getByText('1 problem').waitFor();
        await page.keyboard.press('Backspace');
        await expect.poll(() => attempts.getAttribute('aria-invalid')).toBe('false');
        await page
          .getByRole('status', { name: 'Validation' })
          .filter({ hasText: '✓ valid' })
          .waitFor();

        // Copy and paste a node with its settings; then delete the copy.
        await press(page.getByRole('button', { name: 'Copy' }), 'Control+c');
        await press(page.getByRole('button', { name: 'Copy' }), 'Control+v');
        await page.getByRole('button', { name: 'Delete mapper-copy' }).waitFor();
        const pasted = JSON.parse(await page.getByLabel('Workflow as JSON').inputValue()) as {
          nodes: { nodeId: string; config?: unknown }[];
        };
        const original = pasted.nodes.find((node) => node.nodeId === 'mapper');
        expect(pasted.nodes.find((node) => node.nodeId === 'mapper-copy')?.config).toEqual(
          original?.config,
        );
        await press(page.getByRole('button', { name: 'Delete mapper-copy' }));
        await expect
          .poll(() => page.getByRole('button', { name: 'Delete mapper-copy' }).count())
          .toBe(0);

        // The text view follows the canvas, in YAML too, and a change typed there reaches it.
        await press(page.getByRole('radio', { name: 'YAML' }), 'Space');
        expect(await page.getByLabel('Workflow as YAML').inputValue()).toContain(
          'workflowId: by-keys',
        );
        await press(page.getByRole('radio', { name: 'JSON' }), 'Space');
        const text = page.getByLabel('Workflow as JSON');
        await text.fill(
          (await text.inputValue()).replace('"description": ""', '"description": "typed as text"'),
        );
        await expect.poll(() => page.getByLabel('Description').inputValue()).toBe('typed as text');

        // Port labels never overlap, on the canvas as arranged.
        await press(page.getByRole('button', { name: 'Arrange' }));
        await settled.waitFor();
        const labels = await page
          .locator('.react-flow__node .port-label, .react-flow__node .node-card-head')
          .evaluateAll((elements) =>
            elements.map((element) => {
              const box = element.getBoundingClientRect();
              return { x: box.x, y: box.y, width: box.width, height: box.height };
            }),
          );
        expect(labels.length).toBeGreaterThan(4);
        expect(overlapping(labels)).toBe(false);
        await screenshot(page, 'editor-keyboard');

        await page.getByLabel('Version note').focus();
        await page.keyboard.type('built by keyboard');
        await page.keyboard.press('Enter');
        await page
          .getByRole('status', { name: 'Save status' })
          .filter({ hasText: 'Saved version 1' })
          .waitFor();
        const start = await ui.server.call('POST', '/api/workflow/start', {
          headers: UI_ADMIN,
          body: { sessionId: 'keys', workflowId: 'by-keys', payload: { n: 42 } },
        });
        expect(start.status).toBe(202);
        const executionId = String(start.json.data.executionId);
        await expect
          .poll(
            async () =>
              (await ui.server.call('GET', `/api/executions/${executionId}`, { headers: UI_ADMIN }))
                .json.data.status,
          )
          .toBe('COMPLETED');
        const results = await ui.server.call('GET', `/api/executions/${executionId}/results`, {
          headers: UI_ADMIN,
        });
        expect(results.json.data.map((result: { payload: unknown }) => result.payload)).toEqual([
          'big 42',
        ]);
        const versions = await ui.server.call(
          'GET',
          '/api/sessions/keys/workflows/by-keys/versions',
          { headers: UI_ADMIN },
        );
        expect(versions.json.data).toMatchObject([{ version: 1, note: 'built by keyboard' }]);
      },
    );

    it('has no accessibility violations on the pages the editor adds to or opens from', async () => {
      const pages = [
        '/',
        '/sessions/keys',
        '/sessions/keys/workflows/by-keys/edit',
        '/sessions/keys/workflows/new-one/edit',
      ];
      for (const address of pages) {
        await page.goto(`${ui.server.baseUrl}${address}`);
        await page.getByRole('heading', { level: 2 }).first().waitFor();
        if (address.endsWith('/edit')) {
          await page
            .getByRole('status', { name: 'Validation' })
            .filter({ hasNotText: 'checking' })
            .waitFor();
        }
        expect({ address, violations: await accessibilityViolations(page) }).toEqual({
          address,
          violations: [],
        });
      }
      // With a node chosen, its form is on view too.
      await page.goto(`${ui.server.baseUrl}/sessions/keys/workflows/by-keys/edit`);
      await page.getByRole('button', { name: 'Edit mapper' }).click();
      await page.getByRole('region', { name: 'Settings of mapper' }).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'editor-form');
    }, 90_000);
  },
);
