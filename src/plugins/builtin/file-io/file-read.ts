// FILE_READ (optional plugin file-io): reads a file inside `svc.files.base-dir` per message
// and emits `{ path, content }`.
import { readFile } from 'node:fs/promises';
import { definePlugin, handlebarsTemplate, z } from '../../../plugin-api/index.js';
import type { Emit, Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import type { FileArea } from './file-area.js';
import { fileFailure, filePathOf, fileSettings, inFileArea } from './file-area.js';
import { fileEncoding } from './file-encoding.js';
import type { FileEncoding } from './file-encoding.js';

/** The `plugin` tag of `svc.plugin.events` for reads. */
export const READ_EVENT = 'file.read';

const configSchema = z.looseObject({
  path: handlebarsTemplate().describe(
    'File path, relative to svc.files.base-dir; may hold Handlebars placeholders of the payload and {{@messageId}}',
  ),
  encoding: fileEncoding(),
});

/** The emitted payload. */
export interface FileReadResult {
  /** Relative to `svc.files.base-dir`. */
  readonly path: string;
  /** The file's bytes as text in the node's encoding (`base64` and `hex` give the bytes so). */
  readonly content: string;
}

export const fileReadPlugin = definePlugin({
  type: 'FILE_READ',
  kind: 'processor',
  description: 'Reads a file per message and emits { path, content }.',
  configSchema,
  outputPorts: () => ['out'],
  settings: fileSettings,
  create: (config, setup) =>
    inFileArea(setup, (area) => new FileRead(area, filePathOf(config.path), config.encoding)),
});

class FileRead implements MessageProcessor {
  readonly #area: FileArea;
  readonly #pathOf: (message: Message) => string;
  readonly #encoding: FileEncoding;

  constructor(area: FileArea, pathOf: (message: Message) => string, encoding: FileEncoding) {
    this.#area = area;
    this.#pathOf = pathOf;
    this.#encoding = encoding;
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    try {
      const file = this.#area.resolve(this.#pathOf(message));
      await this.#area.checkReal(file);
      let content: string;
      try {
        content = await readFile(file.full, { encoding: this.#encoding, signal: ctx.signal });
      } catch (error) {
        throw fileFailure(`FILE_READ cannot read '${file.shown}'`, error);
      }
      ctx.report(READ_EVENT, 'completed');
      const payload: FileReadResult = { path: file.shown, content };
      return { payload };
    } catch (error) {
      ctx.report(READ_EVENT, ctx.signal.aborted ? 'stopped' : 'failed');
      throw error;
    }
  }
}
