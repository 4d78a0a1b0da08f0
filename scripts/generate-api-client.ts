// Writes src/client/api-types.ts from the API description. Run with `npm run docs` after
// changing a route or its contract (src/http/api-contract).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { apiDocument } from './api-document.js';
import { CLIENT_TYPES_FILE, clientTypes } from './api-client-types.js';

writeFileSync(CLIENT_TYPES_FILE, await clientTypes(await apiDocument()));
process.stdout.write(`Wrote ${fileURLToPath(CLIENT_TYPES_FILE)}\n`);
