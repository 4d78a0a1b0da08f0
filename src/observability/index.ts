export { createLoggers, createSilentLoggers, pinoLevel } from './logger.js';
export type { LogLevelName, Loggers, LoggingLevels } from './logger.js';
export { METER_CATALOGUE, Meters, prometheusName } from './meters.js';
export type { MeterName, MeterSpec, MeterType } from './meters.js';
