// SUB_WORKFLOW: runs another workflow per message (CONTRACT section 2; nesting depth 5).
import { definePlugin, messageOf, StepFailure, z } from '../../../plugin-api/index.js';

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
  create: ({ workflowId, sessionId }) => ({
    async process(message, ctx) {
      let results: readonly unknown[];
      try {
        results = await ctx.runSubWorkflow({
          sessionId: sessionId ?? ctx.sessionId,
          workflowId,
          payload: message.payload,
        });
      } catch (error) {
        // Name the child and keep whether a retry can help; the engine's refusals (nesting
        // deeper than 5, unknown workflow) arrive as non-retryable failures.
        const reason = `Sub-workflow '${workflowId}' did not complete: ${messageOf(error)}`;
        const retryable = !(error instanceof StepFailure) || error.retryable;
        throw retryable
          ? StepFailure.retryable(reason, error)
          : StepFailure.nonRetryable(reason, error);
      }
      return results.map((payload) => ({ payload, headers: { subWorkflow: workflowId } }));
    },
  }),
  outputPorts: () => ['out'],
});
