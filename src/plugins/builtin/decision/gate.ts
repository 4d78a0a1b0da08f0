// GATE (optional plugin decision): pass or block each message (CONTRACT section 2 ports).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { jsonataExpression } from '../schemas.js';

export const gatePlugin = definePlugin({
  type: 'GATE',
  kind: 'processor',
  description: 'Sends each message to pass when the expression is true, to block otherwise.',
  configSchema: z.looseObject({
    expression: jsonataExpression().describe('JSONata predicate over the payload'),
  }),
  outputPorts: () => ['out', 'pass', 'block'],
});
