// CLASSIFY (optional plugin decision): one port per class, `default` when none matches.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { configuredPorts, namedExpressions } from '../schemas.js';

export const classifyPlugin = definePlugin({
  type: 'CLASSIFY',
  kind: 'processor',
  description:
    'Labels each message with the first class whose expression is true and sends it to that port, or to default.',
  configSchema: z.looseObject({
    classes: namedExpressions('class').describe(
      'Classes tried in order; each class name is an output port',
    ),
  }),
  outputPorts: (config) => ['out', ...configuredPorts(config.classes), 'default'],
});
