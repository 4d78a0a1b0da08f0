// The worker protocol as it travels: the gRPC service of proto/worker.proto, its frames as
// @grpc/proto-loader decodes them (field names in camelCase), and the payload codec
// (docs/workers.md, "Protocol").
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { z } from 'zod';
import type { Emit, Message } from '../plugin-api/index.js';

/** The service's full name, as grpcurl and the health service name it. */
export const WORKERS_SERVICE = 'workflow.workers.v1.Workers';

/**
 * proto/worker.proto: beside the compiled code in a build (dist/proto, where the build copies
 * it), else at the root of the source tree.
 */
export function protoFile(): string {
  const candidates = ['../proto/worker.proto', '../../proto/worker.proto'].map((where) =>
    fileURLToPath(new URL(where, import.meta.url)),
  );
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) throw new Error(`worker.proto is missing: ${candidates.join(', ')}`);
  return found;
}

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  enums: String,
  defaults: true,
  oneofs: true,
};

interface ServiceConstructor {
  new (
    address: string,
    credentials: grpc.ChannelCredentials,
    options?: grpc.ChannelOptions,
  ): grpc.Client;
  readonly service: grpc.ServiceDefinition;
}

let loaded: { definition: protoLoader.PackageDefinition; Workers: ServiceConstructor } | undefined;

/**
 * The loaded definition (reflection describes the service from it) and the Workers service;
 * read on first use, so a build without workers never reads the file.
 */
export function workersProto(): {
  definition: protoLoader.PackageDefinition;
  Workers: ServiceConstructor;
} {
  if (loaded === undefined) {
    const definition = protoLoader.loadSync(protoFile(), LOADER_OPTIONS);
    // grpc-js types a loaded package as nested records of unknown shape; this is the service
    // the proto file declares.
    const root = grpc.loadPackageDefinition(definition) as unknown as {
      workflow: { workers: { v1: { Workers: ServiceConstructor } } };
    };
    loaded = { definition, Workers: root.workflow.workers.v1.Workers };
  }
  return loaded;
}

/** A channel to a control plane's Workers service. */
export function workersClient(
  target: string,
  credentials: grpc.ChannelCredentials,
  options: grpc.ChannelOptions = {},
): grpc.Client {
  const { Workers } = workersProto();
  return new Workers(target, credentials, options);
}

/** A worker's side of the Connect call. */
export type WorkerCall = grpc.ClientDuplexStream<WorkerFrame, Received<ControlFrame>>;

/** Opens the Connect call on a channel made with `WorkersService`. */
export function connectCall(client: grpc.Client, metadata: grpc.Metadata): WorkerCall {
  // A client made from a loaded definition gets its methods at run time, untyped by grpc-js.
  return (client as unknown as { connect(metadata: grpc.Metadata): WorkerCall }).connect(metadata);
}

/** A message payload: JSON text, or bytes; neither means no payload. */
export interface WirePayload {
  readonly json?: string;
  readonly binary?: Buffer;
  /** Set by the decoder: which of the two arrived. */
  readonly value?: 'json' | 'binary';
}

export interface RegisterFrame {
  readonly name: string;
  readonly pool: string;
  readonly slots: number;
  readonly pluginTypes: readonly string[];
  readonly credits: number;
}

export interface OpenFrame {
  readonly node: string;
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly nodeId: string;
  readonly nodeType: string;
  readonly configJson: string;
  readonly startPayload?: WirePayload | null;
}

export interface WireMessage {
  readonly id: string;
  readonly headersJson: string;
  readonly payload?: WirePayload | null;
}

export interface ProcessFrame {
  readonly call: string;
  readonly node: string;
  readonly message: WireMessage;
}

export interface WireEmit {
  readonly payload?: WirePayload | null;
  readonly port: string;
  readonly headersJson: string;
}

