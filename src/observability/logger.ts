// Logger factory: one pino root with named children whose levels follow the profile
// (SPEC "Runtime profiles": root, application and stream-engine levels), written as JSON lines
// or, for a terminal, as one readable line per event.
import { createRequire } from 'node:module';
import { pino } from 'pino';
import type { Logger, LevelWithSilent } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import type { Settings } from '../config/index.js';

/** `pretty`: one readable line per event (development); `json`: one JSON object per line. */
export type LogFormat = 'pretty' | 'json';

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
  /** Calls `done` once every line logged so far has been written out. */
  written(done: () => void): void;
}

export function pinoLevel(level: LogLevelName): LevelWithSilent {
  return level === 'OFF' ? 'silent' : (level.toLowerCase() as LevelWithSilent);
}

export function createLoggers(
  levels: LoggingLevels,
  destination?: pino.DestinationStream,
  format: LogFormat = 'json',
): Loggers {
  const target = destination ?? pino.destination({ dest: 1, sync: false });
  // Colours only on a terminal; a file, a pipe or a test's stream gets plain text.
  const colorize = destination === undefined && process.stdout.isTTY;
  const root = pino(
    {
      level: pinoLevel(levels.root),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Secrets never reach a log line, whatever a caller passes.
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.apiKey', '*.key'],
    },
    format === 'pretty' ? (prettyStream(target, colorize) ?? target) : target,
  );
  const app = root.child({ logger: 'app' }, { level: pinoLevel(levels.app) });
  const engine = root.child({ logger: 'engine' }, { level: pinoLevel(levels.engine) });
  return {
    initial: levels,
    root,
    app,
    engine,
    written: (done) => {
      whenWritten(target, root, done);
    },
  };
}

/** pino's asynchronous destination (sonic-boom), as far as `whenWritten` uses it. */
interface AsyncDestination {
  write(text: string): unknown;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Whether `stream` is a `pino.destination()`: told by its `flushSync`, which only sonic-boom of
 * the streams pino writes to has, and by its events. sonic-boom is pino's, not a dependency of
 * this project, so it is not imported to be told by its class.
 */
function isAsyncDestination(
  stream: pino.DestinationStream,
): stream is pino.DestinationStream & AsyncDestination {
  const candidate = stream as { flushSync?: unknown; once?: unknown };
  return typeof candidate.flushSync === 'function' && typeof candidate.once === 'function';
}

/**
 * Calls `done` once what was logged is written out. pino's `flush(cb)` does not wait with its
 * asynchronous destination: holding no buffer of its own (no minimum length), it calls back at
 * once while a write is still on its way, and a process that exits then loses the lines it
 * logged last. An empty write queued behind the pending ones ends with the destination's
 * 'drain', which comes once every write before it is out.
 */
function whenWritten(target: pino.DestinationStream, root: Logger, done: () => void): void {
  if (!isAsyncDestination(target)) {
    root.flush(() => {
      done();
    });
    return;
  }
  target.once('drain', done);
  target.write('');
}

/**
 * The loggers at the levels the settings give (`svc.logging.level.*`), writing to stdout in the
 * format of `svc.logging.format`.
 */
export function loggersFor(settings: Settings): Loggers {
  return createLoggers(
    {
      root: settings['svc.logging.level.root'],
      app: settings['svc.logging.level.app'],
      engine: settings['svc.logging.level.engine'],
    },
    undefined,
    settings['svc.logging.format'],
  );
}

type PrettyFactory = (options: PrettyOptions) => pino.DestinationStream;

/**
 * pino-pretty writing to `destination`, or undefined when the package is not installed: it is
 * a development dependency, so a production install (`npm ci --omit=dev`) writes JSON.
 */
function prettyStream(
  destination: pino.DestinationStream,
  colorize: boolean,
): pino.DestinationStream | undefined {
  let pretty: PrettyFactory;
  try {
    pretty = createRequire(import.meta.url)('pino-pretty') as PrettyFactory;
  } catch {
    return undefined;
  }
  return pretty({
    destination,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // `access`: the fields of an access log line, which its message already says.
    ignore: 'pid,hostname,access',
    colorize,
  });
}

/** Loggers that write nothing, for tests and tools. */
export function createSilentLoggers(): Loggers {
  return createLoggers({ root: 'OFF', app: 'OFF', engine: 'OFF' });
}
