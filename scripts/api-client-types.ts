// The typed client's types, generated from the API description by openapi-typescript. The
// contract test regenerates them and fails while the committed file differs.
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import type { OpenAPIV3 } from 'openapi-types';

export const CLIENT_TYPES_FILE = new URL('../src/client/api-types.ts', import.meta.url);

const HEADER = `// Generated from the API description (GET /v3/api-docs) by \`npm run docs\`: do not edit.
// The contract test fails while this file differs from what the server describes.
`;

export async function clientTypes(document: OpenAPIV3.Document): Promise<string> {
  const ast = await openapiTS(document as unknown as OpenAPI3, {
    exportType: false,
    // A field with a default may be left out of a request body.
    defaultNonNullable: false,
  });
  return `${HEADER}\n${astToString(ast)}`;
}
