// What the decision types add to a payload: an object payload gets the decision as members
// beside its own (a new object: payloads are read-only once emitted); any other payload is
// wrapped as `{ value, ... }`. Results then show the decision with what it was made on.

export function withDecision(
  payload: unknown,
  decision: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) {
    return { ...(payload as Record<string, unknown>), ...decision };
  }
  return { value: payload, ...decision };
}

/** JSON.stringify as it really is: undefined for undefined, functions and symbols. */
export const jsonOf = JSON.stringify as (value: unknown) => string | undefined;
