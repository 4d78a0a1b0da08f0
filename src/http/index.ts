export { createHttpServer, pathOf } from './server.js';
export type { HttpServer, HttpServerOptions } from './server.js';
export type { AnswerMismatch } from './answer-check.js';
export { HTTP_STATUS_BY_CODE, httpStatusOf } from './error-mapping.js';
export { errorEnvelope, successEnvelope } from './envelope.js';
export type { ErrorEnvelope, SuccessEnvelope } from './envelope.js';
export { sessionRoutes } from './sessions.routes.js';
export type { SessionRoutesOptions } from './sessions.routes.js';
export { workflowRoutes } from './workflows.routes.js';
export type { WorkflowRoutesOptions } from './workflows.routes.js';
export { pluginRoutes } from './plugins.routes.js';
export type { PluginRoutesOptions } from './plugins.routes.js';
export { workerRoutes } from './workers.routes.js';
export type { WorkerRoutesOptions } from './workers.routes.js';
export { RouteTable } from './route-table.js';
export type { RouteEntry } from './route-table.js';
export { renderErrorsDoc } from './errors-doc.js';
export { executionRoutes } from './executions.routes.js';
export { hookRoutes } from './hooks.routes.js';
export { activationRoutes } from './activation.routes.js';
export type { ExecutionRoutesOptions } from './executions.routes.js';
export { ACTUATOR_ENDPOINTS, actuatorRoutes } from './actuator.routes.js';
export type { ActuatorOptions } from './actuator.routes.js';
export { API_VERSION, openApiRoutes, registerOpenApi } from './openapi.js';
export { controlRoutes, executionControlRoutes } from './control.routes.js';
export { EventStreams, eventRoutes } from './events.routes.js';
export type { EventRoutesOptions } from './events.routes.js';
export { restartRoutes } from './restart.routes.js';
export { deadLetterRoutes } from './dead-letters.routes.js';
export type { DeadLetterRoutesOptions } from './dead-letters.routes.js';
export { SseStream, lastEventId } from './sse.js';
export type { SseOptions } from './sse.js';
export {
  UI_ASSET_CACHE_CONTROL,
  UI_CONTENT_SECURITY_POLICY,
  UI_PAGE_CACHE_CONTROL,
  WEB_UI_DIR,
  isUiPath,
  loadUiBundle,
  uiRoutes,
} from './ui.routes.js';
export type { UiBundle, UiRoutesOptions } from './ui.routes.js';
