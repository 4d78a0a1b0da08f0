// RECIPIENT_LIST: sends each message to several named ports.
import {
  compileExpression,
  configuredPorts,
  definePlugin,
  jsonataExpression,
  portNameList,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type { Emit } from '../../../plugin-api/index.js';

export const recipientListPlugin = definePlugin({
  type: 'RECIPIENT_LIST',
  kind: 'processor',
  pure: true,
  description:
    'Sends each message to every recipient port, or to those the expression names for it.',
  configSchema: z.looseObject({
    recipients: portNameList(z.string().min(1), (name) => name, 'recipient', [
      'out',
      'error',
    ]).describe('Recipient names; each is an output port'),
    expression: jsonataExpression()
      .optional()
      .describe('JSONata yielding the recipient names for a message; default: all'),
  }),
  outputPorts: (config) => ['out', ...configuredPorts(config.recipients)],
  create: ({ recipients, expression }) => {
    if (expression === undefined) {
      return { process: (message) => sendTo(recipients, message.payload) };
    }
    const select = compileExpression(expression);
    return {
      async process(message, ctx) {
        const names = await select.evaluate(message.payload, message, ctx);
        return sendTo(recipientsNamed(names, recipients), message.payload);
      },
    };
  },
});

function sendTo(ports: readonly string[], payload: unknown): Emit[] {
  return ports.map((port) => ({ payload, port }));
}

/** The recipients an expression names, once each in the order named; undefined names none. */
function recipientsNamed(value: unknown, recipients: readonly string[]): string[] {
  if (value === undefined) return [];
  const named = new Set<string>();
  for (const name of Array.isArray(value) ? (value as unknown[]) : [value]) {
    if (typeof name !== 'string') {
      throw StepFailure.nonRetryable(
        `The recipient expression must yield names (strings), got ${JSON.stringify(name)}`,
      );
    }
    if (!recipients.includes(name)) {
      throw StepFailure.nonRetryable(
        `'${name}' is not a recipient of this node; its recipients are ${recipients.join(', ')}`,
      );
    }
    named.add(name);
  }
  return [...named];
}
