// The API contract: what the description says of each operation and what answers are
// serialised with. `describeRoute` joins an operation to its route when the route is added.
import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import { routeRule } from '../../auth/index.js';
import type { Operation, OperationKey, OperationTable } from './operation.js';
import { CONTROL_OPERATIONS } from './controls.contract.js';
import { DEAD_LETTER_OPERATIONS } from './dead-letters.contract.js';
import { EXECUTION_OPERATIONS } from './executions.contract.js';
import { HOOK_OPERATIONS } from './hooks.contract.js';
import { MANAGEMENT_OPERATIONS } from './management.contract.js';
import { SCHEDULER_OPERATIONS } from './scheduler.contract.js';
import { errorStatusesOf, responseSchemasOf } from './responses.js';
import { SESSION_OPERATIONS } from './sessions.contract.js';
import { STREAM_OPERATIONS } from './streams.contract.js';

export { API_TAGS } from './operation.js';
export type { ApiTag, Operation, OperationKey } from './operation.js';
export { apiSchemas } from './envelopes.js';
export {
  ReplayCheckBodySchema,
  RestartBodySchema,
  RestartFromNodeBodySchema,
} from './executions.contract.js';
export { RedriveBodySchema } from './dead-letters.contract.js';
export { BODYLESS_ERRORS, ERROR_DESCRIPTIONS, RETRY_AFTER_STATUSES } from './responses.js';
export type { ErrorStatus } from './responses.js';

export const OPERATIONS: OperationTable = {
  ...SESSION_OPERATIONS,
  ...EXECUTION_OPERATIONS,
  ...SCHEDULER_OPERATIONS,
  ...HOOK_OPERATIONS,
  ...CONTROL_OPERATIONS,
  ...DEAD_LETTER_OPERATIONS,
  ...STREAM_OPERATIONS,
  ...MANAGEMENT_OPERATIONS,
};

const BY_KEY = new Map<string, Operation>(Object.entries(OPERATIONS));

/**
 * Operations whose body may be left out (a zod body that takes `undefined`), as routes are
 * described: the generator marks every body required, which would make clients send one.
 */
const OPTIONAL_BODIES = new Set<string>();

export function hasOptionalBody(operationId: string): boolean {
  return OPTIONAL_BODIES.has(operationId);
}

export function operationOf(method: string, url: string): Operation | undefined {
  return BY_KEY.get(`${method === 'HEAD' ? 'GET' : method} ${url}`);
}

export function operationKeys(): readonly OperationKey[] {
  return Object.keys(OPERATIONS) as OperationKey[];
}

/**
 * Gives a route its name, summary, tag and answers from the table. The tool endpoint speaks
 * JSON-RPC past Fastify's serialiser, so only its description is joined (in the document).
 */
export function describeRoute(route: RouteOptions): void {
  const method = Array.isArray(route.method) ? undefined : String(route.method);
  if (method === undefined) return;
  const operation = operationOf(method, route.url);
  if (operation === undefined) return;
  const rule = routeRule(method, route.url);
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const errors = errorStatusesOf(operation, rule, {
    method: method === 'HEAD' ? 'GET' : method,
    url: route.url,
    takesInput:
      route.url.includes(':') ||
      schema.params !== undefined ||
      schema.querystring !== undefined ||
      schema.body !== undefined,
  });
  if (schema.body instanceof z.ZodType && schema.body.safeParse(undefined).success) {
    OPTIONAL_BODIES.add(operation.operationId);
  }
  route.schema = {
    ...schema,
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    ...(rule?.scope === 'tool' ? {} : { response: responseSchemasOf(operation, errors) }),
  };
}
