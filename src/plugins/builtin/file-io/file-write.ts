// FILE_WRITE (optional plugin file-io): writes each payload to a file inside the configured directory.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { fileEncoding } from './file-encoding.js';

export const fileWritePlugin = definePlugin({
  type: 'FILE_WRITE',
  kind: 'processor',
  description: 'Writes each payload to a file, replacing it or appending to it.',
  configSchema: z.looseObject({
    path: z.string().min(1).describe('File path, relative to the configured directory'),
    encoding: fileEncoding(),
    append: z.boolean().optional().describe('Append instead of replacing the file'),
  }),
  outputPorts: () => ['out'],
});
