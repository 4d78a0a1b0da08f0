// Sessions, their workflows and versions, drafts checked, and plugin discovery.
import { z } from 'zod';
import { MAX_LAYOUT_ENTRIES, workflowDefinitionSchema } from '../../services/index.js';
import { FieldErrorSchema, instant, named } from './envelopes.js';
import { envelope } from './operation.js';
import type { OperationTable } from './operation.js';

const NodeKindSchema = named(
  'NodeKind',
  z.enum(['trigger', 'processor', 'terminal']).meta({ description: 'What a plugin type does' }),
);

export const SessionSchema = named(
  'Session',
  z.strictObject({
    sessionId: z.string(),
    name: z.string(),
    initiator: z.string(),
    description: z.string(),
    createdAt: instant,
    updatedAt: instant,
    workflows: z.array(z.string()).meta({ description: 'Ids of the workflows it holds' }),
  }),
);

export const WorkflowDefinitionSchema = named('WorkflowDefinition', workflowDefinitionSchema);

const OutputPortsSchema = z
  .record(z.string(), z.array(z.string()))
  .meta({ description: 'Output ports by node id, for every node whose configuration is valid' });

const WorkflowSummarySchema = named(
  'WorkflowSummary',
  z.strictObject({
    workflowId: z.string(),
    description: z.string(),
    version: z.int(),
    createdAt: instant,
    updatedAt: instant,
    nodes: z.int(),
    edges: z.int(),
    active: z.boolean().meta({ description: 'Always-on: the server keeps one run of it going' }),
  }),
);

const ActivationSchema = named(
  'Activation',
  z.strictObject({
    sessionId: z.string(),
    workflowId: z.string(),
    active: z.boolean(),
    executionId: z
      .string()
      .nullable()
      .meta({ description: 'The run kept going; null while none runs or when inactive' }),
  }),
);

const SavedWorkflowSchema = named(
  'SavedWorkflow',
  z.strictObject({
    sessionId: z.string(),
    workflowId: z.string(),
    version: z.int(),
    created: z.boolean().meta({ description: 'True when this save created the workflow' }),
  }),
);

const WorkflowLayoutSchema = named(
  'WorkflowLayout',
  z.strictObject({
    sessionId: z.string(),
    workflowId: z.string(),
    version: z.int().meta({ description: 'The current version, whose nodes are placed' }),
    positions: z
      .record(z.string(), z.strictObject({ x: z.number(), y: z.number() }))
      .meta({ description: 'Canvas positions by node id; nodes without one are laid out' }),
  }),
);

const ValidationSchema = named(
  'WorkflowValidation',
  z.strictObject({
    valid: z.boolean(),
    message: z.string(),
    errors: z.array(FieldErrorSchema),
    outputPorts: OutputPortsSchema,
  }),
);

const NodeSchema = WorkflowDefinitionSchema.shape.nodes.element;
const EdgeSchema = WorkflowDefinitionSchema.shape.edges.unwrap().element;

const WorkflowGraphSchema = named(
  'WorkflowGraph',
  z.strictObject({
    workflowId: z.string(),
    version: z.int(),
    nodes: z.array(
      z.strictObject({
        nodeId: z.string(),
        type: z.string(),
        kind: NodeKindSchema,
        level: z.int().meta({ description: '0 without parents, else one past the deepest parent' }),
      }),
    ),
    edges: z.array(EdgeSchema),
    outputPorts: OutputPortsSchema,
    levels: z.array(z.array(z.string())).meta({ description: 'Node ids by level' }),
  }),
);

export const VersionSchema = named(
  'WorkflowVersion',
  z.strictObject({
    version: z.int(),
    createdAt: instant,
    author: z.string(),
    note: z.string().nullable(),
    current: z.boolean(),
  }),
);

