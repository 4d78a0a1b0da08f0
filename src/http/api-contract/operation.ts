// What the API description says about one operation beside its request schemas: its name, its
// answers and the errors of its own. Routes stay plain; this table is joined to them by method
// and path when they are registered.
import type { z } from 'zod';

export type ApiTag =
  | 'Sessions'
  | 'Workflows'
  | 'Versions'
  | 'Plugins'
  | 'Executions'
  | 'Controls'
  | 'Approvals'
  | 'Repair'
  | 'Scheduler'
  | 'Events'
  | 'Workers'
  | 'Management'
  | 'Tool endpoint';

export const API_TAGS: readonly { readonly name: ApiTag; readonly description: string }[] = [
  { name: 'Sessions', description: 'Sessions: the scope of workflows, runs and keys' },
  { name: 'Workflows', description: 'Workflow definitions of a session, and drafts checked' },
  { name: 'Versions', description: 'Saved versions of a workflow: list, read, diff, rollback' },
  { name: 'Plugins', description: 'Plugin types: kind, configuration schema and ports' },
  { name: 'Executions', description: 'Starting runs and reading their status, results and logs' },
  { name: 'Controls', description: 'Pause, resume, step, stop and skip runs and nodes' },
  { name: 'Approvals', description: 'Runs waiting for a signal or an approval' },
  { name: 'Repair', description: 'Restart, retry and recover runs from their checkpoints' },
  { name: 'Scheduler', description: 'Admission limits and the control bus' },
  { name: 'Events', description: 'Server-sent event streams' },
  { name: 'Workers', description: 'Remote workers connected to this control plane' },
  { name: 'Management', description: 'Health, build information, meters and loggers' },
  { name: 'Tool endpoint', description: 'The MCP endpoint for agents' },
];

/** A success answer: the envelope around `data`, a JSON body of its own, text, or no body. */
export type Answer =
  | { readonly kind: 'envelope'; readonly description: string; readonly data: z.ZodType }
  | { readonly kind: 'json'; readonly description: string; readonly body: z.ZodType }
  | {
      readonly kind: 'text';
      readonly description: string;
      readonly contentType: string;
      /** What each item is (the `data` of an event), where the text is a stream of them. */
      readonly items?: z.ZodType;
    }
  | { readonly kind: 'empty'; readonly description: string };

export type SuccessStatus = 200 | 201 | 202 | 204;

/** Error statuses an operation answers beyond those of its kind (see `errorStatusesOf`). */
export type OwnErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 502 | 504;

export interface Operation {
  /** Stable and unique; the generated client's method name. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: ApiTag;
  readonly answers: Readonly<Partial<Record<SuccessStatus, Answer>>>;
  readonly errors?: readonly OwnErrorStatus[];
}

export const envelope = (description: string, data: z.ZodType): Answer => ({
  kind: 'envelope',
  description,
  data,
});

export const jsonBody = (description: string, body: z.ZodType): Answer => ({
  kind: 'json',
  description,
  body,
});

export const text = (description: string, contentType: string, items?: z.ZodType): Answer => ({
  kind: 'text',
  description,
  contentType,
  ...(items === undefined ? {} : { items }),
});

/** No body at all (a 204). */
export const empty = (description: string): Answer => ({ kind: 'empty', description });

/** `METHOD /path/:param`, as Fastify names a route. */
export type OperationKey = `${'GET' | 'POST' | 'PUT' | 'DELETE'} /${string}`;

export type OperationTable = Readonly<Record<OperationKey, Operation>>;
