// The durable execution log (`SVC_EXECUTION_LOG_DIR`): one JSON line per event in
// `execution-log.jsonl`, appended with group commit (GroupCommitLog): one write and one fsync
// serve every event queued while the previous batch was on its way to the disk.
import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeAll } from '../file/write-all.js';
import { isNotFound, writeFileAtomic } from '../file/write-file-atomic.js';
import type { SkippedLinesListener } from '../file/skipped-lines.js';
import type { ExecutionLogEvent } from './execution-log-events.js';
import { GroupCommitLog } from './group-commit-log.js';

export const EXECUTION_LOG_FILE = 'execution-log.jsonl';

export interface FileExecutionLogOptions {
  readonly dir: string;
  /** A batch could not be written: each of its events, counted by the caller. */
  readonly onAppendFailed: (type: 'node' | 'run') => void;
  /** A torn last line was skipped and cut off at open. */
  readonly onSkippedLines?: SkippedLinesListener;
}

interface Line {
  readonly line: string;
  readonly event: ExecutionLogEvent;
}

export class FileExecutionLog extends GroupCommitLog<Line> {
  readonly #file: string;
  readonly #options: FileExecutionLogOptions;
  #handle: FileHandle | undefined;

  constructor(options: FileExecutionLogOptions) {
    super(options.onAppendFailed);
    this.#options = options;
    this.#file = path.join(options.dir, EXECUTION_LOG_FILE);
  }

  async open(): Promise<ExecutionLogEvent[]> {
    await mkdir(this.#options.dir, { recursive: true });
    let text = '';
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    const events: ExecutionLogEvent[] = [];
    const lines = text.split('\n');
    let intact = text.length;
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index];
      if (line === undefined || line === '') continue;
      try {
        events.push(JSON.parse(line) as ExecutionLogEvent);
      } catch (error) {
        // A crash can tear the last line only; damage anywhere else is reported.
        if (index !== lines.length - 1) {
          throw new Error(`Execution log ${this.#file} is damaged at line ${index + 1}`, {
            cause: error,
          });
        }
        intact = text.length - line.length;
      }
    }
    // Cut a torn tail off, so that the next append starts on a line of its own.
    if (intact < text.length) {
      await truncate(this.#file, Buffer.byteLength(text.slice(0, intact)));
      this.#options.onSkippedLines?.({ lines: 1, files: [this.#file] });
    }
    this.#handle = await open(this.#file, 'a');
    return events;
  }

  protected item(event: ExecutionLogEvent): Line {
    return { line: JSON.stringify(event), event };
  }

  protected async writeBatch(batch: readonly Line[]): Promise<void> {
    const handle = this.#handle;
    if (handle === undefined) throw new Error('The execution log is not open');
    const text = batch.map((queued) => queued.line).join('\n');
    await writeAll(handle, Buffer.from(`${text}\n`, 'utf8'));
    await handle.sync();
  }

  /** The file is replaced atomically, then appended to through a new handle. */
  protected async replaceAll(events: readonly ExecutionLogEvent[]): Promise<void> {
    const content = events.map((event) => `${JSON.stringify(event)}\n`).join('');
    await writeFileAtomic(this.#file, content);
    const old = this.#handle;
    this.#handle = await open(this.#file, 'a');
    await old?.close().catch(() => undefined);
  }

  protected override async afterClose(): Promise<void> {
    await this.#handle?.close().catch(() => undefined);
    this.#handle = undefined;
  }
}
