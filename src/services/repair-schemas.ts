// What a restart may change (docs/run-repair.md): edits of what the restart node received and
// a saved version to run, as the REST API and the tool endpoint alike take them.
import { z } from 'zod';
import { workflowDefinitionBodySchema } from './api-schemas.js';

/** The most edits one restart takes, so one request stays small to check. */
export const MAX_INPUT_EDITS = 1000;

export const replayVersionSchema = z
  .number({ error: 'Field version must be an integer' })
  .int('Field version must be an integer')
  .min(1, 'Field version must be at least 1')
  .meta({
    description:
      'A saved version of the workflow to run instead of the one the run used; the graph above the restart must be unchanged (409 naming the node that differs)',
  });

export const inputEditSchema = z
  .strictObject({
    messageId: z
      .string({ error: 'Field messageId must be a string' })
      .min(1, 'Field messageId must not be empty')
      .optional()
      .meta({
        description:
          'A message the node received (`listNodeMessages` with `direction=in`); absent: the payload is an added message',
      }),
    payload: z.unknown().meta({ description: 'The new payload' }),
  })
  // A missing payload would silently edit to `undefined`.
  .refine((edit) => 'payload' in edit, {
    message: 'Field payload is mandatory',
    path: ['payload'],
  });

export const inputEditsSchema = z
  .array(inputEditSchema, { error: 'Field inputs must be an array' })
  .max(MAX_INPUT_EDITS, `Field inputs must hold at most ${String(MAX_INPUT_EDITS)} edits`)
  .meta({
    description:
      'Edits of what the node received: a `messageId` with its new payload, or a payload alone to add a message; the node and every node after it run on them (400 naming an unknown message id)',
  });

/**
 * What a replay check runs (docs/run-repair.md "Replay check"): a saved version, or an unsaved
 * draft definition; exactly one of them.
 */
export const replayCheckSchema = z
  .strictObject({
    version: z
      .number({ error: 'Field version must be an integer' })
      .int('Field version must be an integer')
      .min(1, 'Field version must be at least 1')
      .optional()
      .meta({
        description:
          'A saved version of the workflow to check against the run (404 when not saved)',
      }),
    definition: workflowDefinitionBodySchema.optional().meta({
      description:
        'An unsaved draft of the workflow to check instead of a saved version (400 when it does not validate); its workflowId may be left out',
    }),
  })
  .refine((body) => (body.version === undefined) !== (body.definition === undefined), {
    message: 'Give exactly one of the fields version and definition',
  });

export type ReplayCheckBody = z.output<typeof replayCheckSchema>;
