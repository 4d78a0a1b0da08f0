// Run and node controls, breakpoints, signals and approvals, and the control bus: its audit,
// supervisors and status (CONTRACT section 4).
import { z } from 'zod';
import { NODE_STATUSES } from '../../engine/index.js';
import { instant, named } from './envelopes.js';
import { envelope } from './operation.js';
import type { Operation, OperationKey, OperationTable } from './operation.js';
import { ExecutionStateSchema } from './executions.contract.js';
import { SchedulerLimitsSchema } from './scheduler.contract.js';

const NodeStateSchema = named(
  'NodeState',
  z
    .strictObject({
      executionId: z.string(),
      nodeId: z.string(),
      // Written out, not a reference to NodeStatus made nullable: OpenAPI 3.0 gives a
      // reference no siblings, and `nullable` wants a type beside it.
      status: z.enum(NODE_STATUSES).nullable().meta({ description: 'Null before the run starts' }),
    })
    .meta({ description: "The node's status after the command" }),
);

const SignalAnswerSchema = named(
  'SignalAnswer',
  z.strictObject({
    executionId: z.string(),
    nodeId: z.string(),
    messageId: z.string().meta({ description: 'The message whose wait was answered' }),
    approved: z.boolean(),
  }),
);

const ApprovalSchema = named(
  'Approval',
  z
    .strictObject({
      executionId: z.string(),
      sessionId: z.string(),
      workflowId: z.string(),
      nodeId: z.string(),
      messageId: z.string(),
      prompt: z.string().nullable(),
      payload: z.unknown().meta({ description: 'The payload of the message waiting' }),
      requestedAt: instant,
    })
    .meta({ description: 'A message a `WAIT_FOR_SIGNAL` node holds until it is answered' }),
);

const BreakpointsSchema = named(
  'Breakpoints',
  z.strictObject({
    nodeIds: z.array(z.string()).meta({ description: 'In topological order' }),
  }),
);

const AuditEntrySchema = named(
  'AuditEntry',
  z.strictObject({
    id: z.string(),
    timestamp: instant,
    executionId: z.string().nullable(),
    nodeId: z.string().nullable(),
    command: z.string().meta({
      description:
        '`PAUSE`, `RESUME`, `STEP`, `STOP`, `SKIP`, `UNSKIP`, `SIGNAL`, `BREAKPOINTS`, `PRIORITY`, `SCHEDULER_LIMITS`, `RESTART`, `RESTART_FROM_NODE`, `RETRY`, `RECOVER`',
    }),
    outcome: z.enum(['APPLIED', 'REFUSED']),
    reason: z.string().nullable().meta({ description: 'Why it was refused' }),
    actor: z.string().nullable().meta({ description: 'Who sent it; null when nobody is named' }),
    detail: z.string().optional().meta({
      description:
        'What a restart changed: the inputs it edited or added, the version it ran; absent otherwise',
    }),
  }),
);

const SupervisorSchema = named(
  'Supervisor',
  z.strictObject({
    id: z.string(),
    type: z.enum(['review', 'rule']).meta({
      description: '`review`: reviews control commands and may refuse them',
    }),
    state: z.enum(['ACTIVE']),
    reviewed: z.int().meta({ description: 'Commands reviewed' }),
    refused: z.int().meta({ description: 'Commands refused' }),
  }),
);

const ControlBusStatusSchema = named(
  'ControlBusStatus',
  z.strictObject({
    running: z.int(),
    queued: z.int().meta({ description: 'Starts waiting for a slot' }),
    limits: SchedulerLimitsSchema,
    supervisors: z.array(SupervisorSchema),
    leader: z.boolean().meta({
      description: 'With high availability, whether this server leads; a server alone always does',
    }),
  }),
);

const RUN = '/api/executions/:id';
const NODE = `${RUN}/nodes/:nodeId`;

/** Every control command may be refused by a supervisor (403) and is audited either way. */
const AUDITED = 'The command is audited, applied or refused; a supervisor may refuse it (403).';

const runControl = (
  operationId: string,
  summary: string,
  description: string,
  errors: Operation['errors'],
): Operation => ({
  operationId,
  summary,
  description: `${description} ${AUDITED}`,
  tag: 'Controls',
  answers: { 200: envelope("The run's status after the command", ExecutionStateSchema) },
  ...(errors === undefined ? {} : { errors }),
});

const NODE_REFUSALS =
  '404 for an unknown node or one that has ended, 409 when the run is not going. A body with approval fields (`approved`, `messageId`, `payload`, `comment`) is refused with 403: they belong to the signal call.';

const nodeControl = (operationId: string, summary: string, description: string): Operation => ({
  operationId,
  summary,
  description: `${description} ${NODE_REFUSALS} ${AUDITED}`,
  tag: 'Controls',
  answers: { 200: envelope("The node's status after the command", NodeStateSchema) },
  errors: [403, 404, 409],
});

