// The worker service as gRPC tools see it: the standard health service, server reflection
// when enabled, the token in call metadata, and credits holding a slow worker's sender back
// (docs/workers.md, "Protocol", "Health and reflection").
import { createRequire } from 'node:module';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/index.js';
import { ControlPlaneServer, WORKERS_SERVICE, WorkerRegistry } from '../src/workers/index.js';
import type { TestServer } from './support/server.js';
import { rawConnect, registration } from './support/worker-calls.js';
import { endOf, eventually } from './support/wait.js';
import { TOKEN, placedFlow, startControlPlane, startRun } from './support/workers.js';
import {
  lastCounts,
  peakCalls,
  startWorkerProcess,
  untilLogged,
} from './support/worker-process.js';

const require = createRequire(import.meta.url);
const closers: (() => Promise<unknown>)[] = [];
/** The time limit of a case that starts a worker process: a loaded machine takes long. */
const STARTS = 180_000;
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function controlPlane(argv: readonly string[] = []): Promise<TestServer> {
  const server = await startControlPlane({ argv });
  closers.push(() => server.close());
  return server;
}

type Unary = (
  request: object,
  callback: (error: grpc.ServiceError | null, answer?: Record<string, unknown>) => void,
) => void;

/** A client of a service from a .proto file, closed after the test. */
function clientOf(protoFile: string, includeDirs: string[], service: string, port: number) {
  const definition = protoLoader.loadSync(protoFile, {
    includeDirs,
    keepCase: true,
    enums: String,
  });
  let found: unknown = grpc.loadPackageDefinition(definition);
  for (const part of service.split('.')) found = (found as Record<string, unknown>)[part];
  const Client = found as typeof grpc.Client;
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  closers.push(() => {
    client.close();
    return Promise.resolve();
  });
  return client as grpc.Client & Record<string, Unary | undefined>;
}

function healthClient(port: number) {
  const dir = path.join(path.dirname(require.resolve('grpc-health-check/package.json')), 'proto');
  return clientOf(path.join(dir, 'health/v1/health.proto'), [dir], 'grpc.health.v1.Health', port);
}

function check(
  client: ReturnType<typeof healthClient>,
  service: string,
): Promise<{ status?: unknown; error?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    client.Check?.call(client, { service }, (error, answer) => {
      resolve(error === null ? { status: answer?.status } : { error });
    });
  });
}

describe('the standard gRPC health service on the workers port', () => {
  it('answers grpc.health.v1.Health/Check: SERVING for the server and the worker service', async () => {
    const server = await controlPlane();
    const client = healthClient(server.workers?.port ?? 0);
    expect(await check(client, '')).toEqual({ status: 'SERVING' });
    expect(await check(client, WORKERS_SERVICE)).toEqual({ status: 'SERVING' });
    const unknown = await check(client, 'no.such.Service');
    expect(unknown.error?.code).toBe(grpc.status.NOT_FOUND);
  });

  it('answers NOT_SERVING for the worker service while the server is a standby', async () => {
    let leader = false;
    const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const server = new ControlPlaneServer({
      registry: new WorkerRegistry({ clock: new ManualClock() }),
      token: TOKEN,
      address: '127.0.0.1',
      port: 0,
      heartbeatMs: 50,
      isLeader: () => leader,
      logger: silent,
    });
    const { port } = await server.listen();
    closers.push(() => server.close());
    const client = healthClient(port);
    expect(await check(client, WORKERS_SERVICE)).toEqual({ status: 'NOT_SERVING' });
    expect(await check(client, '')).toEqual({ status: 'SERVING' });
    leader = true;
    await eventually(
      () => check(client, WORKERS_SERVICE),
      (answer) => answer.status === 'SERVING',
    );
  });
});

describe('a standby control plane', { timeout: STARTS }, () => {
  it('refuses workers while the server is a standby, and accepts them once it leads', async () => {
    let leader = false;
    const registry = new WorkerRegistry({ clock: new ManualClock() });
    const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const standbyLog: string[] = [];
    const server = new ControlPlaneServer({
      registry,
      token: TOKEN,
      address: '127.0.0.1',
      port: 0,
      heartbeatMs: 10_000,
      isLeader: () => leader,
      logger: { ...silent, warn: (_fields, message) => standbyLog.push(message) },
    });
    const { port } = await server.listen();
    closers.push(() => server.close());
    // A worker process, which tries again after a backoff while it is refused.
    const patient = await startWorkerProcess(
      { workers: { address: '127.0.0.1', port } },
      {
        argv: ['--svc.workers.name=patient', '--svc.workers.plugin-types=MAPPER'],
        connected: false,
      },
    );
    closers.push(() => patient.kill());
    await eventually(
      () => Promise.resolve(standbyLog.length),
      (refusals) => refusals >= 2,
      STARTS,
    );
    expect(standbyLog[0]).toBe(
      'A worker was refused: The server is a standby; connect to the leader',
    );
    expect(registry.connected).toBe(0);
    expect(patient.logLines()).toContainEqual(
      expect.objectContaining({
        reason: 'standby',
        msg: 'Refused: The server is a standby; connect to the leader',
      }),
    );
    leader = true;
    await untilLogged(patient, (line) => line.msg === 'Connected to the control plane');
    expect(registry.connected).toBe(1);
  });
});

