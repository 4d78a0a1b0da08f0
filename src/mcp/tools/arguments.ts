// The arguments the tools share, each described with an example, so that a model can call a
// tool from `tools/list` alone (the descriptions end up in each tool's JSON Schema).
import { z } from 'zod';
import { createSessionSchema, workflowDefinitionSchema } from '../../services/index.js';
import { id } from '../tool.js';

export const sessionId = id('sessionId', 'The session, e.g. "demo" (see list_sessions).');
export const workflowId = id('workflowId', 'A workflow of the session, e.g. "hello".');
export const executionId = id(
  'executionId',
  'An execution, as start_workflow or get_workflow_history answer it, e.g. "3f2c9a70-1d2e-4b8f-9c61-0a7d5e4b2c11".',
);
export const nodeId = id('nodeId', 'A node of the workflow, e.g. "greet".');

/** Execution tools take `sessionId` too: a session-limited key must give it. */
export const optionalSession = sessionId
  .optional()
  .describe(
    'The session of the execution, e.g. "demo"; mandatory for a key limited to sessions, and the execution must belong to it.',
  );

export const integer = (label: string) =>
  z.number({ error: `${label} must be an integer` }).int(`${label} must be an integer`);

/** A saved version, as a number or its text. */
export const version = z
  .union([z.string(), z.number().int()], { error: 'version must be a version number' })
  .transform(String)
  .describe('A saved version number of the workflow, e.g. 3 (see list_workflow_versions).');

export const EXAMPLE_WORKFLOW =
  '{"workflowId": "hello", "description": "say hello", "nodes": [{"nodeId": "start", "type": "API_TRIGGER"}, {"nodeId": "greet", "type": "MAPPER", "config": {"mode": "TEMPLATE", "template": "Hello {{name}}"}}, {"nodeId": "print", "type": "CONSOLE_TERMINAL"}], "edges": [{"source": "start", "target": "greet"}, {"source": "greet", "target": "print"}]}';

export const workflowDefinition = workflowDefinitionSchema.describe(
  `A workflow definition: workflowId, description, nodes ({ nodeId, type, config? }, types from list_plugins) and edges ({ source, target, sourcePort? }), e.g. ${EXAMPLE_WORKFLOW}.`,
);

const session = createSessionSchema.shape;

/** The arguments of create_session: the REST body, each field described. */
export const newSession = {
  sessionId: session.sessionId.describe(
    'The id of the new session, e.g. "demo"; a new id when left out.',
  ),
  name: session.name.describe('A name for people, e.g. "Demo".'),
  initiator: session.initiator.describe('Who or what creates the session, e.g. "agent".'),
  description: session.description.describe(
    'What the session is for, at most 1024 characters, e.g. "Greets whoever starts it".',
  ),
  workflows: session.workflows.describe(
    `Workflows to define at once, each a workflow definition, e.g. [${EXAMPLE_WORKFLOW}].`,
  ),
};
