// Remote workers over TLS (SPEC Workflow-author safeguards: "Control plane: ... server-side TLS
// with mandatory client certificates. Worker: svc.workers.ssl-bundle. The worker checks the
// control plane host name against its certificate"), with throwaway certificates.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './support/server.js';
import { endOf, eventually, within } from './support/wait.js';
import { rawConnect, registration } from './support/worker-calls.js';
import { startWorkerProcess, untilLogged } from './support/worker-process.js';
import type { WorkerProcessOptions } from './support/worker-process.js';
import {
  TOKEN,
  capturedLoggers,
  placedFlow,
  startControlPlane,
  startRun,
} from './support/workers.js';

let dir = '';
const closers: (() => Promise<unknown>)[] = [];

/** Runs openssl in the temporary directory; `command` is split on spaces. */
function openssl(command: string): void {
  execFileSync('openssl', command.split(' '), { cwd: dir, stdio: 'pipe' });
}

const EC_KEY = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';

/** A CA: `<name>.key`, `<name>.pem`. */
function authority(name: string): void {
  openssl(`req -x509 ${EC_KEY} -keyout ${name}.key -out ${name}.pem -days 2 -subj /CN=${name}`);
}

/** A certificate signed by `ca`, naming `altNames` (e.g. `DNS:localhost,IP:127.0.0.1`). */
function certificate(name: string, ca: string, altNames: string): void {
  openssl(`req ${EC_KEY} -keyout ${name}.key -out ${name}.csr -subj /CN=${name}`);
  writeFileSync(path.join(dir, `${name}.ext`), `subjectAltName=${altNames}\n`);
  openssl(
    `x509 -req -in ${name}.csr -CA ${ca}.pem -CAkey ${ca}.key -CAcreateserial -out ${name}.pem -days 2 -extfile ${name}.ext`,
  );
}

/** A `svc.workers.ssl-bundle` directory: cert.pem, key.pem, ca.pem. */
function bundle(name: string, cert: string, ca: string): string {
  const target = path.join(dir, name);
  mkdirSync(target);
  copyFileSync(path.join(dir, `${cert}.pem`), path.join(target, 'cert.pem'));
  copyFileSync(path.join(dir, `${cert}.key`), path.join(target, 'key.pem'));
  copyFileSync(path.join(dir, `${ca}.pem`), path.join(target, 'ca.pem'));
  return target;
}

let controlBundle = '';
let wrongNameBundle = '';
let workerBundle = '';
let strangerBundle = '';

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-workers-tls-'));
  authority('ca');
  authority('other-ca');
  certificate('control', 'ca', 'DNS:localhost,IP:127.0.0.1');
  certificate('elsewhere', 'ca', 'DNS:elsewhere.example');
  certificate('worker', 'ca', 'DNS:worker.example');
  certificate('stranger', 'other-ca', 'DNS:worker.example');
  controlBundle = bundle('control-bundle', 'control', 'ca');
  wrongNameBundle = bundle('elsewhere-bundle', 'elsewhere', 'ca');
  workerBundle = bundle('worker-bundle', 'worker', 'ca');
  strangerBundle = bundle('stranger-bundle', 'stranger', 'ca');
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type LogLine = Record<string, unknown>;

/** A control plane with this bundle, and the lines it logs at `level`. */
async function controlPlane(
  sslBundle: string,
  level: 'INFO' | 'DEBUG' = 'INFO',
): Promise<TestServer & { lines: LogLine[] }> {
  const { loggers, lines } = capturedLoggers(level);
  const server = await startControlPlane({
    argv: [`--svc.workers.ssl-bundle=${sslBundle}`],
    loggers,
  });
  closers.push(() => server.close());
  return Object.assign(server, { lines });
}

const HANDSHAKE_FAILED = /^A worker connection failed its TLS handshake: /;

/** `host:port` of a client on this machine, as the control plane names its peers. */
const LOOPBACK_PEER = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1):\d+$/;

/** Waits for the control plane's warning of a failed handshake from this machine, with `fields`. */
async function expectRefusedHandshake(
  server: { lines: LogLine[] },
  fields: Record<string, unknown>,
): Promise<void> {
  const [line] = await eventually(
    () =>
      Promise.resolve(server.lines.filter((logged) => HANDSHAKE_FAILED.test(String(logged.msg)))),
    (found) => found.length > 0,
    STARTS,
  );
  expect(line).toMatchObject({
    level: 40,
    address: expect.stringMatching(LOOPBACK_PEER),
    ...fields,
  });
}

/** The control plane lists no worker. */
async function expectNoWorkers(server: TestServer): Promise<void> {
  const workers = await server.call('GET', '/api/workers');
  expect(workers.json.data.workers).toEqual([]);
}

/** A worker process connecting to `localhost` with this bundle, killed after the test. */
async function worker(server: TestServer, bundle: string, options: WorkerProcessOptions = {}) {
  const started = await startWorkerProcess(server, {
    ...options,
    host: 'localhost',
    argv: [`--svc.workers.ssl-bundle=${bundle}`, '--svc.workers.plugin-types=MAPPER'],
  });
  closers.push(() => started.kill());
  return started;
}

/** Waits until the worker says it lost its call; answers why. */
async function disconnected(started: Awaited<ReturnType<typeof worker>>): Promise<unknown> {
  const line = await untilLogged(
    started,
    (logged) => logged.msg === 'Disconnected from the control plane',
    STARTS,
  );
  return line.reason;
}

