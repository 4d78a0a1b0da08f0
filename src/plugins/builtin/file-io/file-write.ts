// FILE_WRITE (optional plugin file-io): writes each payload to a file inside
// `svc.files.base-dir`, replacing it or appending to it, and emits `{ path, bytes }`.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { definePlugin, handlebarsTemplate, StepFailure, z } from '../../../plugin-api/index.js';
import type { Emit, Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { fileFailure, filePathOf, fileSettings, inFileArea } from './file-area.js';
import type { AreaFile, FileArea } from './file-area.js';
import { fileEncoding } from './file-encoding.js';
import type { FileEncoding } from './file-encoding.js';

/** The `plugin` tag of `svc.plugin.events` for writes. */
export const WRITE_EVENT = 'file.write';

const configSchema = z.looseObject({
  path: handlebarsTemplate().describe(
    'File path, relative to svc.files.base-dir; may hold Handlebars placeholders of the payload and {{@messageId}}',
  ),
  encoding: fileEncoding(),
  append: z.boolean().optional().describe('Append instead of replacing the file'),
});

type FileWriteConfig = z.output<typeof configSchema>;

/** The emitted payload. */
export interface FileWriteResult {
  /** Relative to `svc.files.base-dir`. */
  readonly path: string;
  /** Bytes written by this message. */
  readonly bytes: number;
}

export const fileWritePlugin = definePlugin({
  type: 'FILE_WRITE',
  kind: 'processor',
  description:
    'Writes each payload to a file, replacing it or appending to it; emits { path, bytes }.',
  configSchema,
  outputPorts: () => ['out'],
  settings: fileSettings,
  create: (config, setup) => inFileArea(setup, (area) => new FileWrite(area, config)),
});

/**
 * The bytes a payload is written as: a byte array as it is; a string in the node's encoding
 * (`base64` and `hex` take the string as the bytes written so); anything else as JSON text.
 * Appended JSON ends with a newline, so an appended file is one JSON value a line.
 */
export function contentOf(payload: unknown, encoding: FileEncoding, append: boolean): Buffer {
  if (payload instanceof Uint8Array) {
    return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  }
  if (typeof payload === 'string') return Buffer.from(payload, encoding);
  const json = (JSON.stringify as (value: unknown) => string | undefined)(payload) ?? 'null';
  return Buffer.from(append ? `${json}\n` : json, 'utf8');
}

class FileWrite implements MessageProcessor {
  readonly #area: FileArea;
  readonly #pathOf: (message: Message) => string;
  readonly #encoding: FileEncoding;
  readonly #append: boolean;

  constructor(area: FileArea, config: FileWriteConfig) {
    this.#area = area;
    this.#pathOf = filePathOf(config.path);
    this.#encoding = config.encoding;
    this.#append = config.append ?? false;
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    try {
      const file = this.#area.resolve(this.#pathOf(message));
      let content: Buffer;
      try {
        content = contentOf(message.payload, this.#encoding, this.#append);
      } catch (error) {
        // A cyclic payload or a BigInt: the same payload fails again.
        throw StepFailure.nonRetryable(`FILE_WRITE cannot write the payload as JSON`, error);
      }
      try {
        await mkdir(path.dirname(file.full), { recursive: true });
      } catch (error) {
        throw fileFailure(`FILE_WRITE cannot create the directory of '${file.shown}'`, error);
      }
      await this.#area.checkReal(file);
      ctx.signal.throwIfAborted();
      try {
        if (this.#append) await appendSynced(file, content);
        else await replaceAtomically(file, content);
      } catch (error) {
        throw fileFailure(`FILE_WRITE cannot write '${file.shown}'`, error);
      }
      ctx.report(WRITE_EVENT, 'completed');
      const payload: FileWriteResult = { path: file.shown, bytes: content.length };
      return { payload };
    } catch (error) {
      ctx.report(WRITE_EVENT, ctx.signal.aborted ? 'stopped' : 'failed');
      throw error;
    }
  }
}

/**
 * The file is replaced whole or not at all: written beside it and renamed over it, so a
 * reader (or a crash) never sees half a file. Forced to storage before the rename, since the
 * message counts as done once the node emits.
 */
async function replaceAtomically(file: AreaFile, content: Buffer): Promise<void> {
  const temporary = `${file.full}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, file.full);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function appendSynced(file: AreaFile, content: Buffer): Promise<void> {
  const handle = await open(file.full, 'a');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
