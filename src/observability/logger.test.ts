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
