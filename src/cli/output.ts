// What commands print: aligned tables and plain lines for people, JSON for scripts
// (`--output json`), colours only on a terminal and never with NO_COLOR.
import type { Writable } from 'node:stream';

export type OutputFormat = 'table' | 'json';

export interface Streams {
  readonly stdout: Writable & { readonly isTTY?: boolean };
  readonly stderr: Writable & { readonly isTTY?: boolean };
}

export interface Column<T> {
  readonly header: string;
  readonly value: (row: T) => string;
}

const COLOURS = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof COLOURS;

export class Output {
  readonly format: OutputFormat;
  readonly #streams: Streams;
  readonly #colour: boolean;

  constructor(streams: Streams, format: OutputFormat, colour: boolean) {
    this.#streams = streams;
    this.format = format;
    this.#colour = colour;
  }

  get json(): boolean {
    return this.format === 'json';
  }

  /** Whether stdout is a terminal a live view can redraw. */
  get interactive(): boolean {
    return this.#streams.stdout.isTTY === true && !this.json;
  }

  /** Text as it is: terminal control sequences of a live view. */
  raw(text: string): void {
    this.#streams.stdout.write(text);
  }

  line(text = ''): void {
    this.#streams.stdout.write(`${text}\n`);
  }

  /** What a command waits for, while it waits: on a terminal only, to stderr. */
  progress(text: string): void {
    if (this.#streams.stderr.isTTY === true)
      this.#streams.stderr.write(`${this.paint('dim', text)}\n`);
  }

  /** Progress and notes: to stderr, so stdout stays what a script reads. */
  note(text: string): void {
    this.#streams.stderr.write(`${text}\n`);
  }

  error(text: string): void {
    this.#streams.stderr.write(`${this.paint('red', 'error:')} ${text}\n`);
  }

  value(value: unknown): void {
    this.line(JSON.stringify(value, null, 2));
  }

  paint(colour: Colour, text: string): string {
    return this.#colour ? `\u001b[${String(COLOURS[colour])}m${text}\u001b[0m` : text;
  }

  /** `rows` as JSON with --output json, else as an aligned table. */
  /**
   * One page of a paged list: as it is in JSON, else its items as a table and, when more
   * follow, the option that reads the next page.
   */
  page<T>(
    page: { readonly items: readonly T[]; readonly nextCursor: string | null },
    columns: readonly Column<T>[],
    empty: string,
  ): void {
    if (this.json) {
      this.value(page);
      return;
    }
    this.table(page.items, columns, empty);
    if (page.nextCursor !== null) this.note(`More: --cursor ${page.nextCursor}`);
  }

  table<T>(rows: readonly T[], columns: readonly Column<T>[], empty = 'Nothing found.'): void {
    if (this.json) {
      this.value(rows);
      return;
    }
    if (rows.length === 0) {
      this.line(empty);
      return;
    }
    const cells = rows.map((row) => columns.map((column) => column.value(row)));
    const widths = columns.map((column, index) =>
      Math.max(column.header.length, ...cells.map((row) => (row[index] ?? '').length)),
    );
    const render = (values: readonly string[]): string =>
      values
        .map((text, index) =>
          index === values.length - 1 ? text : text.padEnd(widths[index] ?? 0),
        )
        .join('  ')
        .trimEnd();
    this.line(this.paint('bold', render(columns.map((column) => column.header))));
    for (const row of cells) this.line(render(row));
  }
}

export function useColour(
  streams: Streams,
  env: Readonly<Record<string, string | undefined>>,
  wanted: boolean,
): boolean {
  return wanted && streams.stdout.isTTY === true && (env.NO_COLOR ?? '') === '';
}
