// Starting runs and reading them, stop and priority, the scheduler's limits, and the repair of
// runs from their checkpoints (SPEC "Execution calls", "Restart rules"; CONTRACT sections 3, 4).
import { z } from 'zod';
import { CHECKPOINT_STORE_KINDS, NODE_STATUSES, RUN_LOG_LEVELS } from '../../engine/index.js';
import { EXECUTION_STATUSES } from '../../executions/index.js';
import {
  inputEditSchema,
  inputEditsSchema,
  replayCheckSchema,
  replayVersionSchema,
} from '../../services/index.js';
import { instant, named } from './envelopes.js';
import { envelope } from './operation.js';
import type { Operation, OperationTable } from './operation.js';

export const ExecutionStatusSchema = named('ExecutionStatus', z.enum(EXECUTION_STATUSES));

export const NodeStatusSchema = named('NodeStatus', z.enum(NODE_STATUSES));

const traceId = z
  .string()
  .optional()
  .meta({ description: 'OpenTelemetry trace id of the run; present when tracing is on' });

const spanId = z.string().optional().meta({
  description:
    'OpenTelemetry span id of the node attempt that wrote the line; present when tracing is on and the line was written during an attempt',
});

const failure = z
  .string()
  .nullable()
  .meta({ description: 'Why it ended other than COMPLETED (the root cause of a failure)' });

const ExecutionNodeSchema = named(
  'ExecutionNode',
  z.strictObject({
    status: NodeStatusSchema,
    startedAt: instant.nullable(),
    endedAt: instant.nullable(),
    messagesIn: z.int(),
    messagesOut: z.int(),
    retries: z.int().meta({ description: 'Messages attempted again after a retryable failure' }),
    error: failure,
  }),
);

const executionFields = {
  executionId: z.string(),
  sessionId: z.string(),
  workflowId: z.string(),
  workflowVersion: z.int().meta({ description: 'The workflow version the run runs' }),
  status: ExecutionStatusSchema,
  priority: z.int(),
  createdAt: instant,
  startedAt: instant.nullable().meta({ description: 'Null while it waits for a slot' }),
  endedAt: instant.nullable(),
  error: failure,
  restartOf: z
    .string()
    .nullable()
    .meta({ description: 'The execution this one restarts (restart, from a node, retry)' }),
  resumedFrom: z
    .string()
    .nullable()
    .meta({ description: 'The aborted execution this one recovers' }),
  parentExecutionId: z
    .string()
    .nullable()
    .meta({ description: 'The run that started this one as a sub-workflow' }),
  nodes: z
    .record(z.string(), ExecutionNodeSchema)
    .meta({ description: 'By node id; empty until the run starts' }),
  traceId,
};

export const ExecutionSchema = named('Execution', z.strictObject(executionFields));

const byStatus = z
  .partialRecord(NodeStatusSchema, z.int())
  .meta({ description: 'Nodes by status; a status no node has is left out' });

const ExecutionProgressSchema = named(
  'ExecutionProgress',
  z.strictObject({
    ...executionFields,
    progress: z.strictObject({
      nodesTotal: z.int(),
      nodesFinished: z.int(),
      percent: z.int().meta({ description: 'Nodes finished, in percent, rounded' }),
      byStatus,
      results: z.int().meta({ description: 'Result events kept for the run' }),
      resultsNotKept: z.boolean().meta({
        description: 'Some results are no longer kept (bounds, or a server restart cut the run)',
      }),
      logsNotKept: z.boolean().meta({ description: 'Some log lines are no longer kept' }),
    }),
  }),
);

export const ExecutionStateSchema = named(
  'ExecutionState',
  z
    .strictObject({ executionId: z.string(), status: ExecutionStatusSchema })
    .meta({ description: 'An execution and its status when the call was answered' }),
);

const ExecutionPageSchema = named(
  'ExecutionPage',
  z.strictObject({
    items: z.array(ExecutionSchema),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'The `cursor` of the next page; null on the last page' }),
  }),
);

