// Finishes the generated description: each answer described in words from the API contract,
// `Retry-After` on the answers that carry it, and only the components something refers to.
import type { OpenAPIV3 } from 'openapi-types';
import {
  BODYLESS_ERRORS,
  ERROR_DESCRIPTIONS,
  OPERATIONS,
  RETRY_AFTER_STATUSES,
  hasOptionalBody,
} from './api-contract/index.js';
import type { ErrorStatus, Operation } from './api-contract/index.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const RETRY_AFTER: OpenAPIV3.HeaderObject = {
  description: 'Seconds to wait before trying again',
  schema: { type: 'integer', minimum: 1 },
};

const BY_ID = new Map<string, Operation>(
  Object.values(OPERATIONS).map((operation) => [operation.operationId, operation]),
);

export function finishDocument(document: unknown): OpenAPIV3.Document {
  const finished = document as OpenAPIV3.Document;
  for (const item of Object.values(finished.paths)) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (operation === undefined) continue;
      describeAnswers(operation);
      const body = operation.requestBody;
      if (body !== undefined && !('$ref' in body) && hasOptionalBody(operation.operationId ?? '')) {
        body.required = false;
      }
    }
  }
  return pruneComponents(finished);
}

function describeAnswers(operation: OpenAPIV3.OperationObject): void {
  const contract =
    operation.operationId === undefined ? undefined : BY_ID.get(operation.operationId);
  for (const [status, response] of Object.entries(operation.responses)) {
    if ('$ref' in response) continue;
    const code = Number(status);
    const answer = contract?.answers[code as keyof Operation['answers']];
    const writable = response as {
      description: string;
      headers?: OpenAPIV3.ResponseObject['headers'];
      content?: OpenAPIV3.ResponseObject['content'];
    };
    if (answer !== undefined) writable.description = answer.description;
    else if (code in ERROR_DESCRIPTIONS) {
      writable.description = ERROR_DESCRIPTIONS[code as ErrorStatus];
    }
    if (answer?.kind === 'empty' || BODYLESS_ERRORS.includes(code as ErrorStatus)) {
      delete writable.content;
    }
    if (RETRY_AFTER_STATUSES.includes(code as ErrorStatus)) {
      writable.headers = { ...writable.headers, 'Retry-After': RETRY_AFTER };
    }
  }
}

/** Drops components nothing refers to, following references between components. */
function pruneComponents(document: OpenAPIV3.Document): OpenAPIV3.Document {
  const schemas = document.components?.schemas;
  if (schemas === undefined) return document;
  const used = new Set<string>();
  const pending = [...referencesIn(document.paths)];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (used.has(name)) continue;
    used.add(name);
    pending.push(...referencesIn(schemas[name]));
  }
  document.components = {
    ...document.components,
    schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))),
  };
  return document;
}

const SCHEMA_REF = '#/components/schemas/';

function referencesIn(value: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF)) {
          found.push(child.slice(SCHEMA_REF.length));
        } else visit(child);
      }
    }
  };
  visit(value);
  return found;
}
