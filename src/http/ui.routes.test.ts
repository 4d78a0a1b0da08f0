import { describe, expect, it } from 'vitest';
import { isUiPath, preferredEncoding } from './ui.routes.js';

describe('UI paths (SPEC Deployment facts)', () => {
  it('are every path outside the API, management, tool-endpoint and documentation paths', () => {
    for (const path of ['/', '/executions/abc', '/assets/index.js', '/apis', '/mcpx', '/v3']) {
      expect(isUiPath(path), path).toBe(true);
    }
    for (const path of [
      '/api',
      '/api/sessions',
      '/actuator',
      '/actuator/health',
      '/mcp',
      '/mcp/x',
      '/v3/api-docs',
      '/v3/api-docs/x',
      '/swagger-ui.html',
      '/swagger-ui/index.html',
    ]) {
      expect(isUiPath(path), path).toBe(false);
    }
  });
});

describe('The encoding of a compressed UI answer', () => {
  it('is brotli, else gzip, among those the client accepts with a weight above zero', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, deflate')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('*;q=0, identity')).toBeUndefined();
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding('')).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
  });
});
