// Plugin discovery and the guides an agent reads before it defines sessions and workflows.
import { AppError } from '../../core/index.js';
import { defineTool, id, items } from '../tool.js';

const EXAMPLE_SESSION = {
  sessionId: 'demo',
  name: 'Demo',
  initiator: 'agent',
  description: 'Greets whoever starts it',
  workflows: [
    {
      workflowId: 'hello',
      description: 'say hello',
      nodes: [
        { nodeId: 'start', type: 'API_TRIGGER' },
        {
          nodeId: 'greet',
          type: 'MAPPER',
          config: { mode: 'TEMPLATE', template: 'Hello {{name}}' },
        },
        { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
      ],
      edges: [
        { source: 'start', target: 'greet' },
        { source: 'greet', target: 'print' },
      ],
    },
  ],
};

const SESSION_INSTRUCTIONS = [
  'A session holds workflows. Create one with create_session: name and initiator are mandatory;',
  'sessionId (default: a new id), description and workflows are optional.',
  'A workflow is a directed acyclic graph: { workflowId, description, nodes, edges }.',
  'Each node is { nodeId, type, config? }; at least one node must be a trigger (MANUAL,',
  'CONSTANT_SOURCE, API_TRIGGER, CRON), and at most 500 nodes and 2000 edges are allowed.',
  'Each edge is { source, target, sourcePort? }; without sourcePort every message is routed.',
  'Engine settings live inside config: timeoutSeconds, onError (FAIL, SKIP, ERROR_PORT) and',
  'engine.{deadlineMs, elementTimeoutMs, retry.maxAttempts, retry.backoffMs, edgeBuffer.size,',
  'edgeBuffer.overflow, trigger}. Expressions are JSONata over the payload; templates are',
  'Handlebars. list_plugins names every node type with its configuration schema and ports;',
  'validate_workflow checks a draft without saving it; define_workflow saves a new version.',
  'Start a workflow with start_workflow and follow it with get_workflow_status.',
].join(' ');

const PLUGIN_GUIDE = [
  'Plugins are built into the server (chosen when it is built: svc.plugins) or loaded when it',
  'starts from the directory svc.plugins.dir (docs/writing-a-plugin.md); none can be added to',
  'a running server. A plugin is declared with definePlugin from the plugin API',
  "(workflow-service/plugin-api): { type, kind ('trigger' | 'processor' | 'terminal'),",
  'description, configSchema (a zod schema of its own config keys), outputPorts(config)',
  "(every node has 'out'), defaultTimeoutSeconds?, settings? (pluginSettings: the svc.* keys",
  'it reads, the only ones it gets, as setup.settings), create(config, setup) }. create answers',
  'the run-time part: most plugins implement process(message, ctx), called once per message',
  'and answering nothing, one emit or several ({ payload, port?, headers? }); triggers and',
  'stateful plugins implement run(input, ctx), an async iterable of emits pulled at the pace',
  "of the node's children. The engine adds retries, timeouts, onError, checkpoints and",
  'controls. Fail a message with StepFailure.retryable(...) or StepFailure.nonRetryable(...)',
  '(bad input is never retried). The context gives executionId, nodeId, signal (aborted when',
  'the run stops or the node times out), log, now, sleep, runSubWorkflow, awaitSignal and',
  'report(event, outcome) for svc.plugin.events, and meter.count / meter.observe for the',
  'meters of plugins (llm.tokens, llm.cost, svc.mcp.call). Message ids are stable across replays and',
  'resumes: use them with headers.attempt as idempotency keys for side effects. Register the',
  'plugin in the plugin list of src/plugins and describe it in docs/plugins.md, or put it in',
  'svc.plugins.dir.',
].join(' ');

export const catalogTools = [
  defineTool({
    name: 'list_plugins',
    role: 'VIEWER',
    scope: 'global',
    description:
      'Lists every plugin type of this build: kind, configuration JSON Schema and ports.',
    input: {},
    run: (_input, { plugins }) => items(plugins.list()),
  }),
  defineTool({
    name: 'get_plugin_details',
    role: 'VIEWER',
    scope: 'global',
    description: 'Describes one plugin type: kind, configuration JSON Schema and output ports.',
    input: { type: id('type', 'A node type of this build, e.g. "MAPPER" (see list_plugins).') },
    run: ({ type }, { plugins }) => {
      const description = plugins.describe(type);
      if (description === undefined)
        throw new AppError('PLUGIN_TYPE_NOT_FOUND', { params: { type } });
      return description;
    },
  }),
  defineTool({
    name: 'get_session_creation_instructions',
    role: 'VIEWER',
    scope: 'open',
    description: 'How to create a session and define its workflows, with an example.',
    input: {},
    run: (_input, { plugins }) => ({
      instructions: SESSION_INSTRUCTIONS,
      nodeTypes: plugins.list().map((plugin) => plugin.type),
      example: EXAMPLE_SESSION,
    }),
  }),
  defineTool({
    name: 'get_plugin_creation_guide',
    role: 'VIEWER',
    scope: 'open',
    description: 'How a plugin type is written with the plugin API and built into the server.',
    input: {},
    run: () => ({ guide: PLUGIN_GUIDE }),
  }),
];
