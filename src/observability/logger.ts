// Logger factory: one pino root with named children whose levels follow the profile
// (SPEC "Runtime profiles": root, application and stream-engine levels).
import { pino } from 'pino';
import type { Logger, LevelWithSilent } from 'pino';
import type { Settings } from '../config/index.js';

export type LogLevelName = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'OFF';

export interface LoggingLevels {
  readonly root: LogLevelName;
  readonly app: LogLevelName;
  readonly engine: LogLevelName;
}

export interface Loggers {
  /** The levels the loggers started with, so a changed level can be reset. */
  readonly initial: LoggingLevels;
  readonly root: Logger;
  /** The service's own code (services, stores, HTTP edge). */
  readonly app: Logger;
  /** The stream engine; at TRACE it writes message payloads. */
  readonly engine: Logger;
}

export function pinoLevel(level: LogLevelName): LevelWithSilent {
  return level === 'OFF' ? 'silent' : (level.toLowerCase() as LevelWithSilent);
}

export function createLoggers(
  levels: LoggingLevels,
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false }),
): Loggers {
  const root = pino(
    {
      level: pinoLevel(levels.root),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Secrets never reach a log line, whatever a caller passes.
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.apiKey', '*.key'],
    },
    destination,
  );
  const app = root.child({ logger: 'app' }, { level: pinoLevel(levels.app) });
  const engine = root.child({ logger: 'engine' }, { level: pinoLevel(levels.engine) });
  return { initial: levels, root, app, engine };
}

/** The loggers at the levels the settings give (`svc.logging.level.*`), writing to stdout. */
export function loggersFor(settings: Settings): Loggers {
  return createLoggers({
    root: settings['svc.logging.level.root'],
    app: settings['svc.logging.level.app'],
    engine: settings['svc.logging.level.engine'],
  });
}

/** Loggers that write nothing, for tests and tools. */
export function createSilentLoggers(): Loggers {
  return createLoggers({ root: 'OFF', app: 'OFF', engine: 'OFF' });
}
