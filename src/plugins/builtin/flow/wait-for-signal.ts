// WAIT_FOR_SIGNAL: holds each message until an approval signal arrives (SPEC Events 9). Every
// message it holds waits on its own, so each is a pending approval listed and answered by its
// message id, in any order.
import {
  compileTemplate,
  definePlugin,
  handlebarsTemplate,
  SIGNAL_WAITS_PER_NODE,
  z,
} from '../../../plugin-api/index.js';

/** 2^31-1 seconds (68 years): anything longer is a typo, and stays a safe count of ms. */
const MAX_WAIT_SECONDS = 2 ** 31 - 1;

export const waitForSignalPlugin = definePlugin({
  type: 'WAIT_FOR_SIGNAL',
  kind: 'processor',
  description: 'Holds each message until an approval signal answers it: approved or rejected.',
  configSchema: z.looseObject({
    // The same key as the engine's idle timeout: for this type it is the signal wait.
    // Waits are armed in steps on the run's clock; the bound only refuses absurd values.
    timeoutSeconds: z
      .number()
      .positive()
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe('Seconds to wait for the signal'),
    prompt: handlebarsTemplate()
      .optional()
      .describe(
        'Question shown to whoever answers the approval; a Handlebars template of the payload, like ASK',
      ),
  }),
  outputPorts: () => ['out', 'approved', 'rejected'],
  defaultTimeoutSeconds: 3600,
  create: (config) => {
    const timeoutMs = (config.timeoutSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
    const prompt =
      config.prompt === undefined
        ? undefined
        : compileTemplate(config.prompt, 'WAIT_FOR_SIGNAL prompt template');
    return {
      concurrency: SIGNAL_WAITS_PER_NODE,
      async process(message, ctx) {
        const answer = await ctx.awaitSignal({
          messageId: message.id,
          payload: message.payload,
          prompt: prompt?.render(message.payload, { messageId: message.id }) ?? null,
          timeoutMs,
        });
        return {
          port: answer.approved ? 'approved' : 'rejected',
          // A signal may replace the payload; otherwise the message goes on as it came.
          payload: answer.payload === undefined ? message.payload : answer.payload,
          headers: { approved: answer.approved, comment: answer.comment ?? null },
        };
      },
    };
  },
});

/** SPEC "Node-level engine settings": the signal wait defaults to 3600 s. */
const DEFAULT_WAIT_SECONDS = 3600;
