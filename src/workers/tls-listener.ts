// The control plane's TLS port: this side runs the handshake, so that a refused one can be
// reported, and hands each secure connection to the gRPC server (docs/workers.md, "TLS bundle").
import type { Socket } from 'node:net';
import { createServer } from 'node:tls';
import type { Server as TlsServer, TLSSocket } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { AppError, messageOf } from '../core/index.js';
import type { TlsBundle } from './tls-bundle.js';

/** A connection refused during or right after its handshake: who tried, and why. */
export interface HandshakeFailure {
  /** `host:port` of the peer, as `call.getPeer()` writes it; `unknown` once it is gone. */
  readonly address: string;
  readonly reason: string;
  /**
   * Node's code for it: an OpenSSL verification code (`UNABLE_TO_VERIFY_LEAF_SIGNATURE`),
   * `NO_CERTIFICATE`, or the error's (`ERR_SSL_WRONG_VERSION_NUMBER`, `ECONNRESET`).
   */
  readonly code: string | undefined;
}

export interface TlsListenerOptions {
  readonly bundle: TlsBundle;
  readonly address: string;
  readonly port: number;
  /** A connection that has not finished its handshake by then is dropped (and reported). */
  readonly handshakeTimeoutMs: number;
  /** A client refused for its certificate, or whose handshake failed (`ECONNRESET`: it left). */
  readonly onHandshakeFailure: (failure: HandshakeFailure) => void;
}

export interface TlsListener {
  /** The port it listens on (the one picked when asked for 0). */
  readonly port: number;
  /**
   * Stops accepting connections and drops those still in their handshake; the ones handed to
   * the gRPC server are its to close, after the status that ends each call is sent.
   */
  close(): void;
}

function peerOf(socket: Socket): string {
  const { remoteAddress, remotePort } = socket;
  if (remoteAddress === undefined) return 'unknown';
  return remotePort === undefined ? remoteAddress : `${remoteAddress}:${remotePort}`;
}

/** Why a socket whose handshake ended is not authorised, or undefined when it is. */
function untrusted(socket: TLSSocket): { reason: string; code: string } | undefined {
  if (socket.authorized) return undefined;
  if (Object.keys(socket.getPeerCertificate()).length === 0) {
    return { reason: 'no client certificate', code: 'NO_CERTIFICATE' };
  }
  // A string code at run time, whatever the type declarations say.
  const code = String(socket.authorizationError);
  return { reason: `the client certificate is not trusted (${code})`, code };
}

/**
 * Listens on `address:port` with the bundle, requiring a client certificate signed by its CA,
 * and serves every connection that passes with `server`.
 *
 * `@grpc/grpc-js` runs the handshake of its own TLS port inside an HTTP/2 server it keeps
 * private and tells nobody when one fails, so an operator would never see a worker refused for
 * its certificate. Its public `createConnectionInjector` serves connections the application
 * accepted; this TLS server is ours, and so is its `tlsClientError`. The injector gets insecure
 * credentials because the connection it is handed is already encrypted: TLS is not wrapped
 * twice. Unlike `bindAsync`, a host name binds the first address it resolves to only.
 *
 * The certificate is checked here rather than by `rejectUnauthorized`: Node then destroys a
 * socket whose certificate fails verification without an error that says so, and by the time
 * `tlsClientError` reports a bare reset the peer's address is gone. The check is the same
 * (`authorized`: a certificate that chains to the bundle's CA), and a refused connection is
 * destroyed before gRPC reads a byte of it. The price: a client without a certificate sees its
 * connection close instead of a `certificate required` alert; the warning here says why.
 */
export async function listenTls(
  server: grpc.Server,
  options: TlsListenerOptions,
): Promise<TlsListener> {
  const { bundle, address, port, handshakeTimeoutMs, onHandshakeFailure } = options;
  let tlsServer: TlsServer;
  try {
    tlsServer = createServer({
      cert: bundle.cert,
      key: bundle.key,
      ca: bundle.ca,
      requestCert: true,
      rejectUnauthorized: false,
      // gRPC clients insist on HTTP/2 being agreed during the handshake.
      ALPNProtocols: ['h2'],
      handshakeTimeout: handshakeTimeoutMs,
    });
  } catch (error) {
    throw new AppError('SETTINGS_INVALID', {
      params: { detail: `svc.workers.ssl-bundle cannot be used: ${messageOf(error)}` },
      cause: error,
    });
  }
  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  // Connections still in their handshake, by peer: a live TCP connection's peer address is
  // unique on one listening port, and the encrypted socket shows it too.
  const handshaking = new Map<string, Socket>();
  tlsServer.on('connection', (socket: Socket) => {
    const peer = peerOf(socket);
    handshaking.set(peer, socket);
    socket.once('close', () => {
      if (handshaking.get(peer) === socket) handshaking.delete(peer);
    });
  });
  tlsServer.on(
    'tlsClientError',
    (error: NodeJS.ErrnoException & { reason?: unknown }, socket: TLSSocket) => {
      // An OpenSSL error says in `reason` what its message buries among source file names.
      const reason = typeof error.reason === 'string' ? error.reason : error.message;
      onHandshakeFailure({ address: peerOf(socket), reason, code: error.code });
    },
  );
  tlsServer.on('secureConnection', (socket: TLSSocket) => {
    handshaking.delete(peerOf(socket));
    const refusal = untrusted(socket);
    if (refusal === undefined) {
      // As grpc-js does on its own TLS port (nodejs/node#35824): an error of an encrypted socket
      // is not always passed on to its HTTP/2 session, and one nobody hears ends the process.
      // The session sees the socket close and ends the worker's call.
      socket.on('error', () => undefined);
      injector.injectConnection(socket);
      return;
    }
    onHandshakeFailure({ address: peerOf(socket), ...refusal });
    socket.destroy();
  });
  const bound = await new Promise<number>((resolve, reject) => {
    tlsServer.once('error', reject);
    tlsServer.listen({ host: address, port }, () => {
      tlsServer.off('error', reject);
      const info = tlsServer.address();
      resolve(typeof info === 'object' && info !== null ? info.port : port);
    });
  });
  return {
    port: bound,
    // The injector's HTTP/2 server is the gRPC server's: its shutdown closes that one.
    close: () => {
      tlsServer.close();
      for (const socket of handshaking.values()) socket.destroy();
      handshaking.clear();
    },
  };
}
