// The built-in plugin types: those every build has, and those of each optional plugin
// (SPEC Build-time choices).
import type { PluginDefinition } from '../plugin-api/index.js';
import { anomalyPlugin } from './builtin/decision/anomaly.js';
import { askPlugin } from './builtin/decision/ask.js';
import { classifyPlugin } from './builtin/decision/classify.js';
import { dedupePlugin } from './builtin/decision/dedupe.js';
import { gatePlugin } from './builtin/decision/gate.js';
import { scorePlugin } from './builtin/decision/score.js';
import { fileReadPlugin } from './builtin/file-io/file-read.js';
import { fileWritePlugin } from './builtin/file-io/file-write.js';
import { aggregatorPlugin } from './builtin/flow/aggregator.js';
import { branchPlugin } from './builtin/flow/branch.js';
import { delayPlugin } from './builtin/flow/delay.js';
import { filterPlugin } from './builtin/flow/filter.js';
import { loopPredicatePlugin, loopStreamPlugin } from './builtin/flow/loop.js';
import { recipientListPlugin } from './builtin/flow/recipient-list.js';
import { splitterPlugin } from './builtin/flow/splitter.js';
import { subWorkflowPlugin } from './builtin/flow/sub-workflow.js';
import { waitForSignalPlugin } from './builtin/flow/wait-for-signal.js';
import { httpRequestPlugin } from './builtin/http-request/http-request.js';
import { llmCallPlugin } from './builtin/llm-call/llm-call.js';
import { mcpListToolsPlugin } from './builtin/mcp-tool-call/mcp-list-tools.js';
import { mcpToolCallPlugin } from './builtin/mcp-tool-call/mcp-tool-call.js';
import { processExecutorPlugin } from './builtin/process-executor/process-executor.js';
import { sessionMemoryPlugin } from './builtin/session-memory/session-memory.js';
import { sqlQueryPlugin } from './builtin/sql-query/sql-query.js';
import { consoleTerminalPlugin } from './builtin/terminals/console-terminal.js';
import { notifyTerminalPlugin } from './builtin/terminals/notify-terminal.js';
import { contentFilterPlugin } from './builtin/transform/content-filter.js';
import { createMapperPlugin } from './builtin/transform/mapper.js';
import { apiTriggerPlugin } from './builtin/triggers/api-trigger.js';
import { constantSourcePlugin } from './builtin/triggers/constant-source.js';
import { cronPlugin } from './builtin/triggers/cron.js';
import { manualPlugin } from './builtin/triggers/manual.js';
import { webhookTriggerPlugin } from './builtin/triggers/webhook-trigger.js';
import { natsPublishPlugin } from './builtin/nats/nats-publish.js';
import { natsSubscribePlugin } from './builtin/nats/nats-subscribe.js';
import { amqpConsumePlugin } from './builtin/amqp/amqp-consume.js';
import { amqpPublishPlugin } from './builtin/amqp/amqp-publish.js';
import { redisStreamAddPlugin } from './builtin/redis-streams/redis-stream-add.js';
import { redisStreamReadPlugin } from './builtin/redis-streams/redis-stream-read.js';
import { mqttPublishPlugin } from './builtin/mqtt/mqtt-publish.js';
import { mqttSubscribePlugin } from './builtin/mqtt/mqtt-subscribe.js';
import type { PluginRegistry } from './registry.js';

/**
 * A plugin definition with its configuration type hidden, so that definitions of different
 * configuration types can share one list and still register type-safely.
 */
export interface PluginEntry {
  readonly type: string;
  register(registry: PluginRegistry, origin: string): void;
}

export function entry<Config, Settings>(
  definition: PluginDefinition<Config, Settings>,
): PluginEntry {
  return {
    type: definition.type,
    register: (registry, origin) => {
      registry.register(definition, origin);
    },
  };
}

export interface CorePluginOptions {
  /** Whether the build includes the script-js optional plugin (MAPPER mode SCRIPT). */
  readonly scripts: boolean;
}

/** Triggers, console and notify terminals, flow and transform processors: always built. */
export function corePlugins(options: CorePluginOptions): PluginEntry[] {
  return [
    entry(manualPlugin),
    entry(constantSourcePlugin),
    entry(apiTriggerPlugin),
    entry(cronPlugin),
    entry(consoleTerminalPlugin),
    entry(notifyTerminalPlugin),
    entry(filterPlugin),
    entry(branchPlugin),
    entry(splitterPlugin),
    entry(aggregatorPlugin),
    entry(recipientListPlugin),
    entry(createMapperPlugin(options)),
    entry(contentFilterPlugin),
    entry(delayPlugin),
    entry(loopPredicatePlugin),
    entry(loopStreamPlugin),
    entry(subWorkflowPlugin),
    entry(waitForSignalPlugin),
  ];
}

/** SPEC Build-time choices: the node types each optional plugin provides. */
export const OPTIONAL_PLUGINS = {
  'process-executor': [entry(processExecutorPlugin)],
  'http-request': [entry(httpRequestPlugin)],
  'file-io': [entry(fileReadPlugin), entry(fileWritePlugin)],
  'sql-query': [entry(sqlQueryPlugin)],
  'llm-call': [entry(llmCallPlugin)],
  'session-memory': [entry(sessionMemoryPlugin)],
  decision: [
    entry(scorePlugin),
    entry(anomalyPlugin),
    entry(gatePlugin),
    entry(classifyPlugin),
    entry(askPlugin),
    entry(dedupePlugin),
  ],
  'mcp-tool-call': [entry(mcpToolCallPlugin), entry(mcpListToolsPlugin)],
  webhook: [entry(webhookTriggerPlugin)],
  nats: [entry(natsSubscribePlugin), entry(natsPublishPlugin)],
  amqp: [entry(amqpConsumePlugin), entry(amqpPublishPlugin)],
  'redis-streams': [entry(redisStreamReadPlugin), entry(redisStreamAddPlugin)],
  mqtt: [entry(mqttSubscribePlugin), entry(mqttPublishPlugin)],
  // Adds no type: it enables MAPPER's SCRIPT mode.
  'script-js': [],
} as const satisfies Readonly<Record<string, readonly PluginEntry[]>>;

export type OptionalPluginName = keyof typeof OPTIONAL_PLUGINS;