const VersionDiffSchema = named(
  'WorkflowVersionDiff',
  z.strictObject({
    from: z.int(),
    to: z.int(),
    nodes: z.strictObject({
      added: z.array(NodeSchema),
      removed: z.array(NodeSchema),
      changed: z.array(NodeSchema).meta({ description: 'The `to` version of each changed node' }),
    }),
    edges: z.strictObject({ added: z.array(EdgeSchema), removed: z.array(EdgeSchema) }),
  }),
);

const PluginSchema = named(
  'Plugin',
  z.strictObject({
    type: z.string(),
    kind: NodeKindSchema,
    description: z.string(),
    plugin: z.string().meta({ description: 'The plugin that provides the type' }),
    ports: z.array(z.string()),
    configSchema: z
      .record(z.string(), z.unknown())
      .meta({ description: 'JSON Schema of the configuration' }),
    defaultTimeoutSeconds: z.number().nullable(),
  }),
);

const sessionRef = z.strictObject({ sessionId: z.string() });
const workflowRef = z.strictObject({ sessionId: z.string(), workflowId: z.string() });

const SESSION = '/api/sessions/:sessionId';
const WORKFLOW = `${SESSION}/workflows/:workflowId`;

export const SESSION_OPERATIONS: OperationTable = {
  'POST /api/sessions': {
    operationId: 'createSession',
    summary: 'Create a session',
    description: 'Creates a session, with the workflows given saved as their version 1.',
    tag: 'Sessions',
    answers: { 201: envelope('The session created', SessionSchema) },
    errors: [409],
  },
  'GET /api/sessions': {
    operationId: 'listSessions',
    summary: 'List sessions',
    description: 'Every session the key may reach.',
    tag: 'Sessions',
    answers: { 200: envelope('The sessions', z.array(SessionSchema)) },
  },
  [`GET ${SESSION}`]: {
    operationId: 'getSession',
    summary: 'Read a session',
    tag: 'Sessions',
    answers: { 200: envelope('The session', SessionSchema) },
    errors: [404],
  },
  [`DELETE ${SESSION}`]: {
    operationId: 'deleteSession',
    summary: 'Delete a session',
    description: 'Deletes the session and its workflows; refused while it has runs going.',
    tag: 'Sessions',
    answers: { 200: envelope('The session deleted', sessionRef) },
    errors: [404, 409],
  },
  'POST /api/sessions/validate': {
    operationId: 'validateWorkflow',
    summary: 'Check a draft workflow',
    description:
      'Checks a workflow definition without saving it: `valid=false` with field errors for a bad draft, and the output ports of every node so an editor can offer the right edge ports.',
    tag: 'Workflows',
    answers: { 200: envelope('The validation result', ValidationSchema) },
  },
  [`GET ${SESSION}/workflows`]: {
    operationId: 'listWorkflows',
    summary: 'List the workflows of a session',
    tag: 'Workflows',
    answers: { 200: envelope('The workflows', z.array(WorkflowSummarySchema)) },
    errors: [404],
  },
  [`GET ${WORKFLOW}`]: {
    operationId: 'getWorkflow',
    summary: 'Read a workflow',
    description: 'The definition of its current version.',
    tag: 'Workflows',
    answers: { 200: envelope('The workflow definition', WorkflowDefinitionSchema) },
    errors: [404],
  },
  [`PUT ${WORKFLOW}`]: {
    operationId: 'saveWorkflow',
    summary: 'Create or change a workflow',
    description:
      'Saves the definition as a new version (201 when it creates the workflow, 200 when it replaces it), with the version note from `note` if given. The newest 20 versions are kept.',
    tag: 'Workflows',
    answers: {
      200: envelope('The workflow saved as a new version', SavedWorkflowSchema),
      201: envelope('The workflow created', SavedWorkflowSchema),
    },
    errors: [404],
  },
  [`DELETE ${WORKFLOW}`]: {
    operationId: 'deleteWorkflow',
    summary: 'Delete a workflow',
    tag: 'Workflows',
    answers: { 200: envelope('The workflow deleted', workflowRef) },
    errors: [404, 409],
  },
  [`GET ${WORKFLOW}/layout`]: {
    operationId: 'getWorkflowLayout',
    summary: "Read a workflow's layout",
    description:
      'Where an editor placed the nodes of the current version; empty positions when none was saved. A layout is not part of the definition: saving one makes no version.',
    tag: 'Workflows',
    answers: { 200: envelope('The layout', WorkflowLayoutSchema) },
    errors: [404],
  },
  [`PUT ${WORKFLOW}/layout`]: {
    operationId: 'saveWorkflowLayout',
    summary: "Replace a workflow's layout",
    description: `Replaces the positions, making no new version. Refused whole with 400 and an error per entry (\`positions.<nodeId>\`) when an entry names a node the current version does not have, or when there are more than ${MAX_LAYOUT_ENTRIES} entries. A new version keeps the positions of the nodes it still has.`,
    tag: 'Workflows',
    answers: { 200: envelope('The layout saved', WorkflowLayoutSchema) },
    errors: [400, 404],
  },
  [`GET ${WORKFLOW}/graph`]: {
    operationId: 'getWorkflowGraph',
    summary: 'Read a workflow as a graph',
    description: 'Nodes with their kind and level, edges, output ports and levels.',
    tag: 'Workflows',
    answers: { 200: envelope('The graph of the current version', WorkflowGraphSchema) },
    errors: [404],
  },
  [`GET ${WORKFLOW}/versions`]: {
    operationId: 'listWorkflowVersions',
    summary: 'List the saved versions of a workflow',
    tag: 'Versions',
    answers: { 200: envelope('The versions, newest first', z.array(VersionSchema)) },
    errors: [404],
  },
  [`GET ${WORKFLOW}/versions/diff`]: {
    operationId: 'diffWorkflowVersions',
    summary: 'Compare two versions',
    tag: 'Versions',
    answers: { 200: envelope('Nodes and edges added, removed and changed', VersionDiffSchema) },
    errors: [404],
  },
  [`GET ${WORKFLOW}/versions/:version`]: {
    operationId: 'getWorkflowVersion',
    summary: 'Read one version',
    tag: 'Versions',
    answers: { 200: envelope('The definition of that version', WorkflowDefinitionSchema) },
    errors: [404],
  },
  [`POST ${WORKFLOW}/versions/:version/rollback`]: {
    operationId: 'rollbackWorkflow',
    summary: 'Roll back to a version',
    description:
      'Saves the definition of that version as a new current version, noted `Rollback to version N`, followed by `: <note>` when `note` is given.',
    tag: 'Versions',
    answers: { 200: envelope('The new current version', VersionSchema) },
    errors: [404],
  },
  [`POST ${WORKFLOW}/activate`]: {
    operationId: 'activateWorkflow',
    summary: 'Keep a workflow always on',
    description:
      'The leading server keeps one run of the workflow going, with no run deadline: it starts one now (or follows the one under way), again whenever it ends, and after a restart, a crash or a takeover (docs/always-on.md).',
    tag: 'Workflows',
    answers: { 200: envelope('The activation and the run kept going', ActivationSchema) },
    errors: [404],
  },
  [`POST ${WORKFLOW}/deactivate`]: {
    operationId: 'deactivateWorkflow',
    summary: 'Stop keeping a workflow on',
    description: 'No run is started again, and the run kept going is stopped (audited as a STOP).',
    tag: 'Workflows',
    answers: { 200: envelope('The activation, now off', ActivationSchema) },
    errors: [404],
  },
  'GET /api/plugins': {
    operationId: 'listPlugins',
    summary: 'List plugin types',
    tag: 'Plugins',
    answers: { 200: envelope('Every plugin type of this build', z.array(PluginSchema)) },
  },
  'GET /api/plugins/:type': {
    operationId: 'getPlugin',
    summary: 'Describe a plugin type',
    tag: 'Plugins',
    answers: { 200: envelope('The plugin type', PluginSchema) },
    errors: [404],
  },
};
