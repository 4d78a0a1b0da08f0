// The control plane's gRPC server for remote workers: the Workers service of
// proto/worker.proto over plain HTTP/2 or TLS with mandatory client certificates, the token
// as call metadata, keepalive for liveness, the standard health service and, when enabled,
// server reflection (docs/workers.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import { AppError, messageOf } from '../core/index.js';
import type { Settings } from '../config/index.js';
import { readTlsBundle } from './tls-bundle.js';
import type { TlsBundle } from './tls-bundle.js';
import { listenTls } from './tls-listener.js';
import type { HandshakeFailure, TlsListener } from './tls-listener.js';
import { WORKERS_SERVICE, workersProto } from './wire.js';
import type { ControlFrame, Received, RegisterFrame, WorkerFrame } from './wire.js';
import type { WorkersLogger } from './workers-logger.js';
import type { WorkerRegistry } from './worker-registry.js';
import { REFUSAL_METADATA, TOKEN_METADATA, keepaliveOptions, tokenFrom } from './call-options.js';

/** A call that has not registered within this time is ended. */
const REGISTER_TIMEOUT_MS = 10_000;

/** A TLS connection that has not finished its handshake within this time is dropped. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

export interface ControlPlaneOptions {
  readonly registry: WorkerRegistry;
  /** Every worker must present it (SPEC Workflow-author safeguards: `svc.workers.token`). */
  readonly token: string;
  readonly address: string;
  readonly port: number;
  /** gRPC keepalive interval (`svc.workers.heartbeat`), and how often leadership is checked. */
  readonly heartbeatMs: number;
  /** With a bundle: TLS, and every worker must show a certificate signed by its CA. */
  readonly tls?: TlsBundle | undefined;
  /** Whether to serve gRPC server reflection (`svc.workers.reflection`). */
  readonly reflection?: boolean;
  /**
   * Whether this server is the leader: always, without high availability. A standby refuses
   * workers (SPEC: a worker is refused when the server is a standby) and lets connected ones go.
   */
  readonly isLeader: () => boolean;
  readonly logger: WorkersLogger;
  readonly registerTimeoutMs?: number;
}

type ConnectCall = grpc.ServerDuplexStream<Received<WorkerFrame>, ControlFrame>;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || address.startsWith('127.');
}

/** Ends a call with a status the worker reads, and why it was refused when it was. */
function endCall(call: ConnectCall, code: grpc.status, details: string, refusal?: string): void {
  if (call.cancelled || call.writableEnded) return;
  const metadata = new grpc.Metadata();
  if (refusal !== undefined) metadata.set(REFUSAL_METADATA, refusal);
  call.emit('error', { code, details, metadata });
}

/** A registration the control plane cannot accept, or undefined. */
function registrationProblem(frame: RegisterFrame): string | undefined {
  if (frame.name.trim() === '') return 'Register.name is empty';
  if (frame.pool.trim() === '') return 'Register.pool is empty';
  if (frame.slots < 1) return 'Register.slots must be at least 1';
  if (frame.credits < 1) return 'Register.credits must be at least 1';
  if (frame.pluginTypes.length === 0) return 'Register.plugin_types is empty';
  return undefined;
}

export class ControlPlaneServer {
  readonly #options: ControlPlaneOptions;
  readonly #tokenDigest: Buffer;
  readonly #server: grpc.Server;
  readonly #health = new HealthImplementation({ '': 'SERVING', [WORKERS_SERVICE]: 'SERVING' });
  readonly #calls = new Set<ConnectCall>();
  #leader: boolean | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #bound: { address: string; port: number } | undefined;
  #tlsListener: TlsListener | undefined;

