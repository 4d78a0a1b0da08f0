// The scheduler: its admission limits, read and changed live, and the starts waiting for a slot
// with what holds each back (SPEC "Limits", CONTRACT section 3; docs/scheduler-queue.md).
import { z } from 'zod';
import { ON_LIMIT_MODES } from '../../executions/index.js';
import { instant, named } from './envelopes.js';
import { envelope } from './operation.js';
import type { OperationTable } from './operation.js';

const offWhenNull = (description: string) =>
  z
    .int()
    .nullable()
    .meta({ description: `${description}; null: no limit` });

export const SchedulerLimitsSchema = named(
  'SchedulerLimits',
  z.strictObject({
    maxConcurrent: offWhenNull('Runs at once'),
    maxPerSession: offWhenNull('Runs at once in one session'),
    maxPerWorkflow: offWhenNull('Runs at once of one workflow'),
    onLimit: z
      .enum(ON_LIMIT_MODES)
      .meta({ description: 'What a start meets when no slot is free: refusal (429) or the queue' }),
    queueCapacity: z.int().meta({ description: 'Starts that may wait for a slot' }),
    queueTimeout: offWhenNull('Milliseconds a start may wait for a slot'),
  }),
);

const QueuedStartSchema = named(
  'QueuedStart',
  z.strictObject({
    position: z
      .int()
      .meta({ description: '1 for the start the next free slot it fits in goes to' }),
    executionId: z.string(),
    sessionId: z.string(),
    workflowId: z.string(),
    workflowVersion: z.int(),
    priority: z.int(),
    queuedAt: instant,
    paused: z.boolean().meta({
      description: 'Paused while it waits: its queue wait is frozen and it starts paused',
    }),
    waitingFor: z
      .array(
        z.strictObject({
          limit: z.enum(['maxConcurrent', 'maxPerSession', 'maxPerWorkflow']),
          running: z.int().meta({ description: 'Executions running against the limit' }),
          max: z.int(),
          message: z.string().meta({ description: 'The hold in words' }),
        }),
      )
      .meta({ description: 'The limits that hold it back now' }),
  }),
);

const SchedulerQueueSchema = named(
  'SchedulerQueue',
  z.strictObject({
    running: z.int(),
    queued: z.int(),
    limits: SchedulerLimitsSchema,
    items: z.array(QueuedStartSchema).meta({ description: 'In the order the queue takes them' }),
  }),
);

export const SCHEDULER_OPERATIONS: OperationTable = {
  'GET /api/scheduler/limits': {
    operationId: 'getSchedulerLimits',
    summary: 'Read the admission limits',
    tag: 'Scheduler',
    answers: { 200: envelope('The limits in force', SchedulerLimitsSchema) },
  },
  'POST /api/scheduler/limits': {
    operationId: 'setSchedulerLimits',
    summary: 'Change the admission limits',
    description:
      'Changes the limits given in the query and keeps the others, without a restart; `off` turns a limit off. Queued starts that now fit begin. The change is applied again after a server restart.',
    tag: 'Scheduler',
    answers: { 200: envelope('The limits now in force', SchedulerLimitsSchema) },
  },
  'GET /api/scheduler/queue': {
    operationId: 'getSchedulerQueue',
    summary: 'List the starts waiting for a slot',
    description:
      "The starts waiting for a slot in the order the queue takes them (higher priority, then the session with the fewest running executions, then arrival), each with the limits that hold it back. Change a waiting start's place with POST /api/executions/{id}/priority.",
    tag: 'Scheduler',
    answers: { 200: envelope('The waiting starts', SchedulerQueueSchema) },
  },
};
