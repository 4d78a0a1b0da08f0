// Remote workers (SPEC "Build-time choices": svc.workers=true; docs/workers.md): the control
// plane's gRPC server and registry, the worker's call and runtimes, and their protocol.
export { ControlPlaneServer, controlPlaneFromSettings } from './control-plane-server.js';
export type { ControlPlaneOptions } from './control-plane-server.js';
export { TOKEN_METADATA, keepaliveOptions } from './call-options.js';
export {
  WORKERS_SERVICE,
  WireError,
  connectCall,
  decodePayload,
  encodePayload,
  fromWireEmit,
  fromWireMessage,
  toWireEmit,
  toWireMessage,
  protoFile,
  workersClient,
  workersProto,
} from './wire.js';
export type { ControlFrame, Received, RegisterFrame, WorkerCall, WorkerFrame } from './wire.js';
export { BUNDLE_FILES, readTlsBundle } from './tls-bundle.js';
export type { TlsBundle } from './tls-bundle.js';
export { WorkerClient, WorkerRefusedError } from './worker-client.js';
export type { RefusalReason, WorkerClientOptions } from './worker-client.js';
export { WorkerHost } from './worker-host.js';
export type { WorkerHostOptions } from './worker-host.js';
export { WorkerRegistry, noWorkerMessage } from './worker-registry.js';
export type {
  PoolView,
  WorkerConnectionInfo,
  WorkerLink,
  WorkerRegistryOptions,
  WorkerView,
  WorkersView,
} from './worker-registry.js';
export type { WorkersLogger } from './workers-logger.js';