const NODE_CONTROLS: Readonly<Record<OperationKey, Operation>> = {
  [`POST ${NODE}/pause`]: nodeControl(
    'pauseNode',
    'Pause a node',
    'Holds the node before its next message and freezes its clock; the rest of the run goes on.',
  ),
  [`POST ${NODE}/resume`]: nodeControl(
    'resumeNode',
    'Resume a node',
    "Ends the node's own pause and lets a message held at its breakpoint go on.",
  ),
  [`POST ${NODE}/step`]: nodeControl(
    'stepNode',
    'Step a node',
    'Lets one message through a held node (paused, in a paused run, or at a breakpoint): the one waiting now, or else the next to arrive.',
  ),
  [`POST ${NODE}/stop`]: nodeControl(
    'stopNode',
    'Stop a node',
    'Ends the node `STOPPED` at once; under the default trigger rule its children end `UPSTREAM_FAILED`.',
  ),
  [`POST ${NODE}/skip`]: nodeControl(
    'skipNode',
    'Skip a node',
    'Passes each message on unchanged on port `out` without running the node, until it is unskipped. Processors only: 400 for a trigger or a terminal.',
  ),
  [`POST ${NODE}/unskip`]: nodeControl(
    'unskipNode',
    'Unskip a node',
    'Runs the node on each message again. Processors only: 400 for a trigger or a terminal.',
  ),
};

export const CONTROL_OPERATIONS: OperationTable = {
  [`POST ${RUN}/pause`]: runControl(
    'pauseExecution',
    'Pause a run',
    'Freezes every clock of the run, so a pause never causes a timeout, and holds every node before its next message; work already inside a node goes on. A start still waiting for a slot has its queue time frozen.',
    [404, 409],
  ),
  [`POST ${RUN}/resume`]: runControl(
    'resumeExecution',
    'Resume a run',
    'Ends a pause and lets every message held at a breakpoint go on.',
    [404, 409],
  ),
  [`POST ${RUN}/step`]: runControl(
    'stepExecution',
    'Step a paused run',
    'Moves one message on in a paused run, in the first node (in topological order) that holds one; 409 when the run is not paused or no message can move.',
    [404, 409],
  ),
  ...NODE_CONTROLS,
  [`POST ${NODE}/signal`]: {
    operationId: 'signalNode',
    summary: 'Approve or reject a waiting message',
    description: `Answers the wait of a \`WAIT_FOR_SIGNAL\` node: for \`messageId\` when given, else for the message it has waited on longest. The message goes on on port \`approved\` or \`rejected\`, with \`payload\` in place of its own when given. 409 when the node is not waiting for a signal (for that message). ${AUDITED}`,
    tag: 'Approvals',
    answers: { 200: envelope('The wait answered', SignalAnswerSchema) },
    errors: [404, 409],
  },
  [`GET ${RUN}/approvals`]: {
    operationId: 'listExecutionApprovals',
    summary: 'List the pending approvals of a run',
    description: 'Pending approvals live in memory: they disappear after a restart or a takeover.',
    tag: 'Approvals',
    answers: { 200: envelope('The approvals, oldest first', z.array(ApprovalSchema)) },
    errors: [404],
  },
  'GET /api/sessions/:sessionId/approvals': {
    operationId: 'listSessionApprovals',
    summary: 'List the pending approvals of a session',
    description: 'Of every run of the session; an unknown session has none.',
    tag: 'Approvals',
    answers: { 200: envelope('The approvals', z.array(ApprovalSchema)) },
  },
  [`GET ${RUN}/breakpoints`]: {
    operationId: 'getBreakpoints',
    summary: 'Read the breakpoints of a run',
    description: 'A run that has ended or still waits for a slot has none.',
    tag: 'Controls',
    answers: { 200: envelope('The nodes with a breakpoint', BreakpointsSchema) },
    errors: [404],
  },
  [`PUT ${RUN}/breakpoints`]: {
    operationId: 'setBreakpoints',
    summary: 'Replace the breakpoints of a run',
    description: `Each node named holds every message before taking it, until the run or the node is resumed or stepped; the others hold none. 404 for an unknown node, 409 when the run is not going. ${AUDITED}`,
    tag: 'Controls',
    answers: { 200: envelope('The nodes with a breakpoint now', BreakpointsSchema) },
    errors: [404, 409],
  },
  'GET /api/control/audit': {
    operationId: 'listControlAudit',
    summary: 'List recent control commands',
    description:
      'Every control command, applied or refused, with its sender; newest first. Reads and starts are not audited.',
    tag: 'Controls',
    answers: { 200: envelope('The audit entries, newest first', z.array(AuditEntrySchema)) },
  },
  'GET /api/control/supervisors': {
    operationId: 'listSupervisors',
    summary: 'List supervisors',
    description: 'Supervisors receive events and may review control commands.',
    tag: 'Scheduler',
    answers: { 200: envelope('The supervisors and their counters', z.array(SupervisorSchema)) },
  },
  'GET /api/control/status': {
    operationId: 'getControlBusStatus',
    summary: 'Read the control bus status',
    tag: 'Scheduler',
    answers: {
      200: envelope(
        'Runs going and queued, limits, supervisors, leadership',
        ControlBusStatusSchema,
      ),
    },
  },
};
