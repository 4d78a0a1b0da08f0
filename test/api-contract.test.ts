// The API description (issue: a typed, complete API contract): every route is described with
// its operation id, summary, tag, security and answers; Redocly's recommended rules and
// Spectral's OpenAPI rules find nothing; the generated client is in step. That every answer
// matches its schema is proven by every test: the test server holds each answer to it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/http/api-contract/index.js';
import { isUiPath } from '../src/http/index.js';
import { CLIENT_TYPES_FILE, clientTypes } from '../scripts/api-client-types.js';
import { runToExit } from './support/process.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const bin = (name: string): string => join(root, 'node_modules/.bin', name);

/** Routes that are pages or the description itself, not operations. */
const UNDESCRIBED = (url: string): boolean =>
  isUiPath(url) || url === '/v3/api-docs' || url.startsWith('/swagger-ui');

describe('The API description (OpenAPI at /v3/api-docs)', () => {
  let server: TestServer;
  let document: OpenAPIV3.Document;
  let folder: string;
  let documentFile: string;

  beforeAll(async () => {
    server = await startTestServer();
    const answer = await server.call('GET', '/v3/api-docs');
    expect(answer.status).toBe(200);
    document = answer.json as OpenAPIV3.Document;
    folder = mkdtempSync(join(tmpdir(), 'api-contract-'));
    documentFile = join(folder, 'api-docs.json');
    writeFileSync(documentFile, answer.text);
  });
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const operations = (): [string, string, OpenAPIV3.OperationObject][] =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const operation = item?.[method];
        return operation === undefined ? [] : [[method, path, operation]];
      }),
    ) as [string, string, OpenAPIV3.OperationObject][];

  it('describes every route and only routes that exist', () => {
    const described = new Set(
      operations().map(([method, path]) => `${method.toUpperCase()} ${path}`),
    );
    const routes = server.app.routes
      .filter((route) => route.method !== 'HEAD' && !UNDESCRIBED(route.url))
      .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    expect([...described].sort()).toEqual([...new Set(routes)].sort());
    expect(Object.keys(OPERATIONS).length).toBe(described.size);
  });

  it('gives each operation a unique camelCase id, a summary, a description, one tag and its security', () => {
    const ids = operations().map(([, , operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set((document.tags ?? []).map((tag) => tag.name));
    for (const [method, path, operation] of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(operation.summary, where).toEqual(expect.any(String));
      expect(operation.description, where).toMatch(/Required role: /);
      expect(operation.tags, where).toHaveLength(1);
      expect(tags.has(operation.tags?.[0] ?? ''), where).toBe(true);
      expect(operation.security, where).toBeDefined();
    }
  });

  it('names the bearer and X-API-Key schemes, and leaves the open paths open', () => {
    expect(document.components?.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    const health = document.paths['/actuator/health']?.get;
    expect(health?.security).toEqual([]);
    const session = document.paths['/api/sessions/{sessionId}']?.get;
    expect(session?.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
  });

  it('answers each status with a schema: the envelope with typed data, or the error envelope', () => {
    const read = document.paths['/api/sessions/{sessionId}']?.get?.responses ?? {};
    expect(Object.keys(read)).toEqual(['200', '400', '401', '403', '404', '429', '500', '503']);
    const ok = read['200'] as OpenAPIV3.ResponseObject;
    const schema = ok.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
    expect(schema.properties?.data).toEqual({ $ref: '#/components/schemas/Session' });
    const missing = read['404'] as OpenAPIV3.ResponseObject;
    expect(missing.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    const busy = read['503'] as OpenAPIV3.ResponseObject;
    expect(Object.keys(busy.headers ?? {})).toEqual(['Retry-After']);
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const run = await runToExit(
      bin('redocly'),
      ['lint', documentFile, '--format=json', '--config', join(root, 'redocly.yaml')],
      {
        timeoutMs: 60_000,
        env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.code).toBe(0);
  });

  it("passes Spectral's OpenAPI rules with no error and no warning", async () => {
    const run = await runToExit(
      bin('spectral'),
      ['lint', documentFile, '--ruleset', join(root, '.spectral.yaml'), '--format', 'json'],
      { timeoutMs: 60_000 },
    );
    // With nothing to report, Spectral writes a sentence after the empty list.
    const listed = run.stdout.slice(run.stdout.indexOf('['), run.stdout.lastIndexOf(']') + 1);
    const problems = JSON.parse(listed) as {
      code: string;
      message: string;
      path: string[];
    }[];
    expect(
      problems.map((problem) => `${problem.code} at ${problem.path.join('.')}: ${problem.message}`),
    ).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('keeps the generated client in step with the description (npm run docs regenerates it)', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    expect(committed).toBe(await clientTypes(document));
  });
});

/** Fields of the API's records; a type with three of them is a record written by hand. */
const RECORD_FIELD =
  /\b(executionId|sessionId|workflowId|nodeId|messageId|status|createdAt|timestamp|seq|payload|version)\??:/g;

describe('The web UI reads the records of the generated client', () => {
  const sources = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return sources(path);
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });

  it('declares no record of the API of its own: no interface or object type with its fields', () => {
    const handWritten = sources(join(root, 'web/src')).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const declarations = [...text.matchAll(/(?:interface \w+[^{]*|type \w+ = )\{([^}]*)\}/g)];
      return declarations
        .filter((match) => (match[1]?.match(RECORD_FIELD) ?? []).length >= 3)
        .map((match) => `${file}: ${match[0].slice(0, 60)}`);
    });
    expect(handWritten).toEqual([]);
    const types = readFileSync(join(root, 'web/src/types.ts'), 'utf8');
    expect(types).toMatch(/export type ExecutionRecord = ApiSchemas\['Execution'\];/);
  });
});
