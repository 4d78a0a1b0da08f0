// ASK (optional plugin decision): puts a question about each message to a person and emits
// the answer. The question is a pending approval (SPEC Events 9): it is listed with the
// run's and the session's approvals and answered through the signal call, whose `payload`
// (or else `comment`) is the answer. Rejecting it answers too, with `approved: false`.
import {
  compileTemplate,
  definePlugin,
  handlebarsTemplate,
  requireOneOf,
  SIGNAL_WAITS_PER_NODE,
  z,
} from '../../../plugin-api/index.js';

/** SPEC "Node-level engine settings": a signal wait defaults to 3600 s. */
const DEFAULT_WAIT_SECONDS = 3600;

/** The emitted payload. */
export interface AskAnswer {
  readonly question: string;
  /** The signal's payload, else its comment, else null. */
  readonly answer: unknown;
  readonly approved: boolean;
  readonly comment: string | null;
  /** The payload the question was about. */
  readonly payload: unknown;
}

export const askPlugin = definePlugin({
  type: 'ASK',
  kind: 'processor',
  description:
    'Asks a person a question about each message, as a pending approval, and emits { question, answer, approved, comment, payload }.',
  configSchema: z
    .looseObject({
      question: handlebarsTemplate()
        .optional()
        .describe('The question to ask; a Handlebars template of the payload'),
      prompt: handlebarsTemplate().optional().describe('Another name for question'),
      // The same key as the engine's idle timeout: for this type it is the wait for an answer.
      timeoutSeconds: z.number().positive().optional().describe('Seconds to wait for the answer'),
    })
    .superRefine((config, ctx) => {
      requireOneOf(config, ['question', 'prompt'], ctx, 'ASK needs question or prompt');
    }),
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: DEFAULT_WAIT_SECONDS,
  create: (config) => {
    const text = config.question ?? config.prompt ?? '';
    const template = compileTemplate(text, 'ASK question template');
    const timeoutMs = (config.timeoutSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
    return {
      // Every message asks its own question, answered in any order (SPEC Events 9).
      concurrency: SIGNAL_WAITS_PER_NODE,
      async process(message, ctx) {
        const question = template.render(message.payload, { messageId: message.id });
        const answer = await ctx.awaitSignal({
          messageId: message.id,
          payload: message.payload,
          prompt: question,
          timeoutMs,
        });
        const comment = answer.comment ?? null;
        const payload: AskAnswer = {
          question,
          answer: answer.payload ?? comment,
          approved: answer.approved,
          comment,
          payload: message.payload,
        };
        return { payload };
      },
    };
  },
});
