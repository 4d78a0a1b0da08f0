import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../config/index.js';
import type { ProfileName } from '../config/index.js';
import { createLoggers } from './logger.js';

function levelsOf(profile: ProfileName): Record<string, string> {
  const settings = defaultSettings(profile);
  const loggers = createLoggers(
    {
      root: settings['svc.logging.level.root'],
      app: settings['svc.logging.level.app'],
      engine: settings['svc.logging.level.engine'],
    },
    { write: () => undefined },
  );
  return { root: loggers.root.level, app: loggers.app.level, engine: loggers.engine.level };
}

describe('log levels per profile (SPEC Runtime profiles)', () => {
  it('logs the application at DEBUG, the stream engine at TRACE and the root at INFO in dev', () => {
    expect(levelsOf('dev')).toEqual({ root: 'info', app: 'debug', engine: 'trace' });
  });

  it('logs the application and the stream engine at INFO and the root at WARN in prod', () => {
    expect(levelsOf('prod')).toEqual({ root: 'warn', app: 'info', engine: 'info' });
  });

  it('writes nothing at OFF', () => {
    const lines: string[] = [];
    const loggers = createLoggers(
      { root: 'OFF', app: 'OFF', engine: 'OFF' },
      { write: (line: string) => lines.push(line) },
    );
    loggers.app.error('not written');
    expect(lines).toEqual([]);
  });

  it('keeps API keys out of log lines', () => {
    const lines: string[] = [];
    const loggers = createLoggers(
      { root: 'INFO', app: 'INFO', engine: 'INFO' },
      { write: (line: string) => lines.push(line) },
    );
    loggers.app.info({ req: { headers: { authorization: 'Bearer s3cret' } } }, 'request');
    expect(lines.join('')).not.toContain('s3cret');
  });
});

describe('log format (svc.logging.format)', () => {
  /** A stream that collects what is written, and resolves once `count` lines arrived. */
  function collector(count: number): { stream: Writable; lines: Promise<string[]> } {
    let text = '';
    let done: (lines: string[]) => void = () => undefined;
    const lines = new Promise<string[]>((resolve) => (done = resolve));
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        const complete = text.split('\n').filter((line) => line !== '');
        if (complete.length >= count) done(complete);
        callback();
      },
    });
    return { stream, lines };
  }

  it('writes one readable line per event in the pretty format, fields included', async () => {
    const { stream, lines } = collector(2);
    const loggers = createLoggers({ root: 'INFO', app: 'INFO', engine: 'INFO' }, stream, 'pretty');
    loggers.app.info(
      { requestId: 'r-1', access: { method: 'GET', status: 200 } },
      'GET /api/sessions 200 1.2 ms',
    );
    loggers.engine.warn('second event');
    const written = await lines;
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/sessions 200 1\.2 ms /);
    expect(written[0]).toContain('"requestId":"r-1"');
    expect(written[0]).not.toContain('"pid"');
    expect(written[0]).not.toContain('"access"');
    expect(written[1]).toMatch(/WARN: second event/);
  });

  it('writes JSON lines in the json format, the default of prod', () => {
    expect(defaultSettings('prod')['svc.logging.format']).toBe('json');
    expect(defaultSettings('dev')['svc.logging.format']).toBe('pretty');
    const lines: string[] = [];
    const loggers = createLoggers(
      { root: 'INFO', app: 'INFO', engine: 'INFO' },
      { write: (line: string) => lines.push(line) },
      'json',
    );
    loggers.app.info('an event');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ msg: 'an event', logger: 'app' });
  });
});

describe('the lines logged last', () => {
  it('are written out before `written` calls back, with the asynchronous destination', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-log-'));
    const file = path.join(dir, 'log');
    const destination = pino.destination({ dest: file, sync: false });
    await new Promise((resolve) => destination.once('ready', resolve));
    const loggers = createLoggers({ root: 'INFO', app: 'INFO', engine: 'INFO' }, destination);
    // Many lines at once, so that writes are still on their way when `written` is asked.
    for (let line = 0; line < 2_000; line++) loggers.app.info({ line }, 'stopping');
    loggers.app.info({}, 'Stopped');
    const lines = await new Promise<string[]>((resolve) => {
      loggers.written(() => {
        resolve(readFileSync(file, 'utf8').trim().split('\n'));
      });
    });
    expect(lines).toHaveLength(2_001);
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ msg: 'Stopped' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('are handed on at once by a destination that writes as it is given them', () => {
    const written: string[] = [];
    const loggers = createLoggers(
      { root: 'INFO', app: 'INFO', engine: 'INFO' },
      { write: (line: string) => written.push(line) },
    );
    loggers.app.info({}, 'Stopped');
    let called = false;
    loggers.written(() => {
      called = true;
    });
    expect(called).toBe(true);
    expect(written).toHaveLength(1);
  });
});
