// FILE_READ and FILE_WRITE inside svc.files.base-dir (SPEC Workflow-author safeguards: files
// are read and written inside a configured directory).
import { mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StepFailure } from '../../../plugin-api/index.js';
import type { MessageProcessor } from '../../../plugin-api/index.js';
import { createTestContext, message, processAll } from '../../testing/index.js';
import { FILES_OFF } from './file-area.js';
import { fileReadPlugin } from './file-read.js';
import { fileWritePlugin } from './file-write.js';

let root: string;
let base: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'svc-files-'));
  base = path.join(root, 'area');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function writer(config: Record<string, unknown>, baseDir: string | null = base): MessageProcessor {
  const parsed = fileWritePlugin.configSchema.parse(config);
  const setup = { nodeId: 'write', settings: { baseDir } };
  return fileWritePlugin.create!(parsed, setup) as MessageProcessor;
}

function reader(config: Record<string, unknown>, baseDir: string | null = base): MessageProcessor {
  const parsed = fileReadPlugin.configSchema.parse(config);
  const setup = { nodeId: 'read', settings: { baseDir } };
  return fileReadPlugin.create!(parsed, setup) as MessageProcessor;
}

describe('FILE_WRITE', () => {
  it('replaces the file with each payload: text as it is, other values as JSON, and emits { path, bytes }', async () => {
    const ctx = createTestContext();
    const emitted = await processAll(
      writer({ path: 'out/note.txt' }),
      [message('first'), message('héllo')],
      ctx,
    );
    expect(emitted.map((emit) => emit.payload)).toEqual([
      { path: 'out/note.txt', bytes: 5 },
      { path: 'out/note.txt', bytes: 6 },
    ]);
    expect(await readFile(path.join(base, 'out/note.txt'), 'utf8')).toBe('héllo');
    await processAll(writer({ path: 'doc.json' }), [message({ a: [1, true] })]);
    expect(await readFile(path.join(base, 'doc.json'), 'utf8')).toBe('{"a":[1,true]}');
    expect(ctx.reports).toEqual(['file.write:completed', 'file.write:completed']);
    // Nothing is left beside the files by the atomic replace.
    expect((await readdir(base)).sort()).toEqual(['doc.json', 'out']);
  });

  it('appends text as it is and other values as JSON lines when append is set', async () => {
    await processAll(writer({ path: 'log.jsonl', append: true }), [
      message({ n: 1 }),
      message('raw\n'),
      message({ n: 2 }),
    ]);
    expect(await readFile(path.join(base, 'log.jsonl'), 'utf8')).toBe('{"n":1}\nraw\n{"n":2}\n');
  });

  it('writes a byte array as it is, and a base64 string as the bytes it stands for', async () => {
    await processAll(writer({ path: 'a.bin' }), [message(new Uint8Array([0, 255, 1]))]);
    expect([...(await readFile(path.join(base, 'a.bin')))]).toEqual([0, 255, 1]);
    await processAll(writer({ path: 'b.bin', encoding: 'base64' }), [message('AP8B')]);
    expect([...(await readFile(path.join(base, 'b.bin')))]).toEqual([0, 255, 1]);
  });

  it('names the file per message from a Handlebars path with the payload and @messageId', async () => {
    const emitted = await processAll(writer({ path: 'orders/{{region}}/{{@messageId}}.json' }), [
      { id: 'm-7', payload: { region: 'north' }, headers: { attempt: 1 } },
    ]);
    expect(emitted[0]?.payload).toEqual({ path: 'orders/north/m-7.json', bytes: 18 });
    expect(await readFile(path.join(base, 'orders/north/m-7.json'), 'utf8')).toBe(
      '{"region":"north"}',
    );
  });

  it('refuses paths that lead out of the directory, without retry', async () => {
    await mkdir(base, { recursive: true });
    await symlink(root, path.join(base, 'escape'));
    for (const [target, reason] of [
      ['../outside.txt', 'leads out of svc.files.base-dir'],
      ['/etc/passwd', 'must be relative to svc.files.base-dir'],
      ['a/../../outside.txt', 'leads out of svc.files.base-dir'],
      ['escape/outside.txt', 'leads out of svc.files.base-dir through a link'],
      ['{{where}}', 'leads out of svc.files.base-dir'],
    ] as const) {
      const failing = processAll(writer({ path: target }), [message({ where: '..' })]);
      await expect(failing, target).rejects.toThrow(reason);
      await expect(failing).rejects.toHaveProperty('retryable', false);
    }
    await expect(readdir(root)).resolves.toEqual(['area']);
    // A name that merely starts with two dots stays inside.
    await processAll(writer({ path: '..notes' }), [message('ok')]);
    expect(await readFile(path.join(base, '..notes'), 'utf8')).toBe('ok');
  });

  it('fails every message without retry when svc.files.base-dir is empty', async () => {
    const failing = processAll(writer({ path: 'x.txt' }, null), [message('x')]);
    await expect(failing).rejects.toThrow(FILES_OFF);
    await expect(failing).rejects.toBeInstanceOf(StepFailure);
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });
});

describe('FILE_READ', () => {
  it('reads the file per message in its encoding and emits { path, content }', async () => {
    await mkdir(path.join(base, 'in'), { recursive: true });
    await writeFile(path.join(base, 'in/a.txt'), 'héllo');
    const ctx = createTestContext();
    const emitted = await processAll(reader({ path: 'in/a.txt' }), [message(null)], ctx);
    expect(emitted[0]?.payload).toEqual({ path: 'in/a.txt', content: 'héllo' });
    const [hex] = await processAll(reader({ path: 'in/a.txt', encoding: 'hex' }), [message(1)]);
    expect(hex?.payload).toEqual({ path: 'in/a.txt', content: '68c3a96c6c6f' });
    expect(ctx.reports).toEqual(['file.read:completed']);
  });

  it('reads the file a payload names, and fails a missing file without retry', async () => {
    await mkdir(base, { recursive: true });
    await writeFile(path.join(base, 'b.txt'), 'bee');
    const [emit] = await processAll(reader({ path: '{{name}}' }), [message({ name: 'b.txt' })]);
    expect(emit?.payload).toEqual({ path: 'b.txt', content: 'bee' });
    const ctx = createTestContext();
    const failing = processAll(reader({ path: 'missing.txt' }), [message(null)], ctx);
    await expect(failing).rejects.toThrow("FILE_READ cannot read 'missing.txt': ENOENT");
    await expect(failing).rejects.toHaveProperty('retryable', false);
    expect(ctx.reports).toEqual(['file.read:failed']);
  });

  it('refuses to read through a link that leads out of the directory', async () => {
    await mkdir(base, { recursive: true });
    await writeFile(path.join(root, 'secret.txt'), 'no');
    await symlink(path.join(root, 'secret.txt'), path.join(base, 'link.txt'));
    const failing = processAll(reader({ path: 'link.txt' }), [message(null)]);
    await expect(failing).rejects.toThrow('leads out of svc.files.base-dir through a link');
  });

  it('refuses a path template that does not compile when the workflow is validated', () => {
    expect(fileReadPlugin.configSchema.safeParse({ path: '{{#if}}' }).success).toBe(false);
    expect(fileWritePlugin.configSchema.safeParse({ path: 'ok/{{name}}.txt' }).success).toBe(true);
  });
});
