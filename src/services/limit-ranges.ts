// Range checks of the admission limits a caller may set (SPEC "Execution limits"). Timers
// longer than 2^31-1 ms would need stepping and counts beyond it are never meant: a queue
// timeout of 1e22 ms or 1e22 concurrent runs is a typo, so both are refused with a field
// error rather than accepted and silently misbehaving (docs/architecture.md, "Ranges").
import { AppError } from '../core/index.js';
import type { AdmissionLimits } from '../executions/index.js';

/** The largest count or millisecond value a limit may take: what a platform timer holds. */
export const MAX_LIMIT_VALUE = 2 ** 31 - 1;

const COUNT_LIMITS = [
  'maxConcurrent',
  'maxPerSession',
  'maxPerWorkflow',
  'queueCapacity',
  'queueTimeout',
] as const satisfies readonly (keyof AdmissionLimits)[];

/** Refuses every limit that is not a whole number within its range, naming each field. */
export function assertLimitRanges(changes: Partial<AdmissionLimits>): void {
  const fieldErrors: { field: string; message: string }[] = [];
  for (const field of COUNT_LIMITS) {
    const value = changes[field];
    if (value === undefined || value === null) continue;
    const least = field === 'queueCapacity' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < least || value > MAX_LIMIT_VALUE) {
      fieldErrors.push({
        field,
        message: `Parameter '${field}' must be an integer from ${least} to ${MAX_LIMIT_VALUE}`,
      });
    }
  }
  if (fieldErrors.length > 0) throw new AppError('VALIDATION_FAILED', { fieldErrors });
}
