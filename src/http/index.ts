export { createHttpServer, pathOf } from './server.js';
export type { HttpServer, HttpServerOptions } from './server.js';
export { HTTP_STATUS_BY_CODE, httpStatusOf } from './error-mapping.js';
export { errorEnvelope, successEnvelope } from './envelope.js';
export type { ErrorEnvelope, SuccessEnvelope } from './envelope.js';
export { registerSessionRoutes } from './sessions.routes.js';
export { registerWorkflowRoutes } from './workflows.routes.js';
export { registerPluginRoutes } from './plugins.routes.js';
export { registerWorkerRoutes } from './workers.routes.js';
export { RouteTable } from './route-table.js';
export type { RouteEntry } from './route-table.js';
export { renderErrorsDoc } from './errors-doc.js';
export { registerExecutionRoutes } from './executions.routes.js';
export { ACTUATOR_ENDPOINTS, registerActuatorRoutes } from './actuator.routes.js';
export type { ActuatorOptions } from './actuator.routes.js';
export { API_VERSION, registerOpenApi, registerOpenApiRoutes } from './openapi.js';
export {
  auditActor,
  registerControlRoutes,
  registerExecutionControlRoutes,
} from './control.routes.js';
export { registerEventRoutes } from './events.routes.js';
export type { EventStreams } from './events.routes.js';
export { registerRestartRoutes } from './restart.routes.js';
export { SseStream, lastEventId } from './sse.js';
export type { SseOptions } from './sse.js';
export {
  UI_ASSET_CACHE_CONTROL,
  UI_CONTENT_SECURITY_POLICY,
  UI_PAGE_CACHE_CONTROL,
  WEB_UI_DIR,
  isUiPath,
  loadUiBundle,
  registerUiRoutes,
} from './ui.routes.js';
export type { UiBundle, UiRoutesOptions } from './ui.routes.js';
