// What sessions and workflows are defined with, on the REST API and the tool endpoint alike.
// Objects are strict: SPEC rejects unknown JSON fields.
import { z } from 'zod';

const FORBIDDEN_ID_CHARACTERS = /[\s/\\?#%;]/;

/**
 * Longest id a client may choose. Ids travel in URL paths, so the HTTP router's path-parameter
 * limit is this same number: whatever is accepted on create can be read and deleted.
 */
export const MAX_ID_LENGTH = 128;

/** Identifiers travel in URL paths, so characters that would make a path ambiguous are refused. */
function identifier(label: string): z.ZodString {
  return z
    .string({
      error: (issue) =>
        issue.input == null ? `${label} is mandatory` : `${label} must be a string`,
    })
    .min(1, `${label} is mandatory`)
    .max(MAX_ID_LENGTH, `${label} must be at most ${MAX_ID_LENGTH} characters`)
    .refine((value) => !FORBIDDEN_ID_CHARACTERS.test(value), {
      message: `${label} must not contain whitespace or any of / \\ ? # % ;`,
    });
}

function mandatoryText(label: string): z.ZodString {
  return z
    .string({
      error: (issue) =>
        issue.input == null ? `${label} is mandatory` : `${label} must be a string`,
    })
    .refine((value) => value.trim().length > 0, { message: `${label} is mandatory` });
}

function text(label: string): z.ZodString {
  return z.string({ error: `${label} must be a string` });
}

export const nodeSchema = z.strictObject({
  nodeId: z
    .string({
      error: (issue) => (issue.input == null ? 'Node id is mandatory' : 'Node id must be a string'),
    })
    .min(1, 'Node id is mandatory')
    // Node controls address a node by its id in the path.
    .max(MAX_ID_LENGTH, `Node id must be at most ${MAX_ID_LENGTH} characters`),
  type: z
    .string({
      error: (issue) =>
        issue.input == null ? 'Node type is mandatory' : 'Node type must be a string',
    })
    .min(1, 'Node type is mandatory'),
  config: z.record(z.string(), z.unknown(), { error: 'Node config must be an object' }).optional(),
});

export const edgeSchema = z.strictObject({
  source: z
    .string({
      error: (issue) =>
        issue.input == null ? 'Edge source is mandatory' : 'Edge source must be a string',
    })
    .min(1, 'Edge source is mandatory'),
  target: z
    .string({
      error: (issue) =>
        issue.input == null ? 'Edge target is mandatory' : 'Edge target must be a string',
    })
    .min(1, 'Edge target is mandatory'),
  sourcePort: text('Edge sourcePort').optional(),
});

const workflowFields = {
  workflowId: identifier('Workflow id'),
  // Graph limits and the description length are checked by workflow validation, so that the
  // validate call can answer them as `valid=false` (SPEC "Validation result").
  description: text('Workflow description').default(''),
  nodes: z.array(nodeSchema, { error: 'Workflow nodes must be an array' }),
  edges: z.array(edgeSchema, { error: 'Workflow edges must be an array' }).default([]),
};

export const workflowDefinitionSchema = z.strictObject(workflowFields);

/** PUT body: the id may be left out, it comes from the path. */
export const workflowDefinitionBodySchema = z.strictObject({
  ...workflowFields,
  workflowId: workflowFields.workflowId.optional(),
});

export const createSessionSchema = z.strictObject({
  sessionId: identifier('Session id').optional(),
  name: mandatoryText('Session name'),
  initiator: mandatoryText('Session initiator'),
  description: text('Session description')
    .max(1024, 'Session description must be at most 1024 characters')
    .optional(),
  workflows: z
    .array(workflowDefinitionSchema, { error: 'Session workflows must be an array' })
    .optional(),
});
