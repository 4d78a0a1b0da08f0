// The control plane's listener for remote workers: plain TCP, or TLS with mandatory client
// certificates; a handshake that checks the worker's token; heartbeats (docs/workers.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import { AppError, messageOf } from '../core/index.js';
import type { Settings } from '../config/index.js';
import {
  MISSED_HEARTBEATS,
  PROTOCOL_VERSION,
  encodeLine,
  parseWorkerMessage,
  readLines,
} from './protocol.js';
import type { ControlMessage, HelloMessage, RefusalReason } from './protocol.js';
import { readTlsBundle } from './tls-bundle.js';
import type { TlsBundle } from './tls-bundle.js';
import type { WorkersLogger } from './workers-logger.js';
import type { WorkerRegistry } from './worker-registry.js';

/** A connection that has not said hello within this time is dropped. */
const HELLO_TIMEOUT_MS = 10_000;

export interface ControlPlaneOptions {
  readonly registry: WorkerRegistry;
  /** Every worker must present it (SPEC Workflow-author safeguards: `svc.workers.token`). */
  readonly token: string;
  readonly address: string;
  readonly port: number;
  readonly heartbeatMs: number;
  /** With a bundle: TLS, and every worker must show a certificate signed by its CA. */
  readonly tls?: TlsBundle | undefined;
  /**
   * Whether this server is the leader: always, without high availability. A standby refuses
   * workers (SPEC: a worker is refused when the server is a standby) and lets connected ones go.
   */
  readonly isLeader: () => boolean;
  readonly logger: WorkersLogger;
  readonly helloTimeoutMs?: number;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || address.startsWith('127.');
}

export class ControlPlaneServer {
  readonly #options: ControlPlaneOptions;
  readonly #tokenDigest: Buffer;
  readonly #server: net.Server;
  readonly #sockets = new Set<net.Socket>();
  /** Connections past the handshake: only they get heartbeats. */
  readonly #welcomed = new Set<net.Socket>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #bound: { address: string; port: number } | undefined;

