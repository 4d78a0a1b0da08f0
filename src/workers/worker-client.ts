// A worker's connection to its control plane: hello with the token, then placed nodes' calls
// until the connection ends, and a new connection after a backoff (docs/workers.md).
import net from 'node:net';
import tls from 'node:tls';
import { messageOf } from '../core/index.js';
import {
  MISSED_HEARTBEATS,
  PROTOCOL_VERSION,
  encodeLine,
  parseControlMessage,
  readLines,
} from './protocol.js';
import type { ControlMessage, RefusalReason, WorkerMessage } from './protocol.js';
import type { TlsBundle } from './tls-bundle.js';
import type { WorkerHost } from './worker-host.js';
import type { WorkersLogger } from './workers-logger.js';

/** A refusal that retrying cannot change (a wrong token, another protocol version). */
export class WorkerRefusedError extends Error {
  override readonly name = 'WorkerRefusedError';

  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(`The control plane refused this worker: ${message}`);
  }
}

export interface WorkerClientOptions {
  /** The control plane, `svc.workers.connect`. */
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly name: string;
  readonly pool: string;
  readonly slots: number;
  readonly pluginTypes: readonly string[];
  /** With a bundle: TLS, the control plane's certificate checked against `host`. */
  readonly tls?: TlsBundle | undefined;
  readonly runtimes: WorkerHost;
  readonly logger: WorkersLogger;
  /** First wait before connecting again; it doubles up to `maxRetryMs`. */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
  /** How long a connection may wait for the control plane's answer to hello. */
  readonly welcomeTimeoutMs?: number;
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  // Whoever awaits it sees the rejection; nobody awaiting is not an error.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class WorkerClient {
  readonly #options: WorkerClientOptions;
  readonly #connected = deferred<string>();
  readonly #done = deferred<undefined>();
  #socket: net.Socket | undefined;
  #closed = false;
  #workerId: string | null = null;
  #wake: (() => void) | undefined;
  #started = false;

  constructor(options: WorkerClientOptions) {
    this.#options = options;
  }

  /** Resolves with the worker's id on the first welcome; rejects on a lasting refusal. */
  get connected(): Promise<string> {
    return this.#connected.promise;
  }

  /** Resolves once closed; rejects with `WorkerRefusedError` on a lasting refusal. */
  get done(): Promise<undefined> {
    return this.#done.promise;
  }

