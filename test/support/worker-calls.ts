// Raw Connect calls of the Workers service, the way any gRPC client could make them: to see
// what the control plane answers a caller that is not a well-behaved worker.
import * as grpc from '@grpc/grpc-js';
import { TOKEN_METADATA, connectCall, workersClient } from '../../src/workers/index.js';
import type {
  ControlFrame,
  Received,
  RegisterFrame,
  WorkerFrame,
} from '../../src/workers/index.js';

export interface RawCallOptions {
  /** `host:port` of the workers port. */
  readonly target: string;
  /** Plain HTTP/2 by default. */
  readonly credentials?: grpc.ChannelCredentials;
  /** The `authorization` metadata; none when undefined. */
  readonly authorization: string | undefined;
  /** What the caller sends once the call is open. */
  readonly frames: readonly WorkerFrame[];
  /** Whether to end its side after the first frame it receives (a welcome). */
  readonly endOnAnswer?: boolean;
}

export interface RawCallResult {
  readonly status: grpc.StatusObject;
  readonly frames: Received<ControlFrame>[];
}

/** A registration a worker could send. */
export function registration(fields: Partial<RegisterFrame> = {}): WorkerFrame {
  return {
    register: {
      name: 'x',
      pool: 'default',
      slots: 1,
      pluginTypes: ['MAPPER'],
      credits: 1,
      ...fields,
    },
  };
}

/** Opens a Connect call, sends `frames`, and answers how the call ended and what came back. */
export async function rawConnect(options: RawCallOptions): Promise<RawCallResult> {
  const client = workersClient(
    options.target,
    options.credentials ?? grpc.credentials.createInsecure(),
  );
  try {
    const metadata = new grpc.Metadata();
    if (options.authorization !== undefined) metadata.set(TOKEN_METADATA, options.authorization);
    const call = connectCall(client, metadata);
    const frames: Received<ControlFrame>[] = [];
    call.on('data', (frame: Received<ControlFrame>) => {
      frames.push(frame);
      if (options.endOnAnswer === true) call.end();
    });
    call.on('error', () => undefined);
    const status = new Promise<grpc.StatusObject>((resolve) => call.on('status', resolve));
    for (const frame of options.frames) call.write(frame);
    return { status: await status, frames };
  } finally {
    client.close();
  }
}
