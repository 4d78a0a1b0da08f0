// The API description (SPEC "Versioning" 1, "Management and documentation endpoints"):
// OpenAPI 3 generated from the route schemas and the API contract (api-contract/) at
// /v3/api-docs, and Swagger UI at /swagger-ui.html. Each operation names the role it needs and
// its security requirement.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { routeRule } from '../auth/index.js';
import { API_TAGS, apiSchemas, operationOf } from './api-contract/index.js';
import { finishDocument } from './openapi-document.js';

export const API_VERSION = '0.0.1-SNAPSHOT';

type TransformInput = Parameters<ReturnType<typeof createJsonSchemaTransform>>[0];

const KEYED = [{ bearerAuth: [] }, { apiKey: [] }];

/** `/mcp` speaks JSON-RPC 2.0 (MCP Streamable HTTP), not the envelope; roles are per tool. */
const TOOL_ACCESS =
  'Any valid key gets in; each tool, resource and prompt checks its role (VIEWER, OPERATOR or ADMIN) and the sessions of the key.\n\nRequired role: per tool.';

const NO_KEY = { description: 'No key, or a key the server does not know', type: 'null' } as const;

const JSON_RPC_ERROR = {
  description: 'A JSON-RPC error',
  type: 'object',
  properties: {
    jsonrpc: { type: 'string' },
    id: { type: 'null' },
    error: { type: 'object' },
  },
} as const;

/** The session header a client got from `initialize`. */
const SESSION_HEADER = {
  type: 'object',
  properties: { 'mcp-session-id': { type: 'string', description: 'The MCP session' } },
  required: ['mcp-session-id'],
} as const;

const TOOL_ENDPOINT = {
  POST: {
    description: `MCP over Streamable HTTP: a JSON-RPC 2.0 request in, its JSON-RPC response out (as JSON, or as server-sent events within an MCP session). \`initialize\` opens a session (the \`Mcp-Session-Id\` header of the answer); \`tools/list\` describes every tool. ${TOOL_ACCESS}`,
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
      '401': NO_KEY,
      '404': JSON_RPC_ERROR,
    },
  },
  GET: {
    description: `The stream of notifications of an MCP session that belong to no request (resource updates). 405 without a session, 404 for a session that is not there or belongs to another key. ${TOOL_ACCESS}`,
    'x-required-role': 'per tool',
    headers: SESSION_HEADER,
    response: {
      '200': { description: 'Server-sent events', type: 'string' },
      '401': NO_KEY,
      '404': JSON_RPC_ERROR,
      '405': JSON_RPC_ERROR,
    },
  },
  DELETE: {
    description: `Ends an MCP session. 405 without a session, 404 for a session that is not there or belongs to another key. ${TOOL_ACCESS}`,
    'x-required-role': 'per tool',
    headers: SESSION_HEADER,
    response: {
      '200': { description: 'The session is ended', type: 'null' },
      '401': NO_KEY,
      '404': JSON_RPC_ERROR,
      '405': JSON_RPC_ERROR,
    },
  },
} as const;

const transformRoute = createJsonSchemaTransform({ schemaRegistry: apiSchemas });
const transformDocument = createJsonSchemaTransformObject({ schemaRegistry: apiSchemas });

/** Registers the collector; must run before the routes are added. */
export async function registerOpenApi(fastify: FastifyInstance): Promise<void> {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Workflow Execution Service REST API',
        version: API_VERSION,
        description:
          'Pre-beta: paths and schemas may change before version v0.1.0; setting names and access rules may change too. Every answer but the tool endpoint, the event streams and the Prometheus text comes in the response envelope.',
        contact: { name: 'Workflow Execution Service maintainers' },
        // The package is private (package.json): npm's word for that, and what it means.
        license: {
          name: 'UNLICENSED',
          url: 'https://docs.npmjs.com/cli/configuring-npm/package-json#license',
        },
      },
      // The server that serves this description.
      servers: [{ url: '/', description: 'This server' }],
      tags: API_TAGS.map((tag) => ({ ...tag })),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key as a bearer token',
          },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
    },
    transform: (document: TransformInput) => {
      const transformed = transformRoute(document);
      const method = Array.isArray(document.route.method) ? 'GET' : String(document.route.method);
      const rule = routeRule(method, document.url);
      const operation = operationOf(method, document.url);
      const role = rule === undefined ? 'ADMIN' : rule.scope === 'open' ? 'none (open)' : rule.role;
      const security = rule?.scope === 'open' ? [] : KEYED;
      if (
        rule?.scope === 'tool' &&
        (method === 'GET' || method === 'POST' || method === 'DELETE')
      ) {
        return {
          ...transformed,
          schema: { ...transformed.schema, ...TOOL_ENDPOINT[method], security },
        };
      }
      const lead = operation?.description === undefined ? '' : `${operation.description}\n\n`;
      return {
        ...transformed,
        schema: {
          ...transformed.schema,
          description: `${lead}Required role: ${role}.`,
          'x-required-role': role,
          security,
        },
      };
    },
    transformObject: (document) => finishDocument(transformDocument(document)),
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
