// The typed client of the REST API, generated from its description (api-types.ts) and called
// through openapi-fetch: paths, parameters, bodies and answers are checked by the compiler.
// It imports nothing from the server, so the web UI and the command-line client can use it.
import createClient from 'openapi-fetch';
import type { Client, ClientOptions } from 'openapi-fetch';
import type { components, paths } from './api-types.js';

export type { components, operations, paths } from './api-types.js';

/** The records of the API by their names in the description (`components.schemas`). */
export type ApiSchemas = components['schemas'];
export type ApiClient = Client<paths>;
export type FieldError = ApiSchemas['FieldError'];

/** CONTRACT 1: a run in any status but these three has ended. */
export function isTerminalStatus(status: ApiSchemas['ExecutionStatus']): boolean {
  return status !== 'QUEUED' && status !== 'RUNNING' && status !== 'PAUSED';
}

export interface ApiClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080`; empty for the page's own origin. */
  readonly baseUrl: string;
  /** An API key, sent as a bearer token; none on a server without keys. */
  readonly key?: string | null;
  readonly fetch?: ClientOptions['fetch'];
  readonly headers?: Readonly<Record<string, string>>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined && options.key !== null && options.key !== '') {
    headers.authorization = `Bearer ${options.key}`;
  }
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}

/** A refused call: the status, and the error envelope's message and field errors when sent. */
export class ApiError extends Error {
  readonly status: number;
  readonly fields: readonly FieldError[];
  /** False when the answer had no error envelope (the access checks answer without a body). */
  readonly enveloped: boolean;

  constructor(status: number, message: string, fields: readonly FieldError[], enveloped: boolean) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
    this.enveloped = enveloped;
  }
}

/** What an openapi-fetch call resolves to, as far as `dataOf` reads it. */
export interface CallResult<D> {
  readonly data?: { readonly data: D } | undefined;
  readonly error?: unknown;
  readonly response: Response;
}

/** Waits for a call and answers the `data` of its success envelope, or throws an ApiError. */
export async function dataOf<D>(call: Promise<CallResult<D>>): Promise<D> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data.data;
  throw errorOf(response.status, error);
}

export function errorOf(status: number, body: unknown): ApiError {
  if (isErrorEnvelope(body)) {
    return new ApiError(status, body.message, body.errors ?? [], true);
  }
  return new ApiError(status, `The server answered ${String(status)}.`, [], false);
}

function isErrorEnvelope(body: unknown): body is ApiSchemas['ErrorEnvelope'] {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { message?: unknown }).message === 'string'
  );
}
