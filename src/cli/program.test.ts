import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram } from './program.js';

const sink = (): Writable =>
  new Writable({
    write: (_chunk, _encoding, done) => {
      done();
    },
  });

/** Every command that does something, with its full name. */
function leaves(command: Command, prefix = ''): [string, Command][] {
  const name = `${prefix}${command.name()}`;
  if (command.commands.length === 0) return [[name, command]];
  return command.commands
    .filter((child) => child.name() !== 'help')
    .flatMap((child) => leaves(child, `${name} `));
}

describe('svc --help', () => {
  it('shows an example on every command', () => {
    const { program } = createProgram({ stdout: sink(), stderr: sink() }, {});
    const commands = leaves(program);
    expect(commands.length).toBeGreaterThan(20);
    const withoutExample = commands
      .filter(([, command]) => {
        let text = '';
        command.configureOutput({ writeOut: (chunk) => (text += chunk) });
        command.outputHelp();
        return !text.includes('Example:');
      })
      .map(([name]) => name);
    expect(withoutExample).toEqual([]);
  });
});
