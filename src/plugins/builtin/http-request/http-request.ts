// HTTP_REQUEST (optional plugin http-request): one HTTP call per message.
import { definePlugin, z } from '../../../plugin-api/index.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export const httpRequestPlugin = definePlugin({
  type: 'HTTP_REQUEST',
  kind: 'processor',
  description: 'Sends one HTTP request per message and emits the response.',
  configSchema: z.looseObject({
    method: z.enum(HTTP_METHODS).default('GET').describe('HTTP method'),
    url: z.string().min(1).describe('Request URL'),
    headers: z.record(z.string(), z.string()).optional().describe('Request headers'),
    body: z.unknown().optional().describe('Request body; objects are sent as JSON'),
  }),
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
});
