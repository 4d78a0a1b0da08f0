// Starting, reading and steering executions (SPEC "Execution calls"; CONTRACT 4). Every
// control command is reviewed by the supervisors and audited with its sender, as on REST.
import { z } from 'zod';
import { AppError } from '../../core/index.js';
import { EXECUTION_STATUSES } from '../../executions/index.js';
import type { InputEdit } from '../../executions/index.js';
import { inputEditsSchema, replayVersionSchema } from '../../services/index.js';
import type { ExecutionService } from '../../services/index.js';
import { defineTool, id, items } from '../tool.js';
import {
  EXAMPLE_WORKFLOW,
  executionId,
  integer,
  nodeId,
  optionalSession,
  sessionId,
  workflowDefinition,
  workflowId,
} from './arguments.js';
import { followRun } from './run-following.js';
import type { ToolCaller } from '../tool.js';

const STATUSES = EXECUTION_STATUSES;

/** How long `start_workflow` follows a run when asked to wait. */
const DEFAULT_WAIT_SECONDS = 60;
const MAX_WAIT_SECONDS = 3600;

/** Execution tools: `sessionId` is optional, but a session-limited key must give it. */
const execution = { executionId, sessionId: optionalSession };
const node = { ...execution, nodeId };

const RUN_ACTIONS = [
  'PAUSE',
  'RESUME',
  'STEP',
  'STOP',
  'RESTART',
  'RESTART_FROM_NODE',
  'RETRY',
  'RECOVER',
  'SKIP',
  'UNSKIP',
] as const;
type Action = (typeof RUN_ACTIONS)[number];

/** CONTRACT 4: `action` is case-insensitive. */
const action = z
  .string({ error: 'action must be a string' })
  .transform((text) => text.toUpperCase())
  .pipe(z.enum(RUN_ACTIONS, { error: `action must be one of ${RUN_ACTIONS.join(', ')}` }))
  .describe(`What to do, case-insensitive: one of ${RUN_ACTIONS.join(', ')}, e.g. "PAUSE".`);

/** What a restart may change (docs/run-repair.md); other actions refuse it. */
const repair = {
  inputs: inputEditsSchema
    .optional()
    .describe(
      'For RESTART_FROM_NODE: edits of the messages the node received; each names a received messageId with its new payload, or gives a payload alone to add a message, e.g. [{"messageId": "m-1", "payload": {"qty": 2}}].',
    ),
  version: replayVersionSchema
    .optional()
    .describe(
      "For RESTART and RESTART_FROM_NODE: a saved version to run instead of the run's own, when the graph above the restart is unchanged, e.g. 3.",
    ),
};

interface Repair {
  readonly inputs?: readonly InputEdit[] | undefined;
  readonly version?: number | undefined;
}

/** `inputs` belong to RESTART_FROM_NODE, `version` to it and RESTART. */
function refuseMisplacedRepair(command: Action, { inputs, version }: Repair): void {
  const misplaced =
    inputs !== undefined && command !== 'RESTART_FROM_NODE'
      ? 'inputs'
      : version !== undefined && command !== 'RESTART' && command !== 'RESTART_FROM_NODE'
        ? 'version'
        : undefined;
  if (misplaced === undefined) return;
  throw new AppError('VALIDATION_FAILED', {
    fieldErrors: [{ field: misplaced, message: `${misplaced} does not go with ${command}` }],
  });
}

function needsNode(command: Action, nodeId: string | undefined): string {
  if (nodeId !== undefined) return nodeId;
  throw new AppError('VALIDATION_FAILED', {
    fieldErrors: [{ field: 'nodeId', message: `nodeId is mandatory for ${command}` }],
  });
}

/**
 * One action of `control_workflow` or `control_node` as the service call it stands for: a
 * run command, or a node command when a node is named.
 */
