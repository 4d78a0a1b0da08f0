import { describe, expect, it } from 'vitest';
import {
  MAX_TIMER_MS,
  bool,
  duration,
  formatDuration,
  formatSize,
  int,
  mapOf,
  nullable,
  oneOf,
  parseDuration,
  parseSize,
  size,
  stringList,
  text,
} from './kinds.js';

describe('durations', () => {
  it('refuses a timer duration that Node would fire after 1 ms', () => {
    const timer = duration({ max: MAX_TIMER_MS });
    expect(timer.parse('24d', 'svc.execution.queue-timeout')).toEqual({
      ok: true,
      value: 24 * 86_400_000,
    });
    expect(timer.parse('25d', 'svc.execution.queue-timeout').ok).toBe(false);
    expect(timer.parse(3e9, 'svc.execution.queue-timeout').ok).toBe(false);
  });

  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['2d', 172_800_000],
    ['1500', 1500],
    [' 10 S ', 10_000],
    [2000, 2000],
  ] as const)('reads %j as %i milliseconds (CONTRACT 5)', (raw, ms) => {
    expect(parseDuration(raw)).toBe(ms);
  });

  it.each(['', 'abc', '5x', '-1s', '1.5s', '1h30m', -5, 1.5])('refuses %j', (raw) => {
    expect(parseDuration(raw)).toBeNull();
  });

  it('writes a duration in its largest exact unit', () => {
    expect([600_000, 30_000, 3_600_000, 250, 90_000, 0].map(formatDuration)).toEqual([
      '10m',
      '30s',
      '1h',
      '250ms',
      '90s',
      '0ms',
    ]);
  });

  it('explains the accepted forms when a duration does not parse', () => {
    expect(duration().parse('soon', 'k')).toEqual({
      ok: false,
      reason: 'expected a duration such as 250ms, 30s, 5m, 1h, 2d or a number of milliseconds',
    });
  });
});

describe('sizes', () => {
  it.each([
    ['512KB', 524_288],
    ['4MB', 4_194_304],
    ['1GB', 1_073_741_824],
    ['1MiB', 1_048_576],
    ['2kb', 2048],
    ['100', 100],
    ['100B', 100],
    [1024, 1024],
  ] as const)('reads %j as %i bytes, KB being 1024 bytes (CONTRACT 5)', (raw, bytes) => {
    expect(parseSize(raw)).toBe(bytes);
  });

  it.each(['', 'big', '4XB', '-1', '1.5MB', -1])('refuses %j', (raw) => {
    expect(parseSize(raw)).toBeNull();
  });

  it('writes a size in its largest exact unit', () => {
    expect([1024, 1_048_576, 4_194_304, 1000, 1536].map(formatSize)).toEqual([
      '1KB',
      '1MB',
      '4MB',
      '1000',
      '1536',
    ]);
  });

  it('refuses a size below its minimum', () => {
    expect(size({ min: 1 }).parse('0', 'k')).toEqual({
      ok: false,
      reason: 'expected at least 1 bytes',
    });
  });

  it('refuses a size above its maximum, naming it with its unit', () => {
    expect(size({ max: 1024 }).parse('2KB', 'k')).toEqual({
      ok: false,
      reason: 'expected at most 1KB (1024 bytes)',
    });
    expect(size({ max: 1024 }).parse('1KB', 'k')).toEqual({ ok: true, value: 1024 });
  });
});

describe('scalars', () => {
  it('reads integers from text and YAML numbers, within their bounds', () => {
    const port = int({ min: 0, max: 65535 });
    expect(port.parse('8080', 'k')).toEqual({ ok: true, value: 8080 });
    expect(port.parse(0, 'k')).toEqual({ ok: true, value: 0 });
    expect(port.parse('abc', 'k')).toEqual({ ok: false, reason: 'expected an integer' });
    expect(port.parse('1.5', 'k')).toEqual({ ok: false, reason: 'expected an integer' });
    expect(port.parse(70000, 'k')).toEqual({
      ok: false,
      reason: 'expected an integer from 0 to 65535',
    });
    expect(int({ min: 1 }).parse('0', 'k')).toEqual({
      ok: false,
      reason: 'expected an integer of at least 1',
    });
  });

  it('reads booleans as true or false in any case', () => {
    const flag = bool();
    expect(flag.parse('TRUE', 'k')).toEqual({ ok: true, value: true });
    expect(flag.parse(false, 'k')).toEqual({ ok: true, value: false });
    expect(flag.parse('yes', 'k')).toEqual({ ok: false, reason: 'expected true or false' });
  });

  it('matches enumerations in any case and answers the canonical spelling', () => {
    const level = oneOf(['INFO', 'WARN']);
    expect(level.parse('warn', 'k')).toEqual({ ok: true, value: 'WARN' });
    expect(level.parse('loud', 'k')).toEqual({ ok: false, reason: 'expected one of INFO, WARN' });
  });

  it('reads a YAML number or boolean given to a text setting as its text', () => {
    expect(text().parse(1234, 'k')).toEqual({ ok: true, value: '1234' });
    expect(text().parse(['a'], 'k')).toEqual({ ok: false, reason: 'expected text' });
  });

  it('turns an optional setting off with an empty value or null', () => {
    const optional = nullable(int());
    expect(optional.parse('', 'k')).toEqual({ ok: true, value: null });
    expect(optional.parse(null, 'k')).toEqual({ ok: true, value: null });
    expect(optional.parse('3', 'k')).toEqual({ ok: true, value: 3 });
    expect(optional.format(null)).toBe('off');
  });
});

describe('lists and maps', () => {
  it('splits only a plain string at commas, trimming items and dropping empty ones', () => {
    const list = stringList();
    expect(list.parse(' a, b ,,c ', 'k')).toEqual({ ok: true, value: ['a', 'b', 'c'] });
    expect(list.parse(['a,b', ' c'], 'k')).toEqual({ ok: true, value: ['a,b', ' c'] });
    expect(list.parse('', 'k')).toEqual({ ok: true, value: [] });
  });

  it('names the item that fails a list check', () => {
    const list = stringList({ check: (item) => (item === 'bad' ? 'is bad' : null) });
    expect(list.parse(['good', 'bad'], 'k')).toEqual({
      ok: false,
      reason: 'is bad',
      at: '[1]',
      value: 'bad',
    });
    expect(list.parse(['', 'x'], 'k')).toMatchObject({ ok: false, reason: 'must not be empty' });
  });

  it('parses every value of a free-form map and names the one that fails', () => {
    const limits = mapOf(int({ min: 1 }));
    expect(limits.parse({ openai: '60', local: 5 }, 'k')).toEqual({
      ok: true,
      value: { openai: 60, local: 5 },
    });
    expect(limits.parse({ openai: 'many' }, 'k')).toMatchObject({
      ok: false,
      at: '.openai',
      value: 'many',
    });
  });
});
