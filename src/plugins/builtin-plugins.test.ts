import { describe, expect, it } from 'vitest';
import { OPTIONAL_PLUGIN_NAMES, createPluginRegistry } from './create-plugin-registry.js';
import type { RegisteredPlugin } from './registry.js';

const registry = createPluginRegistry({ optionalPlugins: OPTIONAL_PLUGIN_NAMES });

function plugin(type: string): RegisteredPlugin {
  const found = registry.find(type);
  if (found === undefined) throw new Error(`No plugin type ${type}`);
  return found;
}

/** The smallest configuration each type accepts. */
const MINIMAL: Readonly<Record<string, Record<string, unknown>>> = {
  MANUAL: {},
  CONSTANT_SOURCE: {},
  API_TRIGGER: {},
  CRON: { schedule: '*/5 * * * *' },
  CONSOLE_TERMINAL: {},
  NOTIFY_TERMINAL: {},
  FILTER: { expression: 'payload.n > 1' },
  BRANCH: { cases: [{ name: 'big', expression: 'payload.n > 1' }] },
  SPLITTER: {},
  AGGREGATOR: { size: 10 },
  RECIPIENT_LIST: { recipients: ['audit'] },
  MAPPER: { expression: '{"n": payload.n}' },
  CONTENT_FILTER: { fields: ['n'] },
  DELAY: { delayMs: 0 },
  LOOP_PREDICATE: { condition: 'n < 3' },
  LOOP_STREAM: { condition: 'n < 3' },
  SUB_WORKFLOW: { workflowId: 'child' },
  WAIT_FOR_SIGNAL: {},
  PROCESS_EXECUTOR: { command: 'echo' },
  HTTP_REQUEST: { url: 'https://example.com/items' },
  FILE_READ: { path: 'in.txt' },
  FILE_WRITE: { path: 'out.txt' },
  SQL_QUERY: { url: 'postgres://localhost/orders', query: 'select 1' },
  WEBHOOK_TRIGGER: {},
  NATS_SUBSCRIBE: { servers: 'nats://localhost:4222', stream: 'orders', consumer: 'svc' },
  NATS_PUBLISH: { servers: 'nats://localhost:4222', subject: 'orders.done' },
  AMQP_CONSUME: { url: 'amqp://localhost:5672', queue: 'orders' },
  AMQP_PUBLISH: { url: 'amqp://localhost:5672', routingKey: 'orders.done' },
  REDIS_STREAM_READ: { url: 'redis://localhost:6379', stream: 'orders', group: 'svc' },
  REDIS_STREAM_ADD: { url: 'redis://localhost:6379', stream: 'orders.done' },
  MQTT_SUBSCRIBE: { url: 'mqtt://localhost:1883', topic: 'orders/#' },
  MQTT_PUBLISH: { url: 'mqtt://localhost:1883', topic: 'orders/done' },
  LLM_CALL: { provider: 'local' },
  SESSION_MEMORY: {},
  SCORE: { expression: 'payload.n * 2' },
  ANOMALY: { field: 'latency' },
  GATE: { expression: 'payload.ok' },
  CLASSIFY: { classes: [{ name: 'spam', expression: 'payload.spam' }] },
  ASK: { question: 'Ship it?' },
  DEDUPE: {},
  MCP_TOOL_CALL: { url: 'http://localhost:3000/mcp', tool: 'search' },
  MCP_LIST_TOOLS: { url: 'http://localhost:3000/mcp' },
};

