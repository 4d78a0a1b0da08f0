export { createLoggers, createSilentLoggers, loggersFor, pinoLevel } from './logger.js';
export type { LogLevelName, Loggers, LoggingLevels } from './logger.js';
export {
  METER_CATALOGUE,
  Meters,
  describeMeter,
  isMeterName,
  pluginMeterName,
  prometheusName,
} from './meters.js';
export type {
  MeterDescription,
  MeterMeasurement,
  MeterName,
  MeterSpec,
  MeterType,
} from './meters.js';
export { RecordingTracer } from './tracing.js';
export type { Observation, ObservationName, RunSpan, RunStart, Tracer } from './tracing.js';
export { createTracer } from './create-tracer.js';