describe('server reflection (svc.workers.reflection)', () => {
  function reflectionClient(port: number) {
    const dir = path.join(
      path.dirname(require.resolve('@grpc/reflection/package.json')),
      'build/proto',
    );
    return clientOf(
      path.join(dir, 'grpc/reflection/v1/reflection.proto'),
      [dir],
      'grpc.reflection.v1.ServerReflection',
      port,
    );
  }

  /** Asks the server for its services; answers their names or the status of the call. */
  function listServices(port: number): Promise<string[] | grpc.status> {
    const client = reflectionClient(port) as unknown as {
      ServerReflectionInfo(): grpc.ClientDuplexStream<object, Record<string, unknown>>;
    };
    const call = client.ServerReflectionInfo();
    return new Promise((resolve) => {
      call.on('data', (answer: { list_services_response?: { service: { name: string }[] } }) => {
        resolve((answer.list_services_response?.service ?? []).map((entry) => entry.name));
        call.end();
      });
      call.on('error', (error: grpc.ServiceError) => {
        resolve(error.code);
      });
      call.write({ list_services: '' });
    });
  }

  it('lists the worker service when enabled, and is not served otherwise', async () => {
    const enabled = await controlPlane(['--svc.workers.reflection=true']);
    expect(await listServices(enabled.workers?.port ?? 0)).toContain(WORKERS_SERVICE);
    const disabled = await controlPlane();
    expect(await listServices(disabled.workers?.port ?? 0)).toBe(grpc.status.UNIMPLEMENTED);
  });
});

describe('the token as call metadata', () => {
  /** Opens a Connect call with these metadata and registers; answers the ending status. */
  function register(port: number, authorization: string | undefined) {
    return rawConnect({
      target: `127.0.0.1:${port}`,
      authorization,
      frames: [registration()],
      endOnAnswer: true,
    });
  }

  it('refuses a call without the token or with a wrong one with UNAUTHENTICATED, and welcomes the right one', async () => {
    const server = await controlPlane();
    const port = server.workers?.port ?? 0;
    for (const authorization of [undefined, 'Bearer wrong', TOKEN]) {
      const { status, frames } = await register(port, authorization);
      expect(status.code, String(authorization)).toBe(grpc.status.UNAUTHENTICATED);
      expect(status.details).toBe('The worker token is wrong');
      expect(frames).toEqual([]);
    }
    const { frames } = await register(port, `Bearer ${TOKEN}`);
    expect(frames).toEqual([{ frame: 'welcome', welcome: { workerId: expect.any(String) } }]);
  });
});

describe('credits (svc.workers.max-in-flight)', { timeout: STARTS }, () => {
  it('holds a slow worker’s sender back: no more calls in flight than the worker granted, the rest wait on the control plane and run when credit comes back', async () => {
    const server = await controlPlane();
    const slow = await startWorkerProcess(server, {
      argv: [
        '--svc.workers.plugin-types=PROCESS_EXECUTOR',
        '--svc.process.allow-any=true',
        '--svc.workers.slots=4',
        '--svc.workers.max-in-flight=1',
      ],
    });
    closers.push(() => slow.kill());
    const flow = (id: string) =>
      placedFlow(id, {
        type: 'PROCESS_EXECUTOR',
        config: { command: 'sleep', args: ['0.5'], engine: { placement: 'default' } },
      });
    const ids = [await startRun(server, flow('one')), await startRun(server, flow('two'))];
    const workerId = slow.workerId() ?? '';
    // Both nodes hold a slot; one call is on the worker and the other waits for credit.
    await eventually(
      () => Promise.resolve(server.app.workers.inFlight(workerId)),
      (inFlight) => inFlight?.sent === 1 && inFlight.waiting === 1,
    );
    await eventually(
      () => Promise.resolve(lastCounts(slow).openNodes),
      (open) => open === 2,
    );
    for (const id of ids) expect((await endOf(server, id)).status).toBe('COMPLETED');
    // Every call has said it started and ended.
    await eventually(
      () => Promise.resolve(slow.logLines().filter((line) => line.msg === 'Call ended').length),
      (ended) => ended === 2,
    );
    expect(peakCalls(slow)).toBe(1);
    expect(server.app.workers.inFlight(workerId)).toEqual({ sent: 0, waiting: 0 });
  });
});
