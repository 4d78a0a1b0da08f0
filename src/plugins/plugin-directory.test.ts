// svc.plugins.dir: what start-up loads from the directory and how it refuses what it cannot
// load. Loading real plugins through a server is test/plugin-dir.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPluginDirectory } from './plugin-directory.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plugin-dir-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadPluginDirectory', () => {
  it('loads nothing when the setting is empty', async () => {
    expect(await loadPluginDirectory(null)).toEqual([]);
  });

  it('skips files of other kinds, hidden entries and node_modules', async () => {
    await writeFile(path.join(dir, 'README.md'), '# plugins\n');
    await writeFile(path.join(dir, '.draft.mjs'), 'export default 1;\n');
    await mkdir(path.join(dir, 'node_modules'));
    expect(await loadPluginDirectory(dir)).toEqual([]);
  });

  it('stops start-up on a directory it cannot read, naming it', async () => {
    const missing = path.join(dir, 'missing');
    await expect(loadPluginDirectory(missing)).rejects.toThrow(
      `svc.plugins.dir: cannot read '${missing}'`,
    );
  });

  it('stops start-up on a folder without package.json, naming it', async () => {
    await mkdir(path.join(dir, 'loose'));
    await expect(loadPluginDirectory(dir)).rejects.toThrow(
      `svc.plugins.dir: plugin '${path.join(dir, 'loose')}' is a folder without a readable package.json`,
    );
  });

  it('is refused by a native binary, which has no plugin API module to import', async () => {
    await expect(loadPluginDirectory(dir, { native: true })).rejects.toThrow(
      'svc.plugins.dir: a native binary cannot load plugins',
    );
  });

  it('stops start-up on a plugin that declares a setting the server does not have', async () => {
    await writeFile(
      path.join(dir, 'reads-too-much.mjs'),
      [
        "import { definePlugin, pluginSettings, z } from 'workflow-service/plugin-api';",
        'export default definePlugin({',
        "  type: 'READS_TOO_MUCH', kind: 'processor', description: 'Reads a setting.',",
        "  configSchema: z.object({}), outputPorts: () => ['out'],",
        "  settings: pluginSettings(['svc.no-such-setting'], (values) => values),",
        '});',
      ].join('\n'),
    );
    await expect(loadPluginDirectory(dir)).rejects.toThrow(
      "is not a plugin definition: settings.keys.0: Unknown setting 'svc.no-such-setting'",
    );
  });
});