  /** The id the control plane gave this worker on its current connection. */
  get workerId(): string | null {
    return this.#workerId;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    void this.#run();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (!this.#started) {
      this.#connected.reject(new Error('The worker stopped before it connected'));
      this.#done.resolve(undefined);
      return;
    }
    this.#wake?.();
    this.#socket?.destroy();
    await this.#done.promise.catch(() => undefined);
  }

  /** A method, not the field: `close` may have run during any await of the loop. */
  #isClosed(): boolean {
    return this.#closed;
  }

  async #run(): Promise<void> {
    const { logger, retryMs = 500, maxRetryMs = 30_000 } = this.#options;
    let wait = retryMs;
    while (!this.#closed) {
      let welcomed: boolean;
      try {
        welcomed = await this.#session();
      } catch (error) {
        const refusal = error as WorkerRefusedError;
        logger.error({ reason: refusal.reason }, refusal.message);
        this.#connected.reject(refusal);
        this.#done.reject(refusal);
        await this.#options.runtimes.closeAll('The worker was refused');
        return;
      }
      if (this.#isClosed()) break;
      if (welcomed) wait = retryMs;
      logger.info({ retryInMs: wait }, 'Connecting to the control plane again');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
      wait = Math.min(maxRetryMs, wait * 2);
    }
    this.#connected.reject(new Error('The worker stopped before it connected'));
    this.#done.resolve(undefined);
  }

  /**
   * One connection: answers whether it was welcomed once it ends, or throws a lasting refusal.
   * The nodes it ran are closed with it: the control plane moves them to another connection.
   */
  #session(): Promise<boolean> {
    const { host, port, logger, runtimes } = this.#options;
    const bundle = this.#options.tls;
    return new Promise<boolean>((resolve, reject) => {
      const socket =
        bundle === undefined
          ? net.connect({ host, port })
          : tls.connect({
              host,
              port,
              cert: bundle.cert,
              key: bundle.key,
              ca: bundle.ca,
              minVersion: 'TLSv1.2',
              // SNI takes names only; the certificate is still checked against an address.
              ...(net.isIP(host) === 0 ? { servername: host } : {}),
            });
      this.#socket = socket;
      let welcomed = false;
      let refused: WorkerRefusedError | undefined;
      let reason = 'The connection closed';
      let lastHeard = Date.now();
      let welcomeTimer: ReturnType<typeof setTimeout> | undefined;
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      const send = (message: WorkerMessage): void => {
        if (!socket.destroyed && socket.writable) socket.write(encodeLine(message));
      };
      const drop = (why: string): void => {
        reason = why;
        socket.destroy();
      };
      socket.once(bundle === undefined ? 'connect' : 'secureConnect', () => {
        socket.setNoDelay(true);
        const { token, name, pool, slots, pluginTypes } = this.#options;
        send({
          type: 'hello',
          protocol: PROTOCOL_VERSION,
          token,
          name,
          pool,
          slots,
          pluginTypes: [...pluginTypes],
        });
        welcomeTimer = setTimeout(() => {
          drop('No answer to hello in time');
        }, this.#options.welcomeTimeoutMs ?? 10_000);
      });
      const onWelcome = (workerId: string, heartbeatMs: number): void => {
        welcomed = true;
        clearTimeout(welcomeTimer);
        this.#workerId = workerId;
        heartbeat = setInterval(() => {
          if (Date.now() - lastHeard > MISSED_HEARTBEATS * heartbeatMs) {
            drop(`No heartbeat from the control plane for ${MISSED_HEARTBEATS * heartbeatMs} ms`);
            return;
          }
          send({ type: 'ping' });
        }, heartbeatMs);
        logger.info(
          { workerId, host, port, secure: bundle !== undefined },
          'Connected to the control plane',
        );
        this.#connected.resolve(workerId);
      };
      const handle = (message: ControlMessage): void => {
        if (!welcomed) {
          if (message.type === 'ping') return;
          if (message.type === 'welcome') onWelcome(message.workerId, message.heartbeatMs);
          else if (message.type === 'refused') {
            // A standby may become the leader: only a standby's refusal is worth retrying.
            if (message.reason === 'standby') reason = message.message;
            else refused = new WorkerRefusedError(message.reason, message.message);
            logger.warn({ reason: message.reason }, `Refused: ${message.message}`);
            socket.end();
          } else drop(`Unexpected '${message.type}' before welcome`);
          return;
        }
        switch (message.type) {
          case 'open':
            runtimes.open(message);
            return;
          case 'process':
            runtimes.process(message, send);
            return;
          case 'cancel':
            runtimes.cancel(message.call);
            return;
          case 'close':
            void runtimes.close(message.node);
            return;
          case 'ping':
            return;
          case 'welcome':
          case 'refused':
            drop(`Unexpected '${message.type}' after welcome`);
            return;
        }
      };
      socket.on('data', () => {
        lastHeard = Date.now();
      });
      readLines(
        socket,
        (line) => {
          try {
            handle(parseControlMessage(line));
            return true;
          } catch (error) {
            drop(messageOf(error));
            return false;
          }
        },
        drop,
      );
      socket.on('error', (error: Error) => {
        reason = error.message;
      });
      socket.on('close', () => {
        clearTimeout(welcomeTimer);
        clearInterval(heartbeat);
        this.#workerId = null;
        this.#socket = undefined;
        if (welcomed || !this.#closed) {
          logger.warn({ host, port, reason }, 'Disconnected from the control plane');
        }
        void runtimes.closeAll('The connection to the control plane ended').then(() => {
          if (refused !== undefined) reject(refused);
          else resolve(welcomed);
        });
      });
    });
  }
}