const ResultEventSchema = named(
  'ResultEvent',
  z.strictObject({
    seq: z.int(),
    timestamp: instant,
    nodeId: z.string().meta({ description: 'The terminal node that received the message' }),
    messageId: z.string(),
    payload: z.unknown().meta({ description: 'The payload of the message, any JSON' }),
  }),
);

export const LogLineSchema = named(
  'LogLine',
  z.strictObject({
    seq: z.int(),
    timestamp: instant,
    executionId: z.string(),
    nodeId: z.string(),
    level: z.enum(RUN_LOG_LEVELS),
    message: z.string(),
    fields: z.record(z.string(), z.unknown()),
    traceId,
    spanId,
  }),
);

const NodeMessagePageSchema = named(
  'NodeMessagePage',
  z.strictObject({
    items: z.array(
      z.strictObject({
        messageId: z.string(),
        port: z.string().meta({ description: 'The output port it left its node on' }),
        payload: z.unknown().meta({ description: 'Any JSON' }),
        headers: z
          .looseObject({ attempt: z.int() })
          .meta({ description: 'The message headers; `attempt` counts from 1' }),
      }),
    ),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Where the next page starts; null on the last' }),
  }),
);

const ExecutionCheckpointsSchema = named(
  'ExecutionCheckpoints',
  z.strictObject({
    executionId: z.string(),
    store: z
      .enum(CHECKPOINT_STORE_KINDS)
      .nullable()
      .meta({ description: 'Where checkpoints are kept; null when nothing is recorded' }),
    nodes: z.record(
      z.string(),
      z.strictObject({
        messages: z.int().meta({ description: 'Messages recorded, also those not held' }),
        bytes: z.int().meta({ description: 'Bytes of output held' }),
        complete: z
          .boolean()
          .meta({ description: 'The end marker exists and the whole output is held' }),
        truncated: z.boolean().meta({ description: 'Output went over a cap and is not all held' }),
      }),
    ),
  }),
);

const PriorityChangeSchema = named(
  'PriorityChange',
  z.strictObject({ executionId: z.string(), priority: z.int() }),
);

const START_DESCRIPTION =
  'Starts a run of the current version of the workflow, or queues it when no slot is free. An `Idempotency-Key` header makes a repeated start within its window (10 minutes by default) answer the first start’s execution and start nothing: send the same key when retrying after a 429 or 503.';

/** A start, restart, retry or recover: an execution accepted, answered before it ends. */
function launch(operation: Omit<Operation, 'answers'>, accepted: string): Operation {
  return { ...operation, answers: { 202: envelope(accepted, ExecutionStateSchema) } };
}

const STARTED =
  'The execution accepted, RUNNING or QUEUED; for a repeated `Idempotency-Key`, the first start’s execution as it is now';
const RESTARTED = 'The new execution, RUNNING or QUEUED';

// Registered by name so the API description refers to one schema of an edit.
named('InputEdit', inputEditSchema);

/** The optional body of a whole restart; without one the run's own version runs again. */
export const RestartBodySchema = named(
  'RestartBody',
  z.strictObject({ version: replayVersionSchema.optional() }).optional(),
);

/** The optional body of a restart from a node: edited inputs and a version. */
export const RestartFromNodeBodySchema = named(
  'RestartFromNodeBody',
  z
    .strictObject({
      inputs: inputEditsSchema.optional(),
      version: replayVersionSchema.optional(),
    })
    .optional(),
);

/** The body of a replay check: a saved version or a draft. */
export const ReplayCheckBodySchema = named('ReplayCheckBody', replayCheckSchema);

const NodeComparisonSchema = named(
  'NodeComparison',
  z.strictObject({
    nodeId: z.string(),
    same: z.boolean().meta({ description: 'The replayed output equals the recorded output' }),
    recorded: z.int().meta({ description: 'Messages the node sent in the run' }),
    replayed: z.int().meta({ description: 'Messages it sent in the check' }),
    differences: z
      .array(
        z.strictObject({
          messageId: z.string(),
          recorded: z
            .unknown()
            .optional()
            .meta({ description: 'The payload sent in the run; absent when none was' }),
          replayed: z
            .unknown()
            .optional()
            .meta({ description: 'The payload sent in the check; absent when none was' }),
          note: z.string().optional().meta({
            description:
              'Why nothing was replayed: an input a node with outside effects has no recording for',
          }),
        }),
      )
      .meta({ description: 'The first 5 messages that differ, by message id' }),
  }),
);

