// The only surface a plugin compiles against, exported by the package as
// `workflow-service/plugin-api` (docs/writing-a-plugin.md). Built-in plugins import nothing
// else of the server.
import { z } from 'zod';

export { z };
export { messageOf } from '../core/index.js';
export { definePlugin } from './plugin-definition.js';
export type { NodeFactory, NodeKind, PluginDefinition, PluginSetup } from './plugin-definition.js';
export { pluginSettings } from './plugin-settings.js';
export type { PluginSettings, PluginSettingsOptions, SettingValues } from './plugin-settings.js';
export { collectEmits, isEmitStream } from './message.js';
export type { Emit, EmitStream, Message, MessageHeaders, ProcessResult } from './message.js';
export { StepFailure } from './step-failure.js';
export { Credits } from './settlement.js';
export {
  answerWhenTaken,
  bodyOf,
  consumerCredit,
  deadLetterReason,
  decodeBody,
  decodeOption,
  MAX_CONSUMER_CREDIT,
  needsDeadLetterTarget,
  publishConcurrency,
} from './broker-messages.js';
export type { DeadLetterReason } from './broker-messages.js';
export type { Settlement, SettlementFailure, SettlementOutcome } from './settlement.js';
export { SIGNAL_WAITS_PER_NODE } from './node-context.js';
export type {
  NodeContext,
  MeterTags,
  NodeLog,
  PluginMeter,
  SignalAnswer,
  SignalRequest,
  SubWorkflowRequest,
} from './node-context.js';
export { NO_CALL_SPAN, serverAttributes, withCallSpan } from './call-span.js';
export type { CallSpan, OutgoingCall, SpanAttributes, SpanAttributeValue } from './call-span.js';
export { isStreamNode } from './node-runtime.js';
export type { MessageProcessor, NodeRuntime, StreamNode } from './node-runtime.js';
export type { NodeSetup, SessionMemory } from './node-setup.js';
export { compileExpression, EXPRESSION_LIMITS, isTruthy } from './expressions.js';
export { compileTemplate, RENDER_LIMITS, TEMPLATE_LIMITS } from './templates.js';
export type { CompiledTemplate } from './templates.js';
export type { CompiledExpression } from './expressions.js';
export { setEvaluationTimeLimit } from './evaluation-budget.js';
export type { EvaluationScope } from './evaluation-budget.js';
export {
  checkingExpressionsTogether,
  configuredPorts,
  cronSchedule,
  handlebarsProblem,
  handlebarsTemplate,
  httpUrl,
  jsonataExpression,
  namedExpressions,
  nonNegativeInt,
  portNameList,
  positiveInt,
  requireOneOf,
} from './config-schemas.js';
export { describeFetchError } from './fetch-errors.js';
