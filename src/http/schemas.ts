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
