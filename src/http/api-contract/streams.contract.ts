// The server-sent event streams (SPEC "Events", CONTRACT section 3) and the workers connected
// to this control plane.
import { z } from 'zod';
import { instant, named } from './envelopes.js';
import {
  ExecutionSchema,
  ExecutionStatusSchema,
  LogLineSchema,
  NodeStatusSchema,
} from './executions.contract.js';
import { envelope, text } from './operation.js';
import type { OperationTable } from './operation.js';

const EVENT_STREAM = 'text/event-stream';

/** What every stream shares: the frame, keep-alives and resumption (SPEC Events 2, 3, 6). */
const FRAMES =
  'Each event is an SSE frame: `id:` a per-stream increasing integer, `event:` its kind, `data:` a JSON object `{ kind, timestamp, executionId, sessionId, workflowId, nodeId?, ... }`. A `:` comment line is sent every 15 s to keep the connection open. A client that reconnects with the `Last-Event-ID` header gets the events after that id; a restart or takeover of the server drops every open stream. Live events are best effort: read the final state from the status or result calls.';

const KINDS =
  '`execution.queued|started|paused|resumed|completed|failed|stopped|timed_out|aborted`, `node.started|waiting|paused|resumed|completed|failed|timed_out|skipped|upstream_failed`, `result`, `log`, `approval.requested|answered|timed_out`, `control.applied|refused`, `scheduler.limits`';

const WorkerSchema = named(
  'Worker',
  z.strictObject({
    workerId: z.string(),
    name: z.string(),
    pool: z.string(),
    pluginTypes: z.array(z.string()).meta({ description: 'The node types it runs, sorted' }),
    slots: z.int().meta({ description: 'Nodes it runs at once' }),
    freeSlots: z.int(),
    address: z.string().meta({ description: "The worker's address as this server sees it" }),
    secure: z.boolean().meta({ description: 'TLS with a verified client certificate' }),
    connectedAt: instant,
    lastSeenAt: instant,
  }),
);

const WorkerPoolSchema = named(
  'WorkerPool',
  z.strictObject({
    pool: z.string(),
    workers: z.int(),
    slots: z.int(),
    freeSlots: z.int(),
    pluginTypes: z
      .array(z.string())
      .meta({ description: 'Types at least one worker of the pool runs, sorted' }),
  }),
);

const WorkersSchema = named(
  'Workers',
  z.strictObject({
    accepting: z.boolean().meta({ description: 'Whether this server accepts worker connections' }),
    workers: z.array(WorkerSchema),
    pools: z.array(WorkerPoolSchema).meta({ description: 'By pool name' }),
  }),
);

/** The `data` of every event; the fields beyond these depend on its kind. */
const EventSchema = named(
  'Event',
  z
    .looseObject({
      kind: z.string().meta({ description: `The kind: ${KINDS}` }),
      timestamp: instant,
      executionId: z.string().nullable(),
      sessionId: z.string().nullable(),
      workflowId: z.string().nullable(),
      nodeId: z.string().optional().meta({ description: 'Where the event is about one node' }),
    })
    .meta({ description: 'An event; state events carry `status`, node events their counts' }),
);

const ProgressEventSchema = named(
  'ProgressEvent',
  EventSchema.extend({
    progress: z.strictObject({
      status: ExecutionStatusSchema,
      nodesTotal: z.int(),
      nodesFinished: z.int(),
      byStatus: z.record(z.string(), z.int()).meta({ description: 'Nodes by status' }),
      execution: ExecutionSchema,
    }),
  }),
);

