// FILE_READ (optional plugin file-io): reads a file inside the configured directory.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { fileEncoding } from './file-encoding.js';

export const fileReadPlugin = definePlugin({
  type: 'FILE_READ',
  kind: 'processor',
  description: 'Reads a file per message and emits its content.',
  configSchema: z.looseObject({
    path: z.string().min(1).describe('File path, relative to the configured directory'),
    encoding: fileEncoding(),
  }),
  outputPorts: () => ['out'],
});
