// Writes docs/configuration.md from the settings schema. Run with `npm run docs` after
// changing a setting; a unit test fails while the committed file is out of date.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigurationDoc } from '../src/config/index.js';

const target = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
writeFileSync(target, renderConfigurationDoc());
process.stdout.write(`Wrote ${target}\n`);
