import { describe, expect, it } from 'vitest';
import { AWKWARD_IDS } from '../conformance/session-store.conformance.js';
import { MAX_ENCODED_NAME_BYTES, fileNameForId } from './file-name-for-id.js';

const IDS = [
  ...AWKWARD_IDS,
  'abc',
  'ABC',
  'Abc',
  '%41bc',
  '%2f',
  '@sha256-abc',
  'com1',
  'COM1',
  'lpt9.txt',
  '\uD800',
  '\uDC00',
  '\uFFFD',
  'x'.repeat(200),
  'x'.repeat(201),
];

describe('fileNameForId', () => {
  it('keeps lower-case letters, digits, "-" and "_" as they are', () => {
    expect(fileNameForId('my-workflow_2')).toBe('my-workflow_2');
  });

  it('percent-encodes everything else, dots and upper-case letters included', () => {
    expect(fileNameForId('a b')).toBe('a%20b');
    expect(fileNameForId('x.y')).toBe('x%2Ey');
    expect(fileNameForId('..')).toBe('%2E%2E');
    expect(fileNameForId('Ab*')).toBe('%41b%2A');
    expect(fileNameForId('\u00fc')).toBe('%C3%BC');
  });

  it('gives distinct names to distinct ids, even ignoring case', () => {
    const names = IDS.map((id) => fileNameForId(id).toLowerCase());
    expect(new Set(names).size).toBe(IDS.length);
  });

  it('gives names that are safe on every common file system', () => {
    for (const id of IDS) {
      const name = fileNameForId(id);
      expect(name).toMatch(/^[a-z0-9_%@-][A-Za-z0-9_%@-]*$/);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_ENCODED_NAME_BYTES);
      expect(name).not.toMatch(/^(?:con|prn|aux|nul|com\d|lpt\d)$/i);
    }
  });

  it('falls back to a sha256 name for empty, over-long and ill-formed ids', () => {
    expect(fileNameForId('x'.repeat(MAX_ENCODED_NAME_BYTES))).toBe('x'.repeat(200));
    for (const id of ['', 'x'.repeat(MAX_ENCODED_NAME_BYTES + 1), '\uD800']) {
      expect(fileNameForId(id)).toMatch(/^@sha256-[0-9a-f]{64}$/);
    }
  });
});