  constructor(options: ControlPlaneOptions) {
    this.#options = options;
    this.#tokenDigest = digest(options.token);
    this.#server = new grpc.Server(keepaliveOptions(options.heartbeatMs));
    const { definition, Workers } = workersProto();
    this.#server.addService(Workers.service, {
      connect: (call: ConnectCall) => {
        this.#accept(call);
      },
    });
    this.#health.addToServer(this.#server);
    if (options.reflection === true) {
      new ReflectionService(definition).addToServer(this.#server);
    }
  }

  get listening(): boolean {
    return this.#bound !== undefined;
  }

  /** The address and port worker connections are accepted on, once listening. */
  get address(): { address: string; port: number } | undefined {
    return this.#bound;
  }

  async listen(): Promise<{ address: string; port: number }> {
    const { address, port, heartbeatMs, logger, registry } = this.#options;
    const bundle = this.#options.tls;
    let bound: number;
    try {
      if (bundle === undefined) bound = await this.#bindInsecure(address, port);
      else {
        this.#tlsListener = await listenTls(this.#server, {
          bundle,
          address,
          port,
          handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
          onHandshakeFailure: (failure) => {
            this.#handshakeFailed(failure);
          },
        });
        bound = this.#tlsListener.port;
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('SETTINGS_INVALID', {
        params: {
          detail: `Cannot accept workers on ${address}:${port} (svc.workers.listen-address, svc.workers.listen-port): ${messageOf(error)}`,
        },
        cause: error,
      });
    }
    this.#bound = { address, port: bound };
    registry.accepting = true;
    this.#checkLeadership();
    this.#timer = setInterval(() => {
      this.#checkLeadership();
    }, heartbeatMs);
    this.#timer.unref();
    if (bundle === undefined && !isLoopback(address)) {
      logger.warn(
        { address },
        'Workers connect over plain HTTP/2 on a non-loopback address: the token travels unencrypted; set svc.workers.ssl-bundle',
      );
    }
    return this.#bound;
  }

  async #bindInsecure(address: string, port: number): Promise<number> {
    const target = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
    return new Promise<number>((resolve, reject) => {
      this.#server.bindAsync(target, grpc.ServerCredentials.createInsecure(), (error, bound) => {
        if (error === null) resolve(bound);
        else reject(error);
      });
    });
  }

  /**
   * A client refused for its certificate (none, or one of another CA) or whose handshake
   * failed (no TLS at all, too slow) never reaches gRPC; this is the only trace it leaves here.
   * One that merely left mid-handshake is not a refusal (a TCP health check does so), and would
   * drown the warnings that matter.
   */
  #handshakeFailed({ address, reason, code }: HandshakeFailure): void {
    const { logger } = this.#options;
    if (code === 'ECONNRESET') {
      logger.debug(
        { address, reason, code },
        'A connection to the workers port ended during its TLS handshake',
      );
      return;
    }
    logger.warn(
      { address, reason, code },
      `A worker connection failed its TLS handshake: ${reason}`,
    );
  }

  /** Drops every worker (their calls fail retryably) and stops listening. */
  async close(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#tlsListener?.close();
    this.#tlsListener = undefined;
    this.#options.registry.accepting = false;
    this.#health.setStatus('', 'NOT_SERVING');
    this.#health.setStatus(WORKERS_SERVICE, 'NOT_SERVING');
    this.#options.registry.closeAll('The control plane is stopping');
    for (const call of this.#calls)
      endCall(call, grpc.status.UNAVAILABLE, 'The control plane is stopping');
    if (this.#bound === undefined) return;
    await new Promise<void>((resolve) => {
      this.#server.tryShutdown(() => {
        resolve();
      });
      // Calls that do not end soon are not waited for.
      setTimeout(() => {
        this.#server.forceShutdown();
        resolve();
      }, 1_000).unref();
    });
    this.#bound = undefined;
  }

  /** A server that is no longer the leader lets its workers go, to find the leader. */
  #checkLeadership(): void {
    const leader = this.#options.isLeader();
    if (leader !== this.#leader) {
      this.#health.setStatus(WORKERS_SERVICE, leader ? 'SERVING' : 'NOT_SERVING');
      this.#leader = leader;
    }
    if (!leader) this.#options.registry.closeAll('The server is a standby');
  }

  #accept(call: ConnectCall): void {
    const { registry, logger } = this.#options;
    this.#calls.add(call);
    const address = call.getPeer();
    const secure = this.#options.tls !== undefined;
    let workerId: string | undefined;
    let reason = 'The worker ended its call';
    const refuse = (code: grpc.status, message: string, refusal: string): void => {
      clearTimeout(registerTimer);
      logger.warn({ address, reason: refusal }, `A worker was refused: ${message}`);
      endCall(call, code, message, refusal);
    };
    const registerTimer = setTimeout(() => {
      refuse(grpc.status.DEADLINE_EXCEEDED, 'No registration in time', 'registration');
    }, this.#options.registerTimeoutMs ?? REGISTER_TIMEOUT_MS);
    const presented = tokenFrom(call.metadata.get(TOKEN_METADATA));
    if (presented === undefined || !timingSafeEqual(digest(presented), this.#tokenDigest)) {
      this.#calls.delete(call);
      refuse(grpc.status.UNAUTHENTICATED, 'The worker token is wrong', 'token');
      return;
    }
    const ended = (why: string): void => {
      clearTimeout(registerTimer);
      if (!this.#calls.delete(call)) return;
      if (workerId === undefined) return;
      reason = why;
      registry.remove(workerId, reason);
      logger.info({ workerId, address, reason }, 'Worker disconnected');
    };
    call.on('data', (frame: Received<WorkerFrame>) => {
      if (workerId !== undefined) {
        try {
          registry.receive(workerId, frame);
        } catch (error) {
          endCall(call, grpc.status.INVALID_ARGUMENT, messageOf(error));
        }
        return;
      }
      if (call.writableEnded) return;
      const register = frame.register;
      if (register === undefined) {
        refuse(grpc.status.INVALID_ARGUMENT, 'A worker must start with Register', 'registration');
        return;
      }
      const problem = registrationProblem(register);
      if (problem !== undefined) {
        refuse(grpc.status.INVALID_ARGUMENT, problem, 'registration');
        return;
      }
      if (!this.#options.isLeader()) {
        refuse(
          grpc.status.UNAVAILABLE,
          'The server is a standby; connect to the leader',
          'standby',
        );
        return;
      }
      clearTimeout(registerTimer);
      workerId = registry.add(
        register,
        {
          send: (control) => {
            if (!call.cancelled && !call.writableEnded) call.write(control);
          },
          close: (why) => {
            reason = why;
            endCall(call, grpc.status.UNAVAILABLE, why);
          },
        },
        { address, secure },
      );
      call.write({ welcome: { workerId } });
      logger.info(
        {
          workerId,
          name: register.name,
          pool: register.pool,
          slots: register.slots,
          credits: register.credits,
          pluginTypes: register.pluginTypes,
          address,
          secure,
        },
        `Worker '${register.name}' connected`,
      );
    });
    call.on('end', () => {
      ended('The worker ended its call');
      if (!call.writableEnded) call.end();
    });
    call.on('cancelled', () => {
      ended('The connection to the worker was lost');
    });
    call.on('error', (error: Error & { details?: unknown }) => {
      // A status this side ended the call with carries `details`; a stream error a message.
      ended(typeof error.details === 'string' ? error.details : error.message);
    });
    call.on('finish', () => {
      ended(reason);
    });
  }
}

/**
 * The control plane of a build with remote workers, from its settings; none while
 * `svc.workers.token` is unset, since a listener that accepts anyone would hand node
 * configurations and payloads to whoever connects.
 */
export function controlPlaneFromSettings(
  settings: Settings,
  deps: Pick<ControlPlaneOptions, 'registry' | 'logger' | 'isLeader'>,
): ControlPlaneServer | undefined {
  const token = settings['svc.workers.token'];
  if (token === null) {
    deps.logger.info({}, 'Remote workers are off: set svc.workers.token to accept workers');
    return undefined;
  }
  const heartbeatMs = settings['svc.workers.heartbeat'];
  if (heartbeatMs <= 0) {
    throw new AppError('SETTINGS_INVALID', {
      params: { detail: 'svc.workers.heartbeat must be longer than 0' },
    });
  }
  const bundle = settings['svc.workers.ssl-bundle'];
  return new ControlPlaneServer({
    ...deps,
    token,
    address: settings['svc.workers.listen-address'],
    port: settings['svc.workers.listen-port'],
    heartbeatMs,
    reflection: settings['svc.workers.reflection'],
    tls: bundle === null ? undefined : readTlsBundle(bundle),
  });
}