const ReplayCheckSchema = named(
  'ReplayCheck',
  z.strictObject({
    executionId: z.string(),
    version: z.int().nullable().meta({ description: 'The version checked; null for a draft' }),
    status: z.string().meta({
      description:
        "How the check's run ended: COMPLETED, or FAILURE, TIMED_OUT (the check's time limit), ...",
    }),
    error: failure,
    nodes: z
      .array(NodeComparisonSchema)
      .meta({ description: 'Every node of the checked version, in topological order' }),
  }),
);

const EXECUTION = '/api/executions/:id';

export const EXECUTION_OPERATIONS: OperationTable = {
  'POST /api/workflow/start': launch(
    {
      operationId: 'startWorkflow',
      summary: 'Start a workflow',
      description: START_DESCRIPTION,
      tag: 'Executions',
      errors: [404, 429],
    },
    STARTED,
  ),
  'POST /api/workflow/:sessionId/start': launch(
    {
      operationId: 'startSessionWorkflow',
      summary: 'Start a workflow of a session',
      description: `For keys limited to sessions: the session is named in the path. ${START_DESCRIPTION}`,
      tag: 'Executions',
      errors: [404, 429],
    },
    STARTED,
  ),
  [`GET ${EXECUTION}`]: {
    operationId: 'getExecution',
    summary: 'Read an execution',
    tag: 'Executions',
    answers: { 200: envelope('The execution with its nodes', ExecutionSchema) },
    errors: [404],
  },
  'GET /api/executions': {
    operationId: 'searchExecutions',
    summary: 'Search executions',
    description:
      'Executions newest first, filtered by session, workflow, status and creation time, one page at a time: pass the `nextCursor` of a page as `cursor` to read the next one.',
    tag: 'Executions',
    answers: { 200: envelope('One page of executions', ExecutionPageSchema) },
  },
  'GET /api/workflow/:sessionId/history': {
    operationId: 'listSessionExecutions',
    summary: 'List the executions of a session',
    description: 'Newest first, up to `limit`, optionally of one workflow or status.',
    tag: 'Executions',
    answers: { 200: envelope('The executions', z.array(ExecutionSchema)) },
  },
  'GET /api/workflow/:sessionId/status/:id': {
    operationId: 'getExecutionProgress',
    summary: 'Read the progress of an execution',
    description: 'The execution with counts of its nodes by status and of what it kept.',
    tag: 'Executions',
    answers: { 200: envelope('The execution and its progress', ExecutionProgressSchema) },
    errors: [404],
  },
  [`GET ${EXECUTION}/results`]: {
    operationId: 'listExecutionResults',
    summary: 'Read the results of an execution',
    description: 'The messages its terminal nodes received, oldest first.',
    tag: 'Executions',
    answers: { 200: envelope('The result events', z.array(ResultEventSchema)) },
    errors: [404],
  },
  [`GET ${EXECUTION}/logs`]: {
    operationId: 'listExecutionLogs',
    summary: 'Read the log lines of an execution',
    description:
      'Lines kept for the run, oldest first; optionally of one node, after a `seq`, at most `limit` of them.',
    tag: 'Executions',
    answers: { 200: envelope('The log lines', z.array(LogLineSchema)) },
    errors: [404],
  },
  [`POST ${EXECUTION}/priority`]: {
    operationId: 'setExecutionPriority',
    summary: 'Change the priority of a waiting execution',
    description: 'Only while it waits for a slot; higher runs first. Otherwise 400.',
    tag: 'Controls',
    answers: { 200: envelope('The new priority', PriorityChangeSchema) },
    errors: [404],
  },
  [`POST ${EXECUTION}/stop`]: {
    operationId: 'stopExecution',
    summary: 'Stop an execution',
    description:
      'Stops a run, or takes a start waiting for a slot out of the queue; 409 once it has ended.',
    tag: 'Controls',
    answers: { 200: envelope('The execution, stopping or stopped', ExecutionStateSchema) },
    errors: [404, 409],
  },
  [`POST ${EXECUTION}/restart`]: launch(
    {
      operationId: 'restartExecution',
      summary: 'Restart an execution',
      description:
        'Runs the whole workflow again, with the same start payload, as a new execution that takes a slot like any start; the original is stopped if it is still going. Runs the same version, or the saved `version` of the body when its triggers are the same as in the run (409 otherwise, naming the node). 409 while another restart of it is under way.',
      tag: 'Repair',
      errors: [404, 409, 429],
    },
    RESTARTED,
  ),
  [`POST ${EXECUTION}/restart/:nodeId`]: launch(
    {
      operationId: 'restartExecutionFromNode',
      summary: 'Restart an execution from a node',
      description:
        'A new execution that runs the node and every node after it; the nodes feeding them replay the output they recorded, and branches that do not lead through the node are left out. 400 when a feeding node is still producing output or its recorded output is incomplete. The body may edit what the node received (`inputs`: 400 naming a message it did not receive) and name a saved `version` to run when the graph above the node is unchanged (409 naming the node that differs).',
      tag: 'Repair',
      errors: [404, 409, 429],
    },
    RESTARTED,
  ),
  [`POST ${EXECUTION}/nodes/:nodeId/retry`]: launch(
    {
      operationId: 'retryExecutionNode',
      summary: 'Retry a failed node',
      description:
        'A restart from a node that ended FAILURE or TIMED_OUT; 400 for a node that did not fail.',
      tag: 'Repair',
      errors: [404, 409, 429],
    },
    RESTARTED,
  ),
  [`POST ${EXECUTION}/recover`]: launch(
    {
      operationId: 'recoverExecution',
      summary: 'Recover an aborted execution',
      description:
        'Resumes a run a server restart cut off (ABORTED) as a new execution: finished nodes replay their checkpoints, the others run. Needs a durable execution log and checkpoint store and an unchanged workflow; a run is recovered once (409 otherwise).',
      tag: 'Repair',
      errors: [404, 409, 429],
    },
    RESTARTED,
  ),
  [`POST ${EXECUTION}/replay-check`]: {
    operationId: 'replayCheckExecution',
    summary: 'Check a version against a recorded run',
    description:
      "Runs the run's recorded inputs through a saved `version` (or an unsaved draft `definition`) and compares, per node, the output with what the run recorded. Nothing outside is called: nodes of a type that is not pure answer each input from their recorded output for it, and an input they have no recording for is a difference. Nothing is saved: no execution, checkpoints, results, events or audit entry. 404 for a version not saved; 409 when the checkpoints it needs were not kept.",
    tag: 'Repair',
    answers: { 200: envelope('Per node, the recorded and the replayed output', ReplayCheckSchema) },
    errors: [404, 409],
  },
  [`GET ${EXECUTION}/nodes/:nodeId/messages`]: {
    operationId: 'listNodeMessages',
    summary: 'Read what a node received or sent',
    description:
      "A node's recorded messages from the checkpoints, oldest first, a page at a time (`limit`, 1 to 1000, default 100; `cursor`: the `nextCursor` of the page before). `direction=out` (the default): what the node sent, with the port each left on. `direction=in`: what it received, its parents' recorded output on the edges into it, parent by parent in the order of the edges. 409 when the checkpoints were not kept (the run's version is gone, an output went over the checkpoint caps or never finished); 404 for a node the run's workflow does not have.",
    tag: 'Repair',
    answers: { 200: envelope('One page of recorded messages', NodeMessagePageSchema) },
    errors: [404, 409],
  },
  [`GET ${EXECUTION}/checkpoints`]: {
    operationId: 'getExecutionCheckpoints',
    summary: 'Read the checkpoints of an execution',
    description: 'Per node: messages recorded, bytes held, and whether a replay can use them.',
    tag: 'Repair',
    answers: { 200: envelope('The checkpoints by node id', ExecutionCheckpointsSchema) },
    errors: [404],
  },
};