  constructor(options: ControlPlaneOptions) {
    this.#options = options;
    this.#tokenDigest = digest(options.token);
    const bundle = options.tls;
    if (bundle === undefined) {
      this.#server = net.createServer((socket) => {
        this.#accept(socket, false);
      });
    } else {
      const server = tls.createServer(
        {
          cert: bundle.cert,
          key: bundle.key,
          ca: bundle.ca,
          requestCert: true,
          rejectUnauthorized: true,
          minVersion: 'TLSv1.2',
        },
        (socket) => {
          this.#accept(socket, true);
        },
      );
      server.on('tlsClientError', (error, socket) => {
        options.logger.warn(
          { address: socket.remoteAddress, err: error.message },
          'A worker connection was refused during the TLS handshake',
        );
      });
      this.#server = server;
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
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => {
        reject(
          new AppError('SETTINGS_INVALID', {
            params: {
              detail: `Cannot accept workers on ${address}:${port} (svc.workers.listen-address, svc.workers.listen-port): ${error.message}`,
            },
            cause: error,
          }),
        );
      };
      this.#server.once('error', onError);
      this.#server.listen(port, address, () => {
        this.#server.off('error', onError);
        resolve();
      });
    });
    const bound = this.#server.address();
    this.#bound =
      bound !== null && typeof bound === 'object'
        ? { address: bound.address, port: bound.port }
        : { address, port };
    registry.accepting = true;
    this.#heartbeat = setInterval(() => {
      this.#beat();
    }, heartbeatMs);
    this.#heartbeat.unref();
    if (this.#options.tls === undefined && !isLoopback(address)) {
      logger.warn(
        { address },
        'Workers connect over plain TCP on a non-loopback address: the token travels unencrypted; set svc.workers.ssl-bundle',
      );
    }
    return this.#bound;
  }

  /** Drops every worker (their calls fail retryably) and stops listening. */
  async close(): Promise<void> {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#options.registry.accepting = false;
    this.#options.registry.closeAll('The control plane is stopping');
    for (const socket of this.#sockets) socket.destroy();
    if (!this.#server.listening) return;
    await new Promise<void>((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
    this.#bound = undefined;
  }

  #beat(): void {
    const { registry, heartbeatMs } = this.#options;
    // A server that is no longer the leader lets its workers go, to find the leader.
    if (!this.#options.isLeader()) {
      registry.closeAll('The server is a standby');
      return;
    }
    const silentMs = MISSED_HEARTBEATS * heartbeatMs;
    registry.dropSilent(silentMs, `No heartbeat for ${silentMs} ms`);
    for (const socket of this.#welcomed) {
      if (socket.writable) socket.write(encodeLine({ type: 'ping' }));
    }
  }

  #accept(socket: net.Socket, secure: boolean): void {
    const { registry, logger } = this.#options;
    this.#sockets.add(socket);
    socket.setNoDelay(true);
    const address = `${socket.remoteAddress ?? 'unknown'}:${socket.remotePort ?? 0}`;
    let workerId: string | undefined;
    let reason = 'The connection closed';
    const send = (message: ControlMessage): void => {
      if (!socket.destroyed && socket.writable) socket.write(encodeLine(message));
    };
    const drop = (why: string): void => {
      reason = why;
      socket.destroy();
    };
    const helloTimer = setTimeout(() => {
      drop('No hello in time');
    }, this.#options.helloTimeoutMs ?? HELLO_TIMEOUT_MS);
    const refuse = (refusal: RefusalReason, message: string): void => {
      clearTimeout(helloTimer);
      logger.warn({ address, reason: refusal }, `A worker was refused: ${message}`);
      send({ type: 'refused', reason: refusal, message });
      reason = message;
      socket.end();
      // A peer that does not close its side is not waited for.
      setTimeout(() => socket.destroy(), 1_000).unref();
    };
    const onLine = (line: string): boolean => {
      let message;
      try {
        message = parseWorkerMessage(line);
      } catch (error) {
        if (workerId === undefined) refuse('hello', messageOf(error));
        else drop(messageOf(error));
        return false;
      }
      if (workerId !== undefined) {
        registry.receive(workerId, message);
        return true;
      }
      if (message.type !== 'hello') {
        refuse('hello', 'A worker must start with hello');
        return false;
      }
      const refusal = this.#check(message);
      if (refusal !== undefined) {
        refuse(refusal.reason, refusal.message);
        return false;
      }
      clearTimeout(helloTimer);
      workerId = registry.add(message, { send, close: drop }, { address, secure });
      send({ type: 'welcome', workerId, heartbeatMs: this.#options.heartbeatMs });
      this.#welcomed.add(socket);
      logger.info(
        {
          workerId,
          name: message.name,
          pool: message.pool,
          slots: message.slots,
          pluginTypes: message.pluginTypes,
          address,
          secure,
        },
        `Worker '${message.name}' connected`,
      );
      return true;
    };
    readLines(socket, onLine, drop);
    socket.on('error', (error) => {
      reason = error.message;
    });
    socket.on('close', () => {
      clearTimeout(helloTimer);
      this.#sockets.delete(socket);
      this.#welcomed.delete(socket);
      if (workerId === undefined) return;
      registry.remove(workerId, reason);
      logger.info({ workerId, address, reason }, 'Worker disconnected');
    });
  }

  /** SPEC: a worker is refused when its token is wrong or when the server is a standby. */
  #check(hello: HelloMessage): { reason: RefusalReason; message: string } | undefined {
    if (hello.protocol !== PROTOCOL_VERSION) {
      return {
        reason: 'protocol',
        message: `Protocol version ${hello.protocol} is not supported; this control plane speaks ${PROTOCOL_VERSION}`,
      };
    }
    if (!timingSafeEqual(digest(hello.token), this.#tokenDigest)) {
      return { reason: 'token', message: 'The worker token is wrong' };
    }
    if (!this.#options.isLeader()) {
      return { reason: 'standby', message: 'The server is a standby; connect to the leader' };
    }
    return undefined;
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
    tls: bundle === null ? undefined : readTlsBundle(bundle),
  });
}
