// Dead letters (docs/dead-letters.md): messages nodes with `onError: DEAD_LETTER` gave up on,
// listed, read, redriven through their node and deleted.
import { z } from 'zod';
import { instant, named } from './envelopes.js';
import { ExecutionStatusSchema } from './executions.contract.js';
import { envelope } from './operation.js';
import type { OperationTable } from './operation.js';

const FailedAttemptSchema = named(
  'FailedAttempt',
  z.strictObject({
    attempt: z.int().meta({ description: 'The attempt, 1 for the first' }),
    error: z.string().meta({ description: 'Why it failed' }),
  }),
);

const DeadLetterSchema = named(
  'DeadLetter',
  z.strictObject({
    id: z.string(),
    executionId: z.string().meta({ description: 'The run the message failed in' }),
    sessionId: z.string(),
    workflowId: z.string(),
    nodeId: z.string().meta({ description: 'The node that gave the message up' }),
    nodeType: z.string(),
    messageId: z.string().meta({ description: 'The id of the message the node received' }),
    payload: z.unknown().meta({ description: 'The payload the node received' }),
    headers: z.record(z.string(), z.unknown()),
    error: z.string().meta({ description: 'The error of the last attempt' }),
    attempts: z.array(FailedAttemptSchema).meta({ description: 'Every attempt made, in order' }),
    createdAt: instant,
    redrivenAs: z
      .string()
      .nullable()
      .meta({ description: 'The execution the last redrive started; null until redriven' }),
    redrivenAt: instant.nullable(),
  }),
);

const DeadLetterPageSchema = named(
  'DeadLetterPage',
  z.strictObject({
    items: z.array(DeadLetterSchema),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'The `cursor` of the next page; null on the last page' }),
  }),
);

const RedriveAnswerSchema = named(
  'RedriveAnswer',
  z.strictObject({
    executionId: z.string().meta({ description: 'The new execution' }),
    status: ExecutionStatusSchema,
    letter: DeadLetterSchema,
  }),
);

/** The optional body of a redrive: a payload in place of the letter's own. */
export const RedriveBodySchema = named(
  'RedriveBody',
  z
    .strictObject({
      payload: z
        .unknown()
        .optional()
        .meta({ description: "The payload to run the node on; the letter's own when left out" }),
    })
    .optional(),
);

const LETTER = '/api/dead-letters/:id';

export const DEAD_LETTER_OPERATIONS: OperationTable = {
  'GET /api/dead-letters': {
    operationId: 'listDeadLetters',
    summary: 'List dead letters',
    description:
      'Messages nodes with `onError: DEAD_LETTER` gave up on, newest first, filtered by session, workflow, node and execution, one page at a time: pass the `nextCursor` of a page as `cursor` to read the next one. A key limited to sessions sees the letters of its sessions only.',
    tag: 'Repair',
    answers: { 200: envelope('One page of dead letters', DeadLetterPageSchema) },
  },
  [`GET ${LETTER}`]: {
    operationId: 'getDeadLetter',
    summary: 'Read a dead letter',
    tag: 'Repair',
    answers: { 200: envelope('The dead letter', DeadLetterSchema) },
    errors: [404],
  },
  [`POST ${LETTER}/redrive`]: {
    operationId: 'redriveDeadLetter',
    summary: 'Redrive a dead letter',
    description:
      "Runs the letter's node and what follows it again on the letter's message alone (or on `payload` when given), as a restart from the node with that input: a new execution. The letter is marked with it. 409 while the letter's run is still going; the restart's own errors where the checkpoints it needs were not kept.",
    tag: 'Repair',
    answers: { 202: envelope('The new execution and the letter marked', RedriveAnswerSchema) },
    errors: [400, 404, 409, 429],
  },
  [`DELETE ${LETTER}`]: {
    operationId: 'deleteDeadLetter',
    summary: 'Delete a dead letter',
    tag: 'Repair',
    answers: {
      200: envelope('The dead letter deleted', z.strictObject({ id: z.string() })),
    },
    errors: [404],
  },
};
