// A worker's connection to its control plane: one Connect call of the Workers gRPC service
// with the token as metadata, Register, then placed nodes' calls until the call ends, and a
// new call after a backoff (docs/workers.md).
import * as grpc from '@grpc/grpc-js';
import type { TlsBundle } from './tls-bundle.js';
import { REFUSAL_METADATA, TOKEN_METADATA, keepaliveOptions } from './call-options.js';
import { connectCall, workersClient } from './wire.js';
import type { ControlFrame, Received, WorkerCall, WorkerFrame } from './wire.js';
import type { WorkerHost } from './worker-host.js';
import type { WorkersLogger } from './workers-logger.js';

/** Why a control plane refused a worker for good, from the status it ended the call with. */
export type RefusalReason = 'token' | 'registration' | 'protocol';

const LASTING: ReadonlyMap<grpc.status, RefusalReason> = new Map([
  [grpc.status.UNAUTHENTICATED, 'token'],
  [grpc.status.PERMISSION_DENIED, 'token'],
  [grpc.status.INVALID_ARGUMENT, 'registration'],
  [grpc.status.UNIMPLEMENTED, 'protocol'],
]);

/** A refusal that retrying cannot change (a wrong token, a service this side does not know). */
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
  /** Process frames the control plane may send before answers come back (credits). */
  readonly maxInFlight: number;
  /** gRPC keepalive interval (`svc.workers.heartbeat`). */
  readonly heartbeatMs: number;
  /** With a bundle: TLS, the control plane's certificate checked against `host`. */
  readonly tls?: TlsBundle | undefined;
  readonly runtimes: WorkerHost;
  readonly logger: WorkersLogger;
  /** First wait before connecting again; it doubles up to `maxRetryMs`. */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
  /** The deadline for the control plane's Welcome. */
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
  #call: WorkerCall | undefined;
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
    this.#call?.cancel();
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

  /** A channel to the control plane, with TLS and its host name check when there is a bundle. */
  #client(): grpc.Client {
    const { host, port, heartbeatMs } = this.#options;
    const bundle = this.#options.tls;
    const credentials =
      bundle === undefined
        ? grpc.credentials.createInsecure()
        : grpc.credentials.createSsl(bundle.ca, bundle.key, bundle.cert);
    const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    return workersClient(target, credentials, keepaliveOptions(heartbeatMs));
  }

  /**
   * One call: answers whether it was welcomed once it ends, or throws a lasting refusal.
   * The nodes it ran are closed with it: the control plane moves them to another call.
   */
  #session(): Promise<boolean> {
    const { host, port, logger, runtimes, token } = this.#options;
    const client = this.#client();
    const metadata = new grpc.Metadata();
    metadata.set(TOKEN_METADATA, `Bearer ${token}`);
    const call = connectCall(client, metadata);
    this.#call = call;
    return new Promise<boolean>((resolve, reject) => {
      let welcomed = false;
      let refused: WorkerRefusedError | undefined;
      let reason = 'The call ended';
      const send = (frame: WorkerFrame): void => {
        if (!call.writableEnded) call.write(frame);
      };
      const welcomeTimer = setTimeout(() => {
        reason = 'No welcome from the control plane in time';
        call.cancel();
      }, this.#options.welcomeTimeoutMs ?? 10_000);
      const { name, pool, slots, pluginTypes, maxInFlight } = this.#options;
      send({
        register: { name, pool, slots, pluginTypes: [...pluginTypes], credits: maxInFlight },
      });
      const onWelcome = (workerId: string): void => {
        welcomed = true;
        clearTimeout(welcomeTimer);
        this.#workerId = workerId;
        logger.info(
          { workerId, host, port, secure: this.#options.tls !== undefined },
          'Connected to the control plane',
        );
        this.#connected.resolve(workerId);
      };
      call.on('data', (frame: Received<ControlFrame>) => {
        if (!welcomed) {
          if (frame.welcome !== undefined) onWelcome(frame.welcome.workerId);
          else {
            reason = `Unexpected '${frame.frame ?? 'empty'}' frame before welcome`;
            call.cancel();
          }
          return;
        }
        if (frame.open !== undefined) runtimes.open(frame.open);
        else if (frame.process !== undefined) runtimes.process(frame.process, send);
        else if (frame.cancel !== undefined) runtimes.cancel(frame.cancel.call);
        else if (frame.close !== undefined) void runtimes.close(frame.close.node);
        else {
          reason = `Unexpected '${frame.frame ?? 'empty'}' frame after welcome`;
          call.cancel();
        }
      });
      call.on('error', (error: grpc.ServiceError) => {
        const [said] = error.metadata.get(REFUSAL_METADATA);
        const lasting = LASTING.get(error.code);
        if (said !== undefined) logger.warn({ reason: said }, `Refused: ${error.details}`);
        // A standby may become the leader: only a standby's refusal is worth retrying.
        if (lasting !== undefined) refused = new WorkerRefusedError(lasting, error.details);
        else if (reason === 'The call ended') reason = error.details;
      });
      call.on('status', (status: grpc.StatusObject) => {
        clearTimeout(welcomeTimer);
        if (status.code === grpc.status.OK) reason = 'The control plane ended the call';
        this.#workerId = null;
        this.#call = undefined;
        client.close();
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
