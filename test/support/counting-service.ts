// A local HTTP service that counts the calls of each path: how the repair tests see which side
// effects a run, a restart or a replay check made.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startTestServer } from './server.js';
import type { TestServer } from './server.js';

/** Counts the calls of each path; refuses (500) a charge of a negative amount, echoes the rest. */
export class CountingService {
  readonly hits = new Map<string, number>();
  readonly #server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { amount?: number };
      const refused = path === '/charge' && (body.amount ?? 0) < 0;
      response.writeHead(refused ? 500 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${String((this.#server.address() as AddressInfo).port)}`;
  }

  count(path: string): number {
    return this.hits.get(path) ?? 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
  }
}

/** What a suite of `countedServers` reaches in its tests. */
export interface CountedServers {
  readonly service: CountingService;
  /** The counting service's address, for the workflows' URLs. */
  readonly base: string;
  readonly server: TestServer;
}

/**
 * One counting service for the suite, and for each test a fresh server with session `s`
 * holding `workflows`; registers the hooks that make and close them.
 */
export function countedServers(workflows: (base: string) => unknown[]): CountedServers {
  let service: CountingService | undefined;
  let base = '';
  let server: TestServer | undefined;
  beforeAll(async () => {
    service = new CountingService();
    base = await service.listen();
  });
  afterAll(async () => {
    await service?.close();
  });
  beforeEach(async () => {
    service?.hits.clear();
    server = await startTestServer();
    const created = await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: workflows(base) },
    });
    expect(created.status).toBe(201);
  });
  afterEach(async () => {
    await server?.close();
  });
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('used outside a test of the suite');
    return value;
  };
  return {
    get service() {
      return made(service);
    },
    get base() {
      return base;
    },
    get server() {
      return made(server);
    },
  };
}
