// Registration on the workers port (docs/workers.md "Protocol" 1-2): what the control plane
// answers a caller that registers wrongly or not at all, and what a worker does when no welcome
// comes. The deadlines are 10 s on both sides; these cases shorten them through the options of
// ControlPlaneServer and WorkerClient, so the rule is proven without waiting that long.
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/index.js';
import { createConfigResolver, defaultSettings } from '../src/config/index.js';
import { createPluginRegistry } from '../src/plugins/index.js';
import {
  ControlPlaneServer,
  WorkerClient,
  WorkerHost,
  WorkerRegistry,
  workersProto,
} from '../src/workers/index.js';
import type { WorkersLogger } from '../src/workers/index.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { rawConnect, registration } from './support/worker-calls.js';
import { TOKEN, startControlPlane } from './support/workers.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface KeptLine {
  readonly level: string;
  readonly msg: string;
  readonly fields: object;
}

/** A logger that keeps what it is told. */
function keptLog(): { logger: WorkersLogger; lines: KeptLine[] } {
  const lines: KeptLine[] = [];
  const keep = (level: string) => (fields: object, msg: string) => {
    lines.push({ level, msg, fields });
  };
  return {
    lines,
    logger: {
      trace: keep('trace'),
      debug: keep('debug'),
      info: keep('info'),
      warn: keep('warn'),
      error: keep('error'),
    },
  };
}

describe('a registration the control plane cannot accept', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startControlPlane();
  });
  afterAll(() => server.close());

  it('ends the call with INVALID_ARGUMENT saying what is wrong, welcomes nobody and lists nobody', async () => {
    const cases = [
      [registration({ slots: 0 }), 'Register.slots must be at least 1'],
      [registration({ credits: 0 }), 'Register.credits must be at least 1'],
      [registration({ name: ' ' }), 'Register.name is empty'],
      [registration({ pool: '' }), 'Register.pool is empty'],
      [registration({ pluginTypes: [] }), 'Register.plugin_types is empty'],
      [{ credit: { count: 1 } }, 'A worker must start with Register'],
    ] as const;
    for (const [frame, details] of cases) {
      const { status, frames } = await rawConnect({
        target: `127.0.0.1:${server.workers?.port ?? 0}`,
        authorization: `Bearer ${TOKEN}`,
        frames: [frame],
      });
      expect({ code: status.code, details: status.details }, details).toEqual({
        code: grpc.status.INVALID_ARGUMENT,
        details,
      });
      expect(frames).toEqual([]);
    }
    const workers = await server.call('GET', '/api/workers');
    expect(workers.json.data.workers).toEqual([]);
  });
});

describe('registration deadlines', () => {
  it('drops a caller that opens Connect with the right token and never registers, with DEADLINE_EXCEEDED once the deadline passes', async () => {
    const { logger, lines } = keptLog();
    const registry = new WorkerRegistry({ clock: new ManualClock() });
    const control = new ControlPlaneServer({
      registry,
      token: TOKEN,
      address: '127.0.0.1',
      port: 0,
      heartbeatMs: 10_000,
      isLeader: () => true,
      logger,
      registerTimeoutMs: 200,
    });
    const { port } = await control.listen();
    closers.push(() => control.close());
    const { status, frames } = await rawConnect({
      target: `127.0.0.1:${port}`,
      authorization: `Bearer ${TOKEN}`,
      frames: [],
    });
    expect(status.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(status.details).toBe('No registration in time');
    expect(frames).toEqual([]);
    expect(lines).toContainEqual({
      level: 'warn',
      msg: 'A worker was refused: No registration in time',
      fields: expect.objectContaining({ reason: 'registration' }),
    });
    expect(registry.connected).toBe(0);
  });

  it('has a worker give up on a control plane that never welcomes it once its deadline passes, and call again', async () => {
    // A Workers service that takes the call and never answers.
    const held: grpc.ServerDuplexStream<unknown, unknown>[] = [];
    const silentServer = new grpc.Server();
    silentServer.addService(workersProto().Workers.service, {
      connect: (call: grpc.ServerDuplexStream<unknown, unknown>) => {
        held.push(call);
      },
    });
    const port = await new Promise<number>((resolve, reject) => {
      silentServer.bindAsync(
        '127.0.0.1:0',
        grpc.ServerCredentials.createInsecure(),
        (error, bound) => {
          if (error === null) resolve(bound);
          else reject(error);
        },
      );
    });
    closers.push(() => {
      silentServer.forceShutdown();
      return Promise.resolve();
    });
    const { logger, lines } = keptLog();
    const settings = defaultSettings('dev');
    const client = new WorkerClient({
      host: '127.0.0.1',
      port,
      token: TOKEN,
      name: 'unwelcome',
      pool: 'default',
      slots: 1,
      pluginTypes: ['MAPPER'],
      maxInFlight: 1,
      heartbeatMs: 10_000,
      runtimes: new WorkerHost({
        catalog: createPluginRegistry({ settings, optionalPlugins: [] }),
        pluginTypes: new Set(['MAPPER']),
        resolveConfig: createConfigResolver({ env: {}, settings }),
        logger,
      }),
      logger,
      retryMs: 20,
      maxRetryMs: 50,
      welcomeTimeoutMs: 200,
    });
    client.start();
    closers.push(() => client.close());
    await eventually(
      () => Promise.resolve(held.length),
      (calls) => calls >= 2,
    );
    expect(lines).toContainEqual({
      level: 'warn',
      msg: 'Disconnected from the control plane',
      fields: expect.objectContaining({ reason: 'No welcome from the control plane in time' }),
    });
    expect(client.workerId).toBeNull();
  });
});