export interface MeterFrame {
  readonly call: string;
  readonly kind: 'COUNT' | 'OBSERVE';
  readonly name: string;
  readonly value: number;
  readonly tags: Readonly<Record<string, string>>;
}

/** What a worker sends: exactly one field set. */
export type WorkerFrame =
  | { readonly register: RegisterFrame }
  | { readonly credit: { readonly count: number } }
  | { readonly result: { readonly call: string; readonly emits: readonly WireEmit[] } }
  | {
      readonly failed: {
        readonly call: string;
        readonly error: string;
        readonly retryable: boolean;
      };
    }
  | {
      readonly report: { readonly call: string; readonly event: string; readonly outcome: string };
    }
  | { readonly meter: MeterFrame };

/** What the control plane sends: exactly one field set. */
export type ControlFrame =
  | { readonly welcome: { readonly workerId: string } }
  | { readonly open: OpenFrame }
  | { readonly process: ProcessFrame }
  | { readonly cancel: { readonly call: string } }
  | { readonly close: { readonly node: string } };

/** A frame as received: the decoder names the field that is set in `frame`. */
export type Received<T> = Partial<UnionToFields<T>> & { readonly frame?: string };
type UnionToFields<T> = {
  [K in T extends unknown ? keyof T : never]: T extends Record<K, infer V> ? V : never;
};

/** A peer sent something this side cannot read; the call ends. */
export class WireError extends Error {
  override readonly name = 'WireError';
}

/** A payload as it travels: byte arrays as bytes, anything else as JSON text. */
export function encodePayload(payload: unknown): WirePayload | undefined {
  if (payload instanceof Uint8Array) {
    return { binary: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength) };
  }
  // JSON cannot write a cycle or a BigInt: that throws, and the call fails without retry.
  const json = JSON.stringify(payload) as string | undefined;
  return json === undefined ? undefined : { json };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new WireError(`${what} is not valid JSON`);
  }
}

export function decodePayload(wire: WirePayload | null | undefined): unknown {
  if (wire === null || wire === undefined) return undefined;
  if (wire.binary !== undefined && (wire.value ?? 'binary') === 'binary') {
    return Buffer.from(wire.binary);
  }
  return wire.json === undefined ? undefined : parseJson(wire.json, 'A payload');
}

const messageHeaders = z.looseObject({ attempt: z.number().int().min(1) });
const jsonObject = z.record(z.string(), z.unknown());

function parseObject<T>(schema: z.ZodType<T>, text: string, what: string): T {
  const parsed = schema.safeParse(parseJson(text, what));
  if (!parsed.success) {
    throw new WireError(`${what} is not as expected: ${parsed.error.issues[0]?.message ?? ''}`);
  }
  return parsed.data;
}

export function toWireMessage(message: Message): WireMessage {
  const payload = encodePayload(message.payload);
  return {
    id: message.id,
    headersJson: JSON.stringify(message.headers),
    ...(payload === undefined ? {} : { payload }),
  };
}

export function fromWireMessage(wire: WireMessage): Message {
  return {
    id: wire.id,
    headers: parseObject(messageHeaders, wire.headersJson, 'Message headers'),
    payload: decodePayload(wire.payload),
  };
}

export function toWireEmit(emit: Emit): WireEmit {
  const payload = encodePayload(emit.payload);
  return {
    port: emit.port ?? '',
    headersJson: emit.headers === undefined ? '' : JSON.stringify(emit.headers),
    ...(payload === undefined ? {} : { payload }),
  };
}

export function fromWireEmit(wire: WireEmit): Emit {
  return {
    payload: decodePayload(wire.payload),
    ...(wire.port === '' ? {} : { port: wire.port }),
    ...(wire.headersJson === ''
      ? {}
      : { headers: parseObject(jsonObject, wire.headersJson, 'Emit headers') }),
  };
}

/** A node's configuration from an Open frame. */
export function configOf(open: OpenFrame): Record<string, unknown> {
  return parseObject(jsonObject, open.configJson, 'The node configuration');
}
