import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../core/index.js';
import { HTTP_STATUS_BY_CODE } from './error-mapping.js';
import { renderErrorsDoc } from './errors-doc.js';

describe('error catalogue, HTTP mapping and docs/errors.md', () => {
  it('maps every catalogue code to an HTTP status and nothing else', () => {
    expect(Object.keys(HTTP_STATUS_BY_CODE).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('keeps docs/errors.md in step with the catalogue (run `npm run docs` after a change)', () => {
    const committed = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderErrorsDoc());
  });
});
