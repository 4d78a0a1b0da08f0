// Answers made before any route or hook runs: requests Node's HTTP parser refuses (written
// straight to the socket) and URLs the router cannot read. They too are in SPEC's envelope
// with an X-Request-ID, like every other answer.
import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, statusOf } from '../core/index.js';
import { MAX_ID_LENGTH } from '../services/index.js';
import { errorEnvelope, reasonPhrase } from './envelope.js';

/** The router's limit on one path parameter: the longest id a client may choose. */
export const MAX_PATH_PARAM_LENGTH = MAX_ID_LENGTH;

/** Fastify's router failures as catalogue errors; undefined for any other error. */
export function routerErrorOf(error: { code?: unknown }, path: string): AppError | undefined {
  if (error.code === 'FST_ERR_BAD_URL') return new AppError('MALFORMED_URL', { params: { path } });
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new AppError('PARAMETER_TOO_LONG', { params: { limit: MAX_PATH_PARAM_LENGTH } });
  }
  return undefined;
}

interface ClientError extends Error {
  readonly code?: string;
  /** What the parser had read; a Buffer at run time. */
  readonly rawPacket?: unknown;
}

/**
 * Node's `clientError` event: the request could not be parsed (bad request line, oversized
 * headers, a timeout). No Fastify request exists, so the answer is written by hand.
 */
export function answerClientError(
  error: ClientError,
  socket: Socket,
  logger: FastifyBaseLogger,
): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError = clientErrorOf(error);
  const status = statusOf(appError.code);
  const id = randomUUID();
  logger.debug({ err: error, requestId: id }, 'Refused a request the HTTP parser could not read');
  if (socket.writable) {
    const body = JSON.stringify(
      errorEnvelope(status, appError.message, requestPathOf(error.rawPacket)),
    );
    socket.write(
      `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-ID: ${id}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function clientErrorOf(error: ClientError): AppError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new AppError('HEADERS_TOO_LARGE', { params: { limit: maxHeaderSize } });
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new AppError('REQUEST_TIMEOUT');
  return new AppError('MALFORMED_REQUEST', { params: { detail: parserReason(error) } });
}

/** Node's parser reasons (`HPE_INVALID_METHOD: Invalid method encountered`) without the code. */
function parserReason(error: ClientError): string {
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' && reason !== '' ? reason : 'the request cannot be parsed';
}

/** The path of the request line when one can be read, so the envelope can name it. */
function requestPathOf(packet: unknown): string {
  if (!Buffer.isBuffer(packet)) return '';
  const line = packet.subarray(0, Math.min(packet.length, 8192)).toString('latin1');
  const target = /^[!-~]+ (\/[^ \r\n]*)/.exec(line)?.[1] ?? '';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}
