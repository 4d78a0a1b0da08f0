export {
  AppError,
  ERROR_CATALOGUE,
  ERROR_CODES,
  assertNever,
  formatTemplate,
  isAppError,
  messageOf,
} from './errors.js';
export type {
  AppErrorOptions,
  ErrorCode,
  ErrorKind,
  ErrorParams,
  ErrorSpec,
  FieldError,
} from './errors.js';
export { createOrderedIds, createSequentialIds, randomIds } from './ids.js';
export type { IdGenerator } from './ids.js';
export { IsoTimes, ManualClock, isoTimestamp, systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { KeyedLock } from './keyed-lock.js';
export { turnOffPretenuring } from './garbage-collector.js';
export { STATUS_BY_CODE, statusOf } from './error-status.js';
