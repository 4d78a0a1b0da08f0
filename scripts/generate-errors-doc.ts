// Writes docs/errors.md from the error catalogue.
import { writeFileSync } from 'node:fs';
import { renderErrorsDoc } from '../src/http/errors-doc.js';

writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorsDoc());
