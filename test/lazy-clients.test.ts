// Broker clients whose mere loading slows the whole process are loaded when a node first needs
// them, not with the server: ioredis's RESP3 decoder subclasses `String`, which turns off a V8
// fast path for the whole process (a schema-compiled JSON writer ran three times slower with
// it; docs/performance.md). The built server's modules are loaded in a process of their own and
// the CommonJS modules it loaded are listed.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether a CommonJS module of package `name` is loaded after importing `modules`. */
async function loadsPackage(modules: readonly string[], name: string): Promise<boolean> {
  const script = `
    for (const module of ${JSON.stringify(modules)}) await import(module);
    const { createRequire } = await import('node:module');
    const cache = createRequire(import.meta.url).cache;
    process.stdout.write(String(Object.keys(cache).some((file) => file.includes('/node_modules/${name}/'))));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    { cwd: root, timeout: 60_000 },
  );
  return stdout.trim() === 'true';
}

describe('clients loaded on first use', () => {
  it('the server and its plugins load without ioredis, which a Redis node loads when it runs', async () => {
    const server = [join(root, 'dist/app.js'), join(root, 'dist/plugins/index.js')].map(
      (file) => `file://${file}`,
    );
    expect(await loadsPackage(server, 'ioredis')).toBe(false);
    // The probe sees the package when it is loaded.
    expect(await loadsPackage([...server, 'ioredis'], 'ioredis')).toBe(true);
  }, 120_000);
});
