import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output, useColour } from './output.js';

function stream(isTTY: boolean): Writable & { text: string; isTTY: boolean } {
  const target = Object.assign(
    new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        target.text += chunk.toString();
        done();
      },
    }),
    { text: '', isTTY },
  );
  return target;
}

describe('what svc prints', () => {
  it('shows progress on a terminal only, and on stderr', () => {
    const onTerminal = { stdout: stream(true), stderr: stream(true) };
    new Output(onTerminal, 'table', false).progress('Saving shop/orders...');
    expect(onTerminal.stderr.text).toBe('Saving shop/orders...\n');
    expect(onTerminal.stdout.text).toBe('');
    const piped = { stdout: stream(false), stderr: stream(false) };
    new Output(piped, 'table', false).progress('Saving shop/orders...');
    expect(piped.stderr.text).toBe('');
  });

  it('colours only a terminal, never with NO_COLOR or --no-color', () => {
    const terminal = { stdout: stream(true), stderr: stream(true) };
    expect(useColour(terminal, {}, true)).toBe(true);
    expect(useColour(terminal, { NO_COLOR: '1' }, true)).toBe(false);
    expect(useColour(terminal, {}, false)).toBe(false);
    expect(useColour({ stdout: stream(false), stderr: stream(false) }, {}, true)).toBe(false);
  });

  it('aligns a table under its headers, and writes JSON with --output json', () => {
    const rows = [
      { name: 'a', value: 'long value' },
      { name: 'longer', value: 'v' },
    ];
    const columns = [
      { header: 'NAME', value: (row: (typeof rows)[number]) => row.name },
      { header: 'VALUE', value: (row: (typeof rows)[number]) => row.value },
    ];
    const table = { stdout: stream(false), stderr: stream(false) };
    new Output(table, 'table', false).table(rows, columns);
    expect(table.stdout.text).toBe('NAME    VALUE\na       long value\nlonger  v\n');
    const json = { stdout: stream(false), stderr: stream(false) };
    new Output(json, 'json', false).table(rows, columns);
    expect(JSON.parse(json.stdout.text)).toEqual(rows);
  });
});
