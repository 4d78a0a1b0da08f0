// Starting, reading and steering executions (SPEC "Execution calls"; CONTRACT 4). Every
// control command is reviewed by the supervisors and audited with its sender, as on REST.
import { z } from 'zod';
import { AppError } from '../../core/index.js';
import { EXECUTION_STATUSES } from '../../executions/index.js';
import type { RestartMode } from '../../executions/index.js';
import { audited, auditedAsync, controlBusStatus, progressSnapshot } from '../../services/index.js';
import { defineTool, id, items } from '../tool.js';
import type { ToolCaller, ToolDeps } from '../tool.js';

const STATUSES = EXECUTION_STATUSES;

/** Execution tools: `sessionId` is optional, but a session-limited key must give it. */
const execution = { executionId: id('executionId'), sessionId: id('sessionId').optional() };
const node = { ...execution, nodeId: id('nodeId') };

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
  .pipe(z.enum(RUN_ACTIONS, { error: `action must be one of ${RUN_ACTIONS.join(', ')}` }));

const integer = (label: string) =>
  z.number({ error: `${label} must be an integer` }).int(`${label} must be an integer`);

/** A restart, restart from a node, retry or recover: a new execution (SPEC "Restart rules"). */
function restart(
  deps: ToolDeps,
  caller: ToolCaller,
  command: string,
  executionId: string,
  mode: RestartMode,
) {
  return auditedAsync(
    deps.desk,
    caller.actor,
    { command, executionId, nodeId: mode.kind === 'whole' ? null : mode.nodeId },
    () => deps.executions.restart(executionId, mode),
  );
}

/** A node command; the node's status after it, as `POST .../nodes/{nid}/{action}` answers. */
function nodeCommand(
  deps: ToolDeps,
  caller: ToolCaller,
  executionId: string,
  nodeId: string,
  command: 'PAUSE' | 'RESUME' | 'STEP' | 'STOP' | 'SKIP' | 'UNSKIP',
) {
  const entry = audited(deps.desk, caller.actor, { command, executionId, nodeId }, () =>
    deps.executions.controlNode(executionId, nodeId, command),
  );
  const state = entry.nodes.find((candidate) => candidate.nodeId === nodeId);
  return { executionId: entry.executionId, nodeId, status: state?.status ?? null };
}

function needsNode(command: Action, nodeId: string | undefined): string {
  if (nodeId !== undefined) return nodeId;
  throw new AppError('VALIDATION_FAILED', {
    fieldErrors: [{ field: 'nodeId', message: `nodeId is mandatory for ${command}` }],
  });
}

async function controlRun(
  deps: ToolDeps,
  caller: ToolCaller,
  executionId: string,
  command: Action,
  nodeId: string | undefined,
): Promise<unknown> {
  const { desk, executions } = deps;
  switch (command) {
    case 'PAUSE':
    case 'RESUME':
    case 'STEP': {
      if (nodeId !== undefined) return nodeCommand(deps, caller, executionId, nodeId, command);
      const entry = audited(desk, caller.actor, { command, executionId }, () =>
        executions.control(executionId, command),
      );
      return { executionId: entry.executionId, status: entry.status };
    }
    case 'STOP': {
      if (nodeId !== undefined) return nodeCommand(deps, caller, executionId, nodeId, command);
      const entry = audited(desk, caller.actor, { command, executionId }, () =>
        executions.stop(executionId, 'Stopped by request'),
      );
      return { executionId: entry.executionId, status: entry.status };
    }
    case 'SKIP':
    case 'UNSKIP':
      return nodeCommand(deps, caller, executionId, needsNode(command, nodeId), command);
    case 'RESTART':
      return restart(deps, caller, command, executionId, { kind: 'whole' });
    case 'RESTART_FROM_NODE':
      return restart(deps, caller, command, executionId, {
        kind: 'from',
        nodeId: needsNode(command, nodeId),
      });
    case 'RETRY':
      return restart(deps, caller, command, executionId, {
        kind: 'retry',
        nodeId: needsNode(command, nodeId),
      });
    case 'RECOVER':
      return auditedAsync(desk, caller.actor, { command, executionId }, () =>
        executions.recover(executionId),
      );
  }
}

