// SPEC "Runtime profiles": what differs between dev and prod, and what both share.
import { describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';

describe('Profiles dev and prod (SPEC Runtime profiles)', () => {
  it('compresses answers over 1 KB in prod', async () => {
    const server = await startTestServer({ argv: ['prod'] });
    try {
      const big = await server.call('GET', '/api/plugins', {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(big.status).toBe(200);
      expect(big.headers.get('content-encoding')).toBe('gzip');
      const small = await server.call('GET', '/api/sessions', {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(small.headers.get('content-encoding')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('does not compress in dev', async () => {
    const server = await startTestServer();
    try {
      const big = await server.call('GET', '/api/plugins', {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(big.headers.get('content-encoding')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it.each([['dev'], ['prod']])('rejects unknown JSON fields in %s', async (profile) => {
    const server = await startTestServer({ argv: [profile] });
    try {
      const answer = await server.call('POST', '/api/sessions', {
        body: { name: 'a', initiator: 'b', extra: 1 },
      });
      expect(answer.status).toBe(400);
      expect(answer.json.errors).toEqual([{ field: 'extra', message: "Unknown field: 'extra'" }]);
    } finally {
      await server.close();
    }
  });
});