const FlowEventSchema = named(
  'FlowEvent',
  EventSchema.extend({
    kind: z.literal('flow'),
    flow: z.strictObject({
      intervalMs: z.int().meta({ description: 'How often the flow is sent' }),
      heldBackBy: z.string().nullable().meta({
        description:
          'The first node, in topological order, that holds the others back (holdingBack); null when none does',
      }),
      nodes: z.array(
        z.strictObject({
          nodeId: z.string(),
          status: NodeStatusSchema,
          messagesIn: z.int(),
          messagesOut: z.int(),
          retries: z.int().meta({ description: 'Messages attempted again so far' }),
          waitingToSend: z.boolean().meta({ description: "It waits for room in a child's input" }),
          holdingBack: z.boolean().meta({
            description:
              "Its input is full (a parent waits on it, or will with its next message) while it is itself free to send: it waits for room in no child's input and feeds no full input",
          }),
        }),
      ),
      edges: z.array(
        z.strictObject({
          source: z.string(),
          target: z.string(),
          queued: z
            .int()
            .meta({ description: "Messages of this edge queued in the target's input" }),
          capacity: z.int().meta({
            description: "The target input's capacity, shared by all its edges",
          }),
          taken: z.int().meta({ description: 'Messages of this edge the target took so far' }),
          sourceWaiting: z.boolean().meta({
            description: "The source waits for room in the target's input",
          }),
          perSecond: z.number().nullable().meta({
            description:
              'Messages per second the target took from this edge; null on the first event',
          }),
        }),
      ),
    }),
  }).meta({
    description:
      'The live flow of a run (`flow=true`), sent without an `id:` line so that it leaves the stream position as it was',
  }),
);

export const STREAM_OPERATIONS: OperationTable = {
  'GET /api/events': {
    operationId: 'streamEvents',
    summary: 'Follow the event stream',
    description: `Every event of the server, live, narrowed by the filters given: \`sessionId\`, \`executionId\`, and \`kinds\`, a comma-separated list of kinds where \`family.*\` matches a family (\`node.*\`). Kinds: ${KINDS}. ${FRAMES}`,
    tag: 'Events',
    answers: {
      200: text(
        'A stream of server-sent events, open until the client leaves',
        EVENT_STREAM,
        EventSchema,
      ),
    },
  },
  'GET /api/sessions/:sessionId/executions/:id/logs/entries': {
    operationId: 'streamExecutionLogs',
    summary: "Follow a run's log entries",
    description: `The run's stored structured log entries first, then live ones, as events of kind \`log\` whose \`data\` is the entry (\`seq, timestamp, executionId, nodeId, level, message, fields\`) and whose \`id\` is its \`seq\`. The stream ends when the run reaches a terminal status. 404 for an unknown run or one of another session. ${FRAMES}`,
    tag: 'Events',
    answers: {
      200: text('A stream of log entries as server-sent events', EVENT_STREAM, LogLineSchema),
    },
    errors: [404],
  },
  'GET /api/workflow/:sessionId/status/:id/stream': {
    operationId: 'streamExecutionProgress',
    summary: "Follow a run's progress",
    description: `The run's state events (\`execution.*\` and \`node.*\`), each with \`progress\`: the run's status, nodes finished and by status, and its execution record. A late client catches up from the progress history (5 minutes, 200 events per run); when nothing is kept, the stream opens with the event of the run's current status. The stream ends when the run reaches a terminal status. With \`flow=true\`, while the run goes, an event of kind \`flow\` about once a second and on connecting: every node's status and counts, per edge the messages queued in the child's input, its capacity, whether the parent waits for room and messages per second, and the node that holds the others back; it has no \`id:\` line, so resuming with \`Last-Event-ID\` is unchanged. 404 for an unknown run or one of another session. ${FRAMES}`,
    tag: 'Events',
    answers: {
      200: text(
        'A stream of progress events (and, with `flow=true`, flow events) as server-sent events',
        EVENT_STREAM,
        z.union([ProgressEventSchema, FlowEventSchema]),
      ),
    },
    errors: [404],
  },
  'GET /api/workers': {
    operationId: 'listWorkers',
    summary: 'List connected workers',
    description: 'Remote workers, their pools and free slots.',
    tag: 'Workers',
    answers: { 200: envelope('The workers and their pools', WorkersSchema) },
  },
};
