// The one directory FILE_READ and FILE_WRITE may use (`svc.files.base-dir`, SPEC
// Workflow-author safeguards: "read and write files inside a configured directory"). A path
// is relative to it; one that leads out of it, by `..`, an absolute path or a symbolic link,
// is refused without retry.
import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import {
  compileTemplate,
  messageOf,
  pluginSettings,
  StepFailure,
} from '../../../plugin-api/index.js';
import type { Message, MessageProcessor, PluginSetup } from '../../../plugin-api/index.js';

export const FILES_OFF = 'File access is disabled: set svc.files.base-dir';

/** The one setting both types read: the directory, or null when file access is off. */
export const fileSettings = pluginSettings(['svc.files.base-dir'], (values) => ({
  baseDir: values['svc.files.base-dir'],
}));

type FileSettings = ReturnType<typeof fileSettings.make>;

/** Error codes of the file system that another attempt may get past. */
const RETRYABLE_CODES = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EIO', 'ENOSPC']);

/** A file the node may use: its full path and the path as shown in messages and payloads. */
export interface AreaFile {
  readonly full: string;
  /** Relative to the base directory, with `/` separators. */
  readonly shown: string;
}

/**
 * The node's `path`, rendered per message when it holds a Handlebars placeholder: the payload
 * is the context and `@messageId` the message id, so each message may name a file of its own.
 */
/**
 * The node `make` builds on the configured file area; without one (`svc.files.base-dir`
 * unset), a node that fails every message, so a workflow still validates and says why it
 * cannot run.
 */
export function inFileArea(
  setup: PluginSetup<FileSettings>,
  make: (area: FileArea) => MessageProcessor,
): MessageProcessor {
  const { baseDir } = setup.settings;
  if (baseDir === null) {
    return {
      process: () => {
        throw StepFailure.nonRetryable(FILES_OFF);
      },
    };
  }
  return make(new FileArea(baseDir));
}

export function filePathOf(text: string): (message: Message) => string {
  if (!text.includes('{{')) return () => text;
  const template = compileTemplate(text, 'File path template');
  return (message) => template.render(message.payload, { messageId: message.id });
}

export class FileArea {
  readonly #base: string;
  #realBase: Promise<string> | undefined;

  constructor(baseDir: string) {
    this.#base = path.resolve(baseDir);
  }

  /** Resolves `relative` inside the area; refuses it when it leads out. */
  resolve(relative: string): AreaFile {
    if (relative === '' || relative.includes('\0')) {
      throw StepFailure.nonRetryable(`File path '${relative}' is not valid`);
    }
    if (path.isAbsolute(relative)) {
      throw StepFailure.nonRetryable(
        `File path '${relative}' must be relative to svc.files.base-dir`,
      );
    }
    const full = path.resolve(this.#base, relative);
    const shown = path.relative(this.#base, full);
    const outside = shown === '..' || shown.startsWith(`..${path.sep}`) || path.isAbsolute(shown);
    if (shown === '' || outside) {
      throw StepFailure.nonRetryable(`File path '${relative}' leads out of svc.files.base-dir`);
    }
    return { full, shown: shown.split(path.sep).join('/') };
  }

  /**
   * Refuses a file whose nearest existing ancestor (the file itself when it exists) lies
   * outside the area once symbolic links are followed.
   */
  async checkReal(file: AreaFile): Promise<void> {
    const realBase = await this.#baseReal();
    let existing = file.full;
    for (;;) {
      try {
        const real = await realpath(existing);
        if (real !== realBase && !real.startsWith(realBase + path.sep)) {
          throw StepFailure.nonRetryable(
            `File path '${file.shown}' leads out of svc.files.base-dir through a link`,
          );
        }
        return;
      } catch (error) {
        if (codeOf(error) !== 'ENOENT') throw error;
        const parent = path.dirname(existing);
        if (parent === existing) return;
        existing = parent;
      }
    }
  }

  /** The base directory with its links resolved; created when missing. */
  #baseReal(): Promise<string> {
    this.#realBase ??= mkdir(this.#base, { recursive: true })
      .then(() => realpath(this.#base))
      .catch((error: unknown) => {
        this.#realBase = undefined;
        throw fileFailure(`cannot use svc.files.base-dir '${this.#base}'`, error);
      });
    return this.#realBase;
  }
}

/** A failure of the file system, retryable when another attempt may get past it. */
export function fileFailure(what: string, error: unknown): StepFailure {
  if (error instanceof StepFailure) return error;
  const code = codeOf(error);
  const text = `${what}: ${code ?? messageOf(error)}`;
  return code !== undefined && RETRYABLE_CODES.has(code)
    ? StepFailure.retryable(text, error)
    : StepFailure.nonRetryable(text, error);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
