// Keeps docs/plugins.md in step with the plugin schemas: a section per type stating its
// kind, plugin, default timeout, every configuration key and its fixed ports.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONAL_PLUGIN_NAMES, createPluginRegistry } from './create-plugin-registry.js';
import type { PluginInfo } from './registry.js';

const doc = readFileSync(new URL('../../docs/plugins.md', import.meta.url), 'utf8');
const infos = createPluginRegistry({ optionalPlugins: OPTIONAL_PLUGIN_NAMES }).list();

function sectionOf(type: string): string {
  const start = doc.indexOf(`\n### ${type}\n`);
  if (start === -1) return '';
  const end = doc.slice(start + 1).search(/\n#{2,3} /);
  return end === -1 ? doc.slice(start) : doc.slice(start, start + 1 + end);
}

function keysOf(info: PluginInfo): { key: string; required: boolean }[] {
  const properties = (info.configSchema['properties'] ?? {}) as Record<string, unknown>;
  const required = (info.configSchema['required'] ?? []) as string[];
  return Object.keys(properties).map((key) => ({ key, required: required.includes(key) }));
}

describe('docs/plugins.md', () => {
  it.each(infos.map((info) => [info.type, info] as const))(
    'documents %s as its schema defines it',
    (type, info) => {
      const section = sectionOf(type);
      expect(section, `no section for ${type}`).not.toBe('');
      const plugin = info.plugin === 'core' ? 'core' : `\`${info.plugin}\``;
      const timeout =
        info.defaultTimeoutSeconds === null ? 'none' : `${info.defaultTimeoutSeconds} s`;
      expect(section).toContain(
        `Kind: ${info.kind}. Plugin: ${plugin}. Default timeout: ${timeout}.`,
      );
      const rows = section.split('\n').filter((line) => line.startsWith('| `'));
      const keys = keysOf(info);
      expect(rows.map((row) => /^\| `([^`]+)`/.exec(row)?.[1])).toEqual(keys.map(({ key }) => key));
      for (const [index, { key, required }] of keys.entries()) {
        const cells = (rows[index] ?? '').split('|').map((cell) => cell.trim());
        expect(cells[3] === 'yes', `required column of ${type}.${key}`).toBe(required);
      }
      if (keys.length === 0) expect(section).toContain('No configuration keys.');
      const ports = /\nPorts: ([^\n]+)/.exec(section)?.[1] ?? '';
      for (const port of info.ports) expect(ports).toContain(`\`${port}\``);
    },
  );

  it('has no section for a type the registry does not know', () => {
    const documented = [...doc.matchAll(/^### ([A-Z_]+)$/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(infos.map((info) => info.type));
  });
});