function controlRun(
  executions: ExecutionService,
  { actor, sessions }: ToolCaller,
  executionId: string,
  command: Action,
  nodeId: string | undefined,
  { inputs, version }: Repair = {},
): unknown {
  refuseMisplacedRepair(command, { inputs, version });
  switch (command) {
    case 'PAUSE':
    case 'RESUME':
    case 'STEP':
      return nodeId === undefined
        ? executions.control(executionId, command, actor)
        : executions.controlNode({ executionId, nodeId, action: command }, actor);
    case 'STOP':
      return nodeId === undefined
        ? executions.stop(executionId, actor)
        : executions.controlNode({ executionId, nodeId, action: command }, actor);
    case 'SKIP':
    case 'UNSKIP':
      return executions.controlNode(
        { executionId, nodeId: needsNode(command, nodeId), action: command },
        actor,
      );
    case 'RESTART':
      return executions.restart(executionId, { kind: 'whole', version }, actor, sessions);
    case 'RESTART_FROM_NODE':
      return executions.restart(
        executionId,
        { kind: 'from', nodeId: needsNode(command, nodeId), inputs, version },
        actor,
        sessions,
      );
    case 'RETRY':
      return executions.restart(
        executionId,
        { kind: 'retry', nodeId: needsNode(command, nodeId) },
        actor,
        sessions,
      );
    case 'RECOVER':
      return executions.recover(executionId, actor, sessions);
  }
}

