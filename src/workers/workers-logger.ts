// The part of a pino logger the workers layer writes to, so that it does not depend on pino.

type LogMethod = (fields: object, message: string) => void;

export interface WorkersLogger {
  trace: LogMethod;
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}