export const executionTools = [
  defineTool({
    name: 'start_workflow',
    role: 'OPERATOR',
    scope: 'session',
    description:
      'Starts a workflow of a session with an optional payload and priority; answers the executionId and its status (RUNNING or QUEUED). The same idempotencyKey within its window answers the first start and starts nothing.',
    input: {
      sessionId: id('sessionId'),
      workflowId: id('workflowId'),
      payload: z.unknown().optional(),
      priority: integer('priority').optional(),
      idempotencyKey: id('idempotencyKey').optional(),
    },
    run: ({ idempotencyKey, ...request }, { executions }) =>
      executions.start(request, { idempotencyKey }),
  }),
  defineTool({
    name: 'get_workflow_status',
    role: 'VIEWER',
    scope: 'execution',
    description:
      'Reads an execution: its status, its nodes with their statuses and counts, and its progress.',
    input: execution,
    run: ({ executionId }, { executions, registry }) =>
      progressSnapshot(registry, executions.require(executionId)),
  }),
  defineTool({
    name: 'get_workflow_history',
    role: 'VIEWER',
    scope: 'session',
    description: 'Lists the executions of a session, newest first, by workflow and status.',
    input: {
      sessionId: id('sessionId'),
      workflowId: id('workflowId').optional(),
      status: z
        .enum(STATUSES, { error: `status must be one of ${STATUSES.join(', ')}` })
        .optional(),
      limit: integer('limit')
        .min(1, 'limit must be at least 1')
        .max(1000, 'limit must be at most 1000')
        .default(100),
    },
    run: ({ limit, ...filters }, { registry }) =>
      items(
        registry
          .search(filters)
          .slice(0, limit)
          .map((entry) => registry.toRecord(entry)),
      ),
  }),
  defineTool({
    name: 'get_execution_logs',
    role: 'VIEWER',
    scope: 'execution',
    description:
      'Reads the node log lines of an execution, optionally of one node and after a sequence number.',
    input: {
      ...execution,
      nodeId: id('nodeId').optional(),
      after: integer('after').min(0, 'after must be at least 0').optional(),
    },
    run: ({ executionId, nodeId, after }, { executions, registry }) =>
      items(
        registry
          .logsOf(executions.require(executionId))
          .filter(
            (line) =>
              (nodeId === undefined || line.nodeId === nodeId) &&
              (after === undefined || line.seq > after),
          ),
      ),
  }),
  defineTool({
    name: 'get_execution_result',
    role: 'VIEWER',
    scope: 'execution',
    description:
      'Reads the result events of an execution (what its terminals received), oldest first.',
    input: execution,
    run: ({ executionId }, { executions, registry }) =>
      items(registry.resultsOf(executions.require(executionId))),
  }),
  defineTool({
    name: 'list_pending_approvals',
    role: 'VIEWER',
    scope: 'execution',
    description:
      'Lists the approvals WAIT_FOR_SIGNAL nodes wait for: of one execution, or of a whole session.',
    input: { executionId: id('executionId').optional(), sessionId: id('sessionId').optional() },
    run: ({ executionId, sessionId }, { executions }) => {
      if (executionId !== undefined) return items(executions.approvalsOf(executionId));
      if (sessionId !== undefined) return items(executions.approvalsOfSession(sessionId));
      throw new AppError('VALIDATION_FAILED', {
        fieldErrors: [{ field: 'executionId', message: 'executionId or sessionId is mandatory' }],
      });
    },
  }),
  defineTool({
    name: 'control_workflow',
    role: 'OPERATOR',
    scope: 'execution',
    description: `Steers an execution: action ${RUN_ACTIONS.join(', ')} (case-insensitive). RESTART_FROM_NODE and RETRY need nodeId; RESTART, RESTART_FROM_NODE, RETRY and RECOVER answer the new execution.`,
    input: { ...execution, action, nodeId: id('nodeId').optional() },
    run: ({ executionId, action: command, nodeId }, deps, caller) =>
      controlRun(deps, caller, executionId, command, nodeId),
  }),
  defineTool({
    name: 'control_node',
    role: 'OPERATOR',
    scope: 'execution',
    description:
      'Steers one node of an execution: action PAUSE, RESUME, STEP, STOP, SKIP, UNSKIP, or RESTART_FROM_NODE and RETRY (a new execution), case-insensitive.',
    input: { ...node, action },
    run: ({ executionId, nodeId, action: command }, deps, caller) => {
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
      return controlRun(deps, caller, executionId, command, nodeId);
    },
  }),
  defineTool({
    name: 'set_node_breakpoint',
    role: 'OPERATOR',
    scope: 'execution',
    description:
      'Sets (enabled, the default) or clears a breakpoint on a node: the node waits after each message until resumed or stepped. Answers the execution breakpoints.',
    input: { ...node, enabled: z.boolean({ error: 'enabled must be a boolean' }).default(true) },
    run: ({ executionId, nodeId, enabled }, { desk, executions }, caller) => {
      const current = executions.breakpoints(executionId).filter((known) => known !== nodeId);
      const nodeIds = audited(
        desk,
        caller.actor,
        { command: 'BREAKPOINTS', executionId, nodeId },
        () => executions.setBreakpoints(executionId, enabled ? [...current, nodeId] : current),
      );
      return { nodeIds };
    },
  }),
  defineTool({
    name: 'signal_node',
    role: 'OPERATOR',
    scope: 'execution',
    description:
      'Answers the approval a WAIT_FOR_SIGNAL node waits for: approved true or false, for messageId (default: the oldest wait of the node), with an optional comment and payload.',
    input: {
      ...node,
      approved: z.boolean({ error: 'approved must be a boolean' }),
      messageId: id('messageId').optional(),
      comment: z.string({ error: 'comment must be a string' }).optional(),
      payload: z.unknown().optional(),
    },
    run: (
      { executionId, nodeId, approved, messageId, comment, payload },
      { desk, executions },
      caller,
    ) => {
      const approval = audited(desk, caller.actor, { command: 'SIGNAL', executionId, nodeId }, () =>
        executions.signal(executionId, nodeId, { approved, messageId, comment, payload }),
      );
      return { executionId, nodeId, messageId: approval.messageId, approved };
    },
  }),
  defineTool({
    name: 'get_control_bus_status',
    role: 'VIEWER',
    scope: 'global',
    description:
      'Reads the control bus: executions running and queued, admission limits, supervisors, leader.',
    input: {},
    run: (_input, { desk, executions }) => controlBusStatus(executions, desk),
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
      maxConcurrent: integer('maxConcurrent').min(1).nullable().optional(),
      maxPerSession: integer('maxPerSession').min(1).nullable().optional(),
      maxPerWorkflow: integer('maxPerWorkflow').min(1).nullable().optional(),
      onLimit: z.enum(['REJECT', 'QUEUE'], { error: 'onLimit must be REJECT or QUEUE' }).optional(),
      queueCapacity: integer('queueCapacity').min(0).optional(),
      queueTimeout: integer('queueTimeout').min(1).nullable().optional(),
    },
    run: async (input, { desk, executions }, caller) => {
      const changes = Object.fromEntries(
        Object.entries(input).filter(([, value]) => value !== undefined),
      );
      const limits = audited(desk, caller.actor, { command: 'SCHEDULER_LIMITS' }, () =>
        executions.setLimits(changes),
      );
      await executions.durableNow();
      return limits;
    },
  }),
  defineTool({
    name: 'change_execution_priority',
    role: 'ADMIN',
    scope: 'execution',
    description: 'Changes the priority of an execution waiting for a slot.',
    input: { ...execution, priority: integer('priority') },
    run: ({ executionId, priority }, { desk, executions }, caller) => {
      const entry = audited(desk, caller.actor, { command: 'PRIORITY', executionId }, () =>
        executions.setPriority(executionId, priority),
      );
      return { executionId: entry.executionId, priority: entry.priority };
    },
  }),
];