export const executionTools = [
  defineTool({
    name: 'start_workflow',
    role: 'OPERATOR',
    scope: 'session',
    description:
      'Starts a workflow of a session with an optional payload and priority; answers the executionId and its status (RUNNING or QUEUED). The same idempotencyKey within its window answers the first start and starts nothing. With wait: true it follows the run for up to timeoutSeconds, sending progress (nodes done of nodes total) and log notifications, asks the user to approve or reject where the run waits for an approval and the client can ask, and answers the final execution with finished, status and any pendingApprovals.',
    input: {
      sessionId,
      workflowId,
      payload: z
        .unknown()
        .optional()
        .describe('What the trigger node emits, any JSON, e.g. {"name": "Ada"}.'),
      priority: integer('priority')
        .optional()
        .describe('Higher runs first when the run must queue for a slot, e.g. 5; default 0.'),
      idempotencyKey: id(
        'idempotencyKey',
        'Makes a repeated start answer the first one instead of starting again, e.g. "order-4711".',
      ).optional(),
      wait: z
        .boolean({ error: 'wait must be a boolean' })
        .default(false)
        .describe(
          'Follow the run until it ends or waits for an approval, e.g. true; default false.',
        ),
      timeoutSeconds: integer('timeoutSeconds')
        .min(1, 'timeoutSeconds must be at least 1')
        .max(MAX_WAIT_SECONDS, `timeoutSeconds must be at most ${MAX_WAIT_SECONDS}`)
        .default(DEFAULT_WAIT_SECONDS)
        .describe(
          `With wait: how long to follow the run before answering where it is, e.g. 120; default ${DEFAULT_WAIT_SECONDS}.`,
        ),
    },
    run: async (
      { idempotencyKey, wait, timeoutSeconds, ...request },
      { executions },
      caller,
      context,
    ) => {
      const started = await executions.start(request, { idempotencyKey, reach: caller.sessions });
      if (!wait) return started;
      return followRun(executions, started.executionId, timeoutSeconds * 1000, context, caller);
    },
  }),
  defineTool({
    name: 'get_workflow_status',
    role: 'VIEWER',
    scope: 'execution',
    description:
      'Reads an execution: its status, its nodes with their statuses and counts, and its progress.',
    input: execution,
    run: ({ executionId }, { executions }) => executions.status(executionId),
  }),
  defineTool({
    name: 'get_workflow_history',
    role: 'VIEWER',
    scope: 'session',
    description: 'Lists the executions of a session, newest first, by workflow and status.',
    input: {
      sessionId,
      workflowId: workflowId.optional().describe('Only runs of this workflow, e.g. "hello".'),
      status: z
        .enum(STATUSES, { error: `status must be one of ${STATUSES.join(', ')}` })
        .optional()
        .describe(`Only runs in this status, one of ${STATUSES.join(', ')}, e.g. "FAILURE".`),
      limit: integer('limit')
        .min(1, 'limit must be at least 1')
        .max(1000, 'limit must be at most 1000')
        .default(100)
        .describe('At most this many runs, 1 to 1000, e.g. 20; default 100.'),
    },
    run: ({ sessionId, ...query }, { executions }) => items(executions.history(sessionId, query)),
  }),
  defineTool({
    name: 'get_execution_logs',
    role: 'VIEWER',
    scope: 'execution',
    description:
      'Reads the node log lines of an execution, optionally of one node and after a sequence number.',
    input: {
      ...execution,
      nodeId: nodeId.optional().describe('Only lines of this node, e.g. "greet".'),
      after: integer('after')
        .min(0, 'after must be at least 0')
        .optional()
        .describe(
          'Only lines after this sequence number (the seq of a line read before), e.g. 42.',
        ),
    },
    run: ({ executionId, nodeId, after }, { executions }) =>
      items(executions.logs(executionId, { nodeId, after })),
  }),
  defineTool({
    name: 'get_execution_result',
    role: 'VIEWER',
    scope: 'execution',
    description:
      'Reads the result events of an execution (what its terminals received), oldest first.',
    input: execution,
    run: ({ executionId }, { executions }) => items(executions.results(executionId)),
  }),
  defineTool({
    name: 'list_pending_approvals',
    role: 'VIEWER',
    scope: 'execution',
    description:
      'Lists the approvals WAIT_FOR_SIGNAL nodes wait for: of one execution, or of a whole session.',
    input: {
      executionId: executionId
        .optional()
        .describe(
          'The execution whose approvals to list, e.g. "3f2c9a70-1d2e-4b8f-9c61-0a7d5e4b2c11".',
        ),
      sessionId: sessionId
        .optional()
        .describe('The session whose approvals to list (or of the execution), e.g. "demo".'),
    },
    run: ({ executionId, sessionId }, { executions }) => {
      if (executionId !== undefined) return items(executions.approvals(executionId));
      if (sessionId !== undefined) return items(executions.sessionApprovals(sessionId));
      throw new AppError('VALIDATION_FAILED', {
        fieldErrors: [{ field: 'executionId', message: 'executionId or sessionId is mandatory' }],
      });
    },
  }),
  defineTool({
    name: 'control_workflow',
    role: 'OPERATOR',
    scope: 'execution',
    description: `Steers an execution: action ${RUN_ACTIONS.join(', ')} (case-insensitive). RESTART_FROM_NODE and RETRY need nodeId; RESTART, RESTART_FROM_NODE, RETRY and RECOVER answer the new execution. RESTART_FROM_NODE takes inputs (edits of what the node received: messageId and payload, or a payload alone to add a message); RESTART and RESTART_FROM_NODE take version (a saved version to run when the graph above the restart is unchanged).`,
    input: {
      ...execution,
      action,
      nodeId: nodeId
        .optional()
        .describe('The node, mandatory for RESTART_FROM_NODE and RETRY, e.g. "greet".'),
      ...repair,
    },
    run: ({ executionId, action: command, nodeId, inputs, version }, { executions }, caller) =>
      controlRun(executions, caller, executionId, command, nodeId, { inputs, version }),
  }),
  defineTool({
    name: 'replay_check',
    role: 'OPERATOR',
    scope: 'execution',
    description:
      "Proves a change before it is saved: runs an execution's recorded inputs through a saved version or an unsaved draft, calling nothing outside (nodes with outside effects answer from the run's recordings) and saving nothing, and answers per node whether its output is the same as in the run, with the first differing messages. Give version or definition.",
    input: {
      ...execution,
      version: integer('version')
        .min(1, 'version must be at least 1')
        .optional()
        .describe('A saved version of the workflow to check, e.g. 3.'),
      definition: workflowDefinition
        .optional()
        .describe(
          `An unsaved draft of the workflow to check instead of a saved version, as define_workflow takes it, e.g. ${EXAMPLE_WORKFLOW}.`,
        ),
    },
    run: ({ executionId, version, definition }, { executions }) => {
      if ((version === undefined) === (definition === undefined)) {
        throw new AppError('VALIDATION_FAILED', {
          fieldErrors: [
            { field: 'version', message: 'Give exactly one of version and definition' },
          ],
        });
      }
      return executions.replayCheck(executionId, { version, definition });
    },
  }),
  defineTool({
    name: 'control_node',
    role: 'OPERATOR',
    scope: 'execution',
    description:
      'Steers one node of an execution: action PAUSE, RESUME, STEP, STOP, SKIP, UNSKIP, or RESTART_FROM_NODE and RETRY (a new execution), case-insensitive. RESTART_FROM_NODE takes inputs (edits of what the node received: messageId and payload, or a payload alone to add a message) and version (a saved version to run when the graph above the node is unchanged).',
    input: { ...node, action, ...repair },
    run: ({ executionId, nodeId, action: command, inputs, version }, { executions }, caller) => {
      if (command === 'RESTART' || command === 'RECOVER') {
        throw new AppError('VALIDATION_FAILED', {
          fieldErrors: [
            {
              field: 'action',
              message: `${command} acts on a whole execution: use control_workflow`,
            },
          ],
        });
      }
      return controlRun(executions, caller, executionId, command, nodeId, { inputs, version });
    },
  }),
  defineTool({
    name: 'set_node_breakpoint',
    role: 'OPERATOR',
    scope: 'execution',
    description:
      'Sets (enabled, the default) or clears a breakpoint on a node: the node waits after each message until resumed or stepped. Answers the execution breakpoints.',
    input: {
      ...node,
      enabled: z
        .boolean({ error: 'enabled must be a boolean' })
        .default(true)
        .describe('true sets the breakpoint, false clears it, e.g. false; default true.'),
    },
    run: ({ executionId, nodeId, enabled }, { executions }, { actor }) => ({
      nodeIds: executions.setBreakpoint(executionId, nodeId, enabled, actor),
    }),
  }),
  defineTool({
    name: 'signal_node',
    role: 'OPERATOR',
    scope: 'execution',
    description:
      'Answers the approval a WAIT_FOR_SIGNAL node waits for: approved true or false, for messageId (default: the oldest wait of the node), with an optional comment and payload.',
    input: {
      ...node,
      approved: z
        .boolean({ error: 'approved must be a boolean' })
        .describe('true approves, false rejects, e.g. true.'),
      messageId: id(
        'messageId',
        'The waiting message to answer, from list_pending_approvals, e.g. "m-1a2b"; default the oldest of the node.',
      ).optional(),
      comment: z
        .string({ error: 'comment must be a string' })
        .optional()
        .describe('Why, kept in the audit, e.g. "checked the order".'),
      payload: z
        .unknown()
        .optional()
        .describe('A replacement for the waiting message payload, any JSON, e.g. {"order": 7}.'),
    },
    run: ({ executionId, nodeId, approved, messageId, comment, payload }, { executions }, caller) =>
      executions.signal(
        executionId,
        nodeId,
        { approved, messageId, comment, payload },
        caller.actor,
      ),
  }),
  defineTool({
    name: 'get_control_bus_status',
    role: 'VIEWER',
    scope: 'global',
    description:
      'Reads the control bus: executions running and queued, admission limits, supervisors, leader.',
    input: {},
    run: (_input, { executions }) => executions.controlStatus(),
  }),
  defineTool({
    name: 'get_scheduler_limits',
    role: 'ADMIN',
    scope: 'global',
    description: 'Reads the admission limits.',
    input: {},
    run: (_input, { executions }) => executions.limits,
  }),
  defineTool({
    name: 'set_scheduler_limits',
    role: 'ADMIN',
    scope: 'global',
    description:
      'Changes admission limits without a restart; a limit given as null is turned off, one left out stays.',
    input: {
      maxConcurrent: integer('maxConcurrent')
        .min(1)
        .nullable()
        .optional()
        .describe('Runs at once on the server, null for no limit, e.g. 8.'),
      maxPerSession: integer('maxPerSession')
        .min(1)
        .nullable()
        .optional()
        .describe('Runs at once per session, null for no limit, e.g. 4.'),
      maxPerWorkflow: integer('maxPerWorkflow')
        .min(1)
        .nullable()
        .optional()
        .describe('Runs at once per workflow, null for no limit, e.g. 2.'),
      onLimit: z
        .enum(['REJECT', 'QUEUE'], { error: 'onLimit must be REJECT or QUEUE' })
        .optional()
        .describe('What a start over a limit gets: REJECT or QUEUE, e.g. "QUEUE".'),
      queueCapacity: integer('queueCapacity')
        .min(0)
        .optional()
        .describe('Starts the queue holds at most, e.g. 100.'),
      queueTimeout: integer('queueTimeout')
        .min(1)
        .nullable()
        .optional()
        .describe('Seconds a start may wait in the queue, null for no limit, e.g. 300.'),
    },
    run: (input, { executions }, caller) => executions.setLimits(input, caller.actor),
  }),
  defineTool({
    name: 'change_execution_priority',
    role: 'ADMIN',
    scope: 'execution',
    description: 'Changes the priority of an execution waiting for a slot.',
    input: {
      ...execution,
      priority: integer('priority').describe('The new priority, higher runs first, e.g. 10.'),
    },
    run: ({ executionId, priority }, { executions }, caller) =>
      executions.setPriority(executionId, priority, caller.actor),
  }),
];
