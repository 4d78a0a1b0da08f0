// The API description (SPEC "Versioning" 1, "Management and documentation endpoints"):
// OpenAPI 3 generated from the route schemas at /v3/api-docs, and Swagger UI at
// /swagger-ui.html. Each operation names the role it needs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { routeRule } from '../auth/index.js';

export const API_VERSION = '0.0.1-SNAPSHOT';

const FIELD_ERROR = {
  type: 'object',
  properties: { field: { type: 'string' }, message: { type: 'string' } },
  required: ['field', 'message'],
} as const;

/** SPEC "Response envelope", as documentation of every answer. */
const SUCCESS_ENVELOPE = {
  type: 'object',
  description: 'Success envelope; `data` depends on the call',
  properties: {
    timestamp: { type: 'string', format: 'date-time' },
    status: { type: 'integer', format: 'int32' },
    message: { type: 'string' },
    data: {},
  },
  required: ['timestamp', 'status', 'message'],
} as const;

const ERROR_ENVELOPE = {
  type: 'object',
  description: 'Error envelope; `errors` only when the problem is tied to fields',
  properties: {
    timestamp: { type: 'string', format: 'date-time' },
    status: { type: 'integer', format: 'int32' },
    error: { type: 'string' },
    message: { type: 'string' },
    path: { type: 'string' },
    errors: { type: 'array', items: FIELD_ERROR },
  },
  required: ['timestamp', 'status', 'error', 'message', 'path'],
} as const;

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** `/mcp` speaks JSON-RPC 2.0 (MCP Streamable HTTP), not the envelope; roles are per tool. */
const TOOL_ENDPOINT = {
  summary: 'MCP tool endpoint',
  description:
    'MCP over Streamable HTTP: a JSON-RPC 2.0 request in, its JSON-RPC response out. Any valid key gets in; each tool checks its role (VIEWER, OPERATOR or ADMIN) and the sessions of the key. `tools/list` describes every tool.',
  'x-required-role': 'per tool',
  body: {
    type: 'object',
    description: 'A JSON-RPC 2.0 request or notification',
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'] },
      id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      method: { type: 'string' },
      params: { type: 'object' },
    },
    required: ['jsonrpc', 'method'],
  },
  response: {
    '200': {
      description: 'The JSON-RPC response',
      type: 'object',
      properties: {
        jsonrpc: { type: 'string' },
        id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        result: { type: 'object' },
        error: { type: 'object' },
      },
    },
    '202': { description: 'A notification was accepted', type: 'null' },
  },
} as const;

/** Registers the collector; must run before the routes are added. */
export async function registerOpenApi(fastify: FastifyInstance): Promise<void> {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Workflow Execution Service REST API',
        version: API_VERSION,
        description:
          'Pre-beta: paths and schemas may change before version v0.1.0; setting names and access rules may change too.',
      },
    },
    transform: (document: TransformInput) => {
      const transformed = jsonSchemaTransform(document);
      const method = String(document.route.method);
      const rule = routeRule(Array.isArray(document.route.method) ? 'GET' : method, document.url);
      if (rule?.scope === 'tool') {
        return { ...transformed, schema: { ...transformed.schema, ...TOOL_ENDPOINT } };
      }
      const role = rule === undefined ? 'ADMIN' : rule.scope === 'open' ? 'none (open)' : rule.role;
      return {
        ...transformed,
        schema: {
          ...transformed.schema,
          description: `Required role: ${role}`,
          'x-required-role': role,
          response: {
            '2XX': SUCCESS_ENVELOPE,
            '4XX': ERROR_ENVELOPE,
            '5XX': ERROR_ENVELOPE,
          },
        },
      };
    },
  });
}

/** Serves the description and the page; registered after every other route. */
export const openApiRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(swaggerUi, { routePrefix: '/swagger-ui', staticCSP: true });
  fastify.get('/v3/api-docs', { schema: { hide: true } }, () => Promise.resolve(fastify.swagger()));
  fastify.get('/swagger-ui.html', { schema: { hide: true } }, (_request, reply) =>
    reply.redirect('/swagger-ui/'),
  );
};
