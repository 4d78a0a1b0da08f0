import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderConfigurationDoc } from './docs.js';
import { SETTING_KEYS } from './schema.js';
import { readsFromEnvironment, settingEnvName } from './setting-names.js';

const committedDoc = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));

describe('docs/configuration.md', () => {
  it('is the rendering of the settings schema as committed', () => {
    const committed = readFileSync(committedDoc, 'utf8');
    expect(
      committed,
      'docs/configuration.md is out of date: run `npm run docs` and commit the result',
    ).toBe(renderConfigurationDoc());
  });

  it('lists every setting with its environment variable', () => {
    const doc = renderConfigurationDoc();
    for (const key of SETTING_KEYS) {
      expect(doc, key).toContain(`| \`${key}\` |`);
      if (readsFromEnvironment(key)) expect(doc, key).toContain(`\`${settingEnvName(key)}`);
    }
  });
});
