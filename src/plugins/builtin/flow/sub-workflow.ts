// SUB_WORKFLOW: runs another workflow per message (CONTRACT section 2; nesting depth 5).
import { definePlugin, z } from '../../../plugin-api/index.js';

export const subWorkflowPlugin = definePlugin({
  type: 'SUB_WORKFLOW',
  kind: 'processor',
  description: 'Starts another workflow with each message as its payload and emits its results.',
  configSchema: z.looseObject({
    workflowId: z.string().min(1).describe('Workflow to run'),
    sessionId: z
      .string()
      .min(1)
      .optional()
      .describe("Session of that workflow; default: the caller's"),
  }),
  outputPorts: () => ['out'],
});
