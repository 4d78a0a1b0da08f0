// Remote workers (SPEC "Build-time choices": svc.workers=true; docs/workers.md): the control
// plane's listener and registry, the worker's connection and runtimes, and their protocol.
export { ControlPlaneServer, controlPlaneFromSettings } from './control-plane-server.js';
export type { ControlPlaneOptions } from './control-plane-server.js';
export {
  LineDecoder,
  MAX_LINE_CHARS,
  MISSED_HEARTBEATS,
  PROTOCOL_VERSION,
  ProtocolError,
  encodeLine,
  parseControlMessage,
  parseWorkerMessage,
} from './protocol.js';
export type { ControlMessage, RefusalReason, WorkerMessage } from './protocol.js';
export { BUNDLE_FILES, readTlsBundle } from './tls-bundle.js';
export type { TlsBundle } from './tls-bundle.js';
export { WorkerClient, WorkerRefusedError } from './worker-client.js';
export type { WorkerClientOptions } from './worker-client.js';
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
