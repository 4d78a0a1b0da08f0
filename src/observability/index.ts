export { createLoggers, createSilentLoggers, pinoLevel } from './logger.js';
export type { LogLevelName, Loggers, LoggingLevels } from './logger.js';