/** The time limit of a case that starts a worker process: a loaded machine takes long. */
const STARTS = 180_000;

const mapper = {
  type: 'MAPPER',
  config: { mode: 'PROJECTION', expression: '"over TLS"', engine: { placement: 'default' } },
};

describe('workers over TLS with mandatory client certificates', { timeout: STARTS }, () => {
  it('runs a placed node over TLS when the worker shows a certificate of the trusted CA and the control plane certificate names the host', async () => {
    const server = await controlPlane(controlBundle);
    await worker(server, workerBundle);
    const id = await startRun(server, placedFlow('tls', mapper));
    expect((await endOf(server, id)).status).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${id}/results`);
    expect(results.json.data[0].payload).toBe('over TLS');
    const workers = await server.call('GET', '/api/workers');
    expect(workers.json.data.workers).toEqual([expect.objectContaining({ secure: true })]);
    expect(server.lines.filter((logged) => HANDSHAKE_FAILED.test(String(logged.msg)))).toEqual([]);
  });

  it('lets a worker connected over TLS go with the reason when the control plane stops, and drops a connection still in its handshake', async () => {
    // Not closed after the test: closing it is the test.
    const server = await startControlPlane({ argv: [`--svc.workers.ssl-bundle=${controlBundle}`] });
    const connected = await worker(server, workerBundle);
    // A peer that connects and never says a word of TLS.
    const silent = connect({ host: '127.0.0.1', port: server.workers?.port ?? 0 });
    const silentClosed = new Promise((resolve) => silent.once('close', resolve));
    await new Promise((resolve) => silent.once('connect', resolve));
    await server.close();
    expect(await disconnected(connected)).toBe('The control plane is stopping');
    // Well before the 10 s handshake deadline would have dropped it.
    await within(silentClosed, 5_000, 'the silent connection closing');
  });

  it('refuses a client without a certificate: the call fails, it never gets a welcome, and the control plane logs why', async () => {
    const server = await controlPlane(controlBundle);
    const { status, frames } = await rawConnect({
      target: `localhost:${server.workers?.port ?? 0}`,
      credentials: grpc.credentials.createSsl(readFileSync(path.join(controlBundle, 'ca.pem'))),
      authorization: `Bearer ${TOKEN}`,
      frames: [registration({ name: 'anonymous' })],
    });
    expect(status.code).toBe(grpc.status.UNAVAILABLE);
    expect(frames).toEqual([]);
    await expectNoWorkers(server);
    await expectRefusedHandshake(server, {
      reason: 'no client certificate',
      code: 'NO_CERTIFICATE',
    });
  });

  it('refuses a client that does not speak TLS, and logs a warning', async () => {
    const server = await controlPlane(controlBundle);
    const { status, frames } = await rawConnect({
      target: `127.0.0.1:${server.workers?.port ?? 0}`,
      authorization: `Bearer ${TOKEN}`,
      frames: [registration({ name: 'plain' })],
    });
    expect(status.code).toBe(grpc.status.UNAVAILABLE);
    expect(frames).toEqual([]);
    await expectRefusedHandshake(server, {
      reason: 'wrong version number',
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
    });
  });

  it('logs a connection that closes during its handshake at debug level only, as it is no refusal', async () => {
    const server = await controlPlane(controlBundle, 'DEBUG');
    // What a TCP health check does: connect, then close without a word of TLS.
    const probe = connect({ host: '127.0.0.1', port: server.workers?.port ?? 0 });
    probe.on('connect', () => probe.end());
    const [line] = await eventually(
      () => Promise.resolve(server.lines.filter((logged) => logged.code === 'ECONNRESET')),
      (found) => found.length > 0,
    );
    expect(line).toMatchObject({
      level: 20,
      msg: 'A connection to the workers port ended during its TLS handshake',
    });
    expect(server.lines.filter((logged) => HANDSHAKE_FAILED.test(String(logged.msg)))).toEqual([]);
  });

  it('refuses a worker whose certificate another CA signed, and logs a warning naming its address and the reason', async () => {
    const server = await controlPlane(controlBundle);
    const stranger = await worker(server, strangerBundle, { connected: false });
    await disconnected(stranger);
    expect(stranger.workerId()).toBeUndefined();
    await expectNoWorkers(server);
    await expectRefusedHandshake(server, {
      reason: 'the client certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });

  it('does not connect to a control plane whose certificate does not name the host the worker connects to', async () => {
    const server = await controlPlane(wrongNameBundle);
    const careful = await worker(server, workerBundle, { connected: false });
    expect(String(await disconnected(careful))).toMatch(/does not match certificate's altnames/);
    expect(careful.workerId()).toBeUndefined();
    await expectNoWorkers(server);
  });

  it('stops start-up naming the file when the bundle lacks one', async () => {
    const incomplete = path.join(dir, 'incomplete');
    mkdirSync(incomplete);
    copyFileSync(path.join(controlBundle, 'cert.pem'), path.join(incomplete, 'cert.pem'));
    await expect(
      startControlPlane({ argv: [`--svc.workers.ssl-bundle=${incomplete}`] }),
    ).rejects.toThrow(
      `svc.workers.ssl-bundle '${incomplete}' needs cert.pem, key.pem, ca.pem; cannot read ${path.join(incomplete, 'key.pem')}: ENOENT`,
    );
  });
});
