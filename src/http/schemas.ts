// Path and query schemas of the REST API; bodies are the services' own schemas.
import { z } from 'zod';

export {
  createSessionSchema,
  workflowDefinitionBodySchema,
  workflowDefinitionSchema,
} from '../services/index.js';

export const sessionParams = z.object({ sessionId: z.string() });
export const workflowParams = z.object({ sessionId: z.string(), workflowId: z.string() });
export const versionParams = workflowParams.extend({ version: z.string() });
export const pluginParams = z.object({ type: z.string() });

export const diffQuery = z.object({
  from: z.string({ error: "Parameter 'from' is mandatory" }),
  to: z.string({ error: "Parameter 'to' is mandatory" }),
});

/** A note for the version a save makes (the tool endpoint can add one later, too). */
export const saveQuery = z.object({
  note: z
    .string({ error: "Parameter 'note' must be a string" })
    .max(1024, "Parameter 'note' must be at most 1024 characters")
    .optional(),
});