describe('built-in plugin types', () => {
  it('cover every type SPEC and CONTRACT section 1 name', () => {
    expect(registry.list().map((info) => info.type)).toEqual(Object.keys(MINIMAL).sort());
  });

  it.each(Object.entries(MINIMAL))('%s accepts its smallest configuration', (type, config) => {
    expect(plugin(type).validateConfig(config)).toEqual([]);
  });

  it.each(Object.keys(MINIMAL))('%s accepts keys it does not know (CONTRACT section 2)', (type) => {
    expect(plugin(type).validateConfig({ ...MINIMAL[type], vendorExtension: { any: 1 } })).toEqual(
      [],
    );
  });

  it.each([
    ['CRON', 'schedule', "Missing required key 'schedule'"],
    ['FILTER', 'expression', "Missing required key 'expression'"],
    ['BRANCH', 'cases', "Missing required key 'cases'"],
    ['AGGREGATOR', 'size', 'AGGREGATOR needs size, timeoutMs or both'],
    ['RECIPIENT_LIST', 'recipients', "Missing required key 'recipients'"],
    ['MAPPER', 'expression', "MAPPER mode PROJECTION needs 'expression'"],
    ['CONTENT_FILTER', 'fields', 'CONTENT_FILTER needs fields or expression'],
    ['DELAY', 'delayMs', "Missing required key 'delayMs'"],
    ['LOOP_PREDICATE', 'condition', "Missing required key 'condition'"],
    ['LOOP_STREAM', 'condition', "Missing required key 'condition'"],
    ['SUB_WORKFLOW', 'workflowId', "Missing required key 'workflowId'"],
    ['PROCESS_EXECUTOR', 'command', "Missing required key 'command'"],
    ['HTTP_REQUEST', 'url', "Missing required key 'url'"],
    ['FILE_READ', 'path', "Missing required key 'path'"],
    ['FILE_WRITE', 'path', "Missing required key 'path'"],
    ['SQL_QUERY', 'query', "Missing required key 'query'"],
    ['SQL_QUERY', 'url', "Missing required key 'url'"],
    ['LLM_CALL', 'provider', "Missing required key 'provider'"],
    ['SCORE', 'expression', "Missing required key 'expression'"],
    ['ANOMALY', 'field', 'ANOMALY needs field or expression'],
    ['GATE', 'expression', "Missing required key 'expression'"],
    ['CLASSIFY', 'classes', "Missing required key 'classes'"],
    ['ASK', 'question', 'ASK needs question or prompt'],
    ['MCP_TOOL_CALL', 'url', "Missing required key 'url'"],
    ['MCP_TOOL_CALL', 'tool', "Missing required key 'tool'"],
    ['MCP_LIST_TOOLS', 'url', "Missing required key 'url'"],
  ])('%s cannot work without %s', (type, key, message) => {
    const config = Object.fromEntries(
      Object.entries(MINIMAL[type] ?? {}).filter(([name]) => name !== key),
    );
    expect(plugin(type).validateConfig(config)).toEqual([{ field: key, message }]);
  });

  it.each([
    ['AGGREGATOR', { timeoutMs: 1000 }],
    ['CONTENT_FILTER', { expression: '$sift($, function($v, $k) {$k != "secret"})' }],
    ['ANOMALY', { expression: 'payload.latency', threshold: 3 }],
    ['ASK', { prompt: 'Ship it?' }],
  ])('%s accepts the alternative key in %j', (type, config) => {
    expect(plugin(type).validateConfig(config)).toEqual([]);
  });

  it.each([
    ['CONSTANT_SOURCE', { messages: 'hello' }, 'messages', 'Expected an array, got a string'],
    ['API_TRIGGER', { splitArray: 'yes' }, 'splitArray', 'Expected a boolean, got a string'],
    ['CRON', { ...MINIMAL['CRON'], maxRuns: 0 }, 'maxRuns', 'Must be greater than 0'],
    [
      'NOTIFY_TERMINAL',
      { webhookUrl: 'ftp://example.com' },
      'webhookUrl',
      "Must be an http or https URL, got 'ftp://example.com'",
    ],
    ['AGGREGATOR', { size: 1.5 }, 'size', 'Expected an integer, got a number'],
    ['DELAY', { delayMs: -1 }, 'delayMs', 'Must be at least 0'],
    [
      'LOOP_STREAM',
      { ...MINIMAL['LOOP_STREAM'], maxIterations: 0 },
      'maxIterations',
      'Must be greater than 0',
    ],
    ['SUB_WORKFLOW', { workflowId: '' }, 'workflowId', 'Must not be empty'],
    ['WAIT_FOR_SIGNAL', { timeoutSeconds: 0 }, 'timeoutSeconds', 'Must be greater than 0'],
    [
      'PROCESS_EXECUTOR',
      { command: 'ls', args: ['-l', 2] },
      'args[1]',
      'Expected a string, got an integer',
    ],
    [
      'PROCESS_EXECUTOR',
      { command: 'ls', env: { HOME: 1 } },
      'env.HOME',
      'Expected a string, got an integer',
    ],
    [
      'PROCESS_EXECUTOR',
      { command: 'ls', useShell: 'no' },
      'useShell',
      'Expected a boolean, got a string',
    ],
    [
      'HTTP_REQUEST',
      { url: 'https://x', method: 'FETCH' },
      'method',
      'Must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
    ],
    [
      'FILE_READ',
      { path: 'a', encoding: 'ebcdic' },
      'encoding',
      'Must be one of utf8, utf-8, utf16le, latin1, ascii, base64, base64url, hex',
    ],
    ['FILE_WRITE', { path: 'a', append: 1 }, 'append', 'Expected a boolean, got an integer'],
    [
      'SQL_QUERY',
      { url: 'postgres://localhost/orders', query: 'select 1', params: 'x' },
      'params',
      'Expected an array, got a string',
    ],
    ['LLM_CALL', { provider: 'local', maxTokens: 0 }, 'maxTokens', 'Must be greater than 0'],
    ['SESSION_MEMORY', { operation: 'DROP' }, 'operation', 'Must be one of APPEND, READ, CLEAR'],
    ['ANOMALY', { field: 'x', threshold: 'high' }, 'threshold', 'Expected a number, got a string'],
    ['DEDUPE', { ttlMs: 0 }, 'ttlMs', 'Must be greater than 0'],
    [
      'MCP_TOOL_CALL',
      { ...MINIMAL['MCP_TOOL_CALL'], arguments: [1] },
      'arguments',
      'Expected an object, got an array',
    ],
    [
      'RECIPIENT_LIST',
      { recipients: ['error'] },
      'recipients[0]',
      "The recipient name 'error' is reserved; out, error are ports of their own",
    ],
    [
      'CLASSIFY',
      { classes: [{ name: 'default', expression: 'true' }] },
      'classes[0].name',
      "The class name 'default' is reserved; out, default, error are ports of their own",
    ],
  ])('%s type-checks its known keys: %j', (type, config, field, message) => {
    expect(plugin(type).validateConfig(config)).toEqual([{ field, message }]);
  });

  it.each([
    ['FILTER', { expression: 'payload.n >' }, 'expression'],
    ['BRANCH', { cases: [{ name: 'a', expression: 'x = ' }] }, 'cases[0].expression'],
    ['SPLITTER', { expression: 'items[' }, 'expression'],
    ['AGGREGATOR', { size: 2, expression: '$sum(' }, 'expression'],
    ['RECIPIENT_LIST', { recipients: ['a'], expression: '"a' }, 'expression'],
    ['MAPPER', { expression: '{"a": }' }, 'expression'],
    ['CONTENT_FILTER', { expression: '$$$(' }, 'expression'],
    ['LOOP_PREDICATE', { condition: 'n <' }, 'condition'],
    ['LOOP_STREAM', { condition: 'n < 3', expression: 'n +' }, 'expression'],
    ['SCORE', { expression: '* 2' }, 'expression'],
    ['ANOMALY', { expression: 'a.(' }, 'expression'],
    ['GATE', { expression: 'payload.ok and' }, 'expression'],
    ['CLASSIFY', { classes: [{ name: 'a', expression: '[' }] }, 'classes[0].expression'],
    ['DEDUPE', { key: 'id +' }, 'key'],
  ])('%s refuses a JSONata syntax error (CONTRACT section 1)', (type, config, field) => {
    const [error, ...more] = plugin(type).validateConfig(config);
    expect(more).toEqual([]);
    expect(error?.field).toBe(field);
    expect(error?.message).toMatch(/^Invalid JSONata expression: /);
  });

  it('CRON refuses an invalid cron expression', () => {
    expect(plugin('CRON').validateConfig({ schedule: '* * *' })).toEqual([
      {
        field: 'schedule',
        message:
          "Invalid cron expression: invalid configuration format ('* * *'), exactly five, six, or seven space separated parts are required.",
      },
    ]);
  });

  it('MAPPER TEMPLATE needs a template that compiles (CONTRACT section 1)', () => {
    const mapper = plugin('MAPPER');
    expect(mapper.validateConfig({ mode: 'TEMPLATE', template: 'Hi {{name}}' })).toEqual([]);
    expect(mapper.validateConfig({ mode: 'TEMPLATE' })).toEqual([
      { field: 'template', message: "MAPPER mode TEMPLATE needs 'template'" },
    ]);
    const [error] = mapper.validateConfig({ mode: 'TEMPLATE', template: 'Hi {{name' });
    expect(error?.field).toBe('template');
    expect(error?.message).toMatch(/^Invalid Handlebars template: Parse error/);
  });

  it('MAPPER SCRIPT needs a script when the build includes script-js (SPEC Build-time choices)', () => {
    const mapper = plugin('MAPPER');
    expect(mapper.validateConfig({ mode: 'SCRIPT', script: 'return payload;' })).toEqual([]);
    expect(mapper.validateConfig({ mode: 'SCRIPT' })).toEqual([
      { field: 'script', message: "MAPPER mode SCRIPT needs 'script'" },
    ]);
  });

  it('MAPPER SCRIPT is refused when the build leaves script-js out (SPEC Build-time choices)', () => {
    const withoutScripts = createPluginRegistry({ optionalPlugins: [] }).find('MAPPER');
    expect(withoutScripts?.validateConfig({ mode: 'SCRIPT', script: 'return payload;' })).toEqual([
      {
        field: 'mode',
        message: 'MAPPER mode SCRIPT needs the script-js plugin, which this build does not include',
      },
    ]);
    expect(withoutScripts?.validateConfig({ mode: 'PROJECTION', expression: '$' })).toEqual([]);
  });

  it.each([
    ['FILTER', MINIMAL['FILTER'], ['out', 'rejected']],
    [
      'BRANCH',
      {
        cases: [
          { name: 'hi', expression: 'n > 1' },
          { name: 'lo', expression: 'n <= 1' },
        ],
      },
      ['out', 'hi', 'lo', 'default'],
    ],
    ['GATE', MINIMAL['GATE'], ['out', 'pass', 'block']],
    ['WAIT_FOR_SIGNAL', {}, ['out', 'approved', 'rejected']],
    [
      'CLASSIFY',
      {
        classes: [
          { name: 'spam', expression: 's' },
          { name: 'ham', expression: 'h' },
        ],
      },
      ['out', 'spam', 'ham', 'default'],
    ],
    ['RECIPIENT_LIST', { recipients: ['audit', 'billing'] }, ['out', 'audit', 'billing']],
    ['MAPPER', MINIMAL['MAPPER'], ['out']],
    ['CONSOLE_TERMINAL', {}, ['out']],
  ])('%s has the output ports of CONTRACT section 2 for %j', (type, config, ports) => {
    expect(plugin(type).outputPorts(config ?? {})).toEqual(ports);
  });

  it.each([
    ['MANUAL', 'trigger'],
    ['CONSTANT_SOURCE', 'trigger'],
    ['API_TRIGGER', 'trigger'],
    ['CRON', 'trigger'],
    ['CONSOLE_TERMINAL', 'terminal'],
    ['NOTIFY_TERMINAL', 'terminal'],
    ['FILTER', 'processor'],
    ['HTTP_REQUEST', 'processor'],
  ])('%s is a %s (CONTRACT section 1)', (type, kind) => {
    expect(plugin(type).kind).toBe(kind);
  });

  it('sets the default idle timeout of the types that wait on the outside world (SPEC Limits)', () => {
    const timeouts = Object.fromEntries(
      registry
        .list()
        .filter((info) => info.defaultTimeoutSeconds !== null)
        .map((info) => [info.type, info.defaultTimeoutSeconds]),
    );
    expect(timeouts).toEqual({
      ASK: 3600,
      HTTP_REQUEST: 30,
      LLM_CALL: 30,
      MCP_LIST_TOOLS: 30,
      MCP_TOOL_CALL: 30,
      PROCESS_EXECUTOR: 30,
      SQL_QUERY: 30,
      WAIT_FOR_SIGNAL: 3600,
    });
  });
});
