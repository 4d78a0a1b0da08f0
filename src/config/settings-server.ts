// The settings of the server itself: its address and HTTP limits, logging, keys, the edges
// (MCP, origins), and what plugins may reach. Part of `SETTINGS` (schema.ts).
import {
  MAX_TIMER_MS,
  bool,
  int,
  mapOf,
  nullable,
  oneOf,
  size,
  stringList,
  text,
} from './kinds.js';
import { ENTRY_SCHEMAS, objectList } from './list-entries.js';
import type { ApiKeyEntry } from './list-entries.js';
import { MAX_PAYLOAD_SETTING, isOrigin, logLevel, regexList, setting } from './setting-spec.js';

export const SERVER_SETTINGS = {
  'svc.server.address': setting(
    text(),
    { default: '127.0.0.1' },
    'Address the server listens on; a non-loopback address needs a key',
  ),
  'svc.server.port': setting(
    int({ min: 0, max: 65535 }),
    { default: 8080 },
    'Port the server listens on; 0 picks a free port',
  ),
  'svc.server.compression.enabled': setting(
    bool(),
    { dev: false, prod: true },
    'Compress responses larger than svc.server.compression.min-response-size',
  ),
  'svc.server.compression.min-response-size': setting(
    size(),
    { default: 1024 },
    'Smallest response that is compressed',
  ),
  'svc.rate-limit.requests-per-minute': setting(
    nullable(int({ min: 1 })),
    { default: null },
    'Requests per minute each API caller (a key, else an address) may make to /api and /mcp; off: no limit',
  ),
  'svc.limits.max-body': setting(
    size({ min: 1 }),
    { default: 1_048_576 },
    'Largest request body; a larger one is answered 413',
  ),
  'svc.limits.max-payload': setting(
    size({ min: 1, max: MAX_PAYLOAD_SETTING }),
    { default: 16_777_216 },
    'Largest payload a node may emit, about its JSON length; a larger one fails its message (onError applies, never retried). See docs/limits.md',
  ),
  'svc.main.banner-mode': setting(
    oneOf(['console', 'off']),
    { dev: 'console', prod: 'off' },
    'Whether the start-up banner is printed to the console',
  ),
  'svc.logging.level.root': setting(
    logLevel(),
    { dev: 'INFO', prod: 'WARN' },
    'Log level of everything without a level of its own',
  ),
  'svc.logging.level.app': setting(
    logLevel(),
    { dev: 'DEBUG', prod: 'INFO' },
    'Log level of the service (HTTP, tool endpoint, stores, services)',
  ),
  'svc.logging.level.engine': setting(
    logLevel(),
    { dev: 'TRACE', prod: 'INFO' },
    'Log level of the stream engine; TRACE writes message payloads to the log',
  ),
  'svc.logging.format': setting(
    oneOf(['pretty', 'json']),
    { dev: 'pretty', prod: 'json' },
    'Log line format: `pretty` prints one readable line per event (needs the pino-pretty package, a development dependency; without it JSON is written), `json` one JSON object per line',
  ),
  'svc.logging.access-log': setting(
    bool(),
    { dev: true, prod: false },
    'Whether every answered request is logged in one line (method, path, status, duration, request id) at INFO by the application logger',
  ),
  'svc.management.exposure.include': setting(
    stringList({ normalize: (id) => id.toLowerCase() }),
    {
      dev: ['health', 'info', 'metrics', 'loggers', 'mappings', 'threaddump'],
      prod: ['health', 'info', 'metrics'],
    },
    'Management endpoints exposed under /actuator; `*` exposes all; replaces the profile list',
  ),
  'svc.api-key': setting(
    nullable(text()),
    { default: null },
    'Single key with the ADMIN role for the REST API, the tool endpoint and /actuator',
    { secret: true },
  ),
  'svc.api-keys': setting(
    objectList<ApiKeyEntry>(ENTRY_SCHEMAS.apiKey),
    { default: [] },
    'Named keys, each with a name, key, role and sessions (see below)',
  ),
  'svc.mcp.api-key': setting(
    nullable(text()),
    { default: null },
    'Key that protects the tool endpoint /mcp alone',
    { secret: true },
  ),
  'svc.mcp.enabled': setting(bool(), { default: true }, 'Serve the tool endpoint at /mcp'),
  'svc.allowed-hosts': setting(
    stringList(),
    { default: [] },
    'Host headers accepted besides localhost, 127.0.0.1 and [::1] while no key is set',
  ),
  'svc.allowed-origins': setting(
    stringList({ check: isOrigin, normalize: (origin) => new URL(origin).origin }),
    { default: [] },
    'Origins (e.g. https://app.example:8443) allowed to send changing requests while no key is set',
  ),
  'svc.variables.allowed': setting(
    stringList(),
    { default: [] },
    'Further names `${env.NAME}` and `${sys.name}` placeholders may read',
  ),
  'svc.var.*': setting(
    mapOf(text()),
    { default: {} },
    'Values `${sys.svc.var.NAME}` placeholders may read; any name below the prefix is allowed',
  ),
  'svc.process.allowed-commands': setting(
    stringList(),
    { default: [] },
    'Executables PROCESS_EXECUTOR may run, matched exactly; when set, useShell is refused',
  ),
  'svc.process.allow-any': setting(
    bool(),
    { default: false },
    'Let PROCESS_EXECUTOR run any executable; effective only while the allow-list is empty',
  ),
  'svc.expressions.timeout-ms': setting(
    // Computing time, checked as the evaluation goes: past 2^31-1 ms it would never matter.
    int({ min: 1, max: MAX_TIMER_MS }),
    { default: 10_000 },
    "Time limit of one JSONata evaluation, in milliseconds (the node's own timeouts apply too)",
  ),
  'svc.files.base-dir': setting(
    nullable(text()),
    { default: 'data/files' },
    'The only directory FILE_READ and FILE_WRITE may use (paths are relative to it); empty turns them off',
  ),
  'svc.script.timeout-ms': setting(
    int({ min: 1 }),
    { default: 10_000 },
    'Time limit of one script run, in milliseconds',
  ),
  'svc.script.max-statements': setting(
    int({ min: 1 }),
    { default: 50_000_000 },
    'Statement limit of one script run',
  ),
  'svc.script.max-memory': setting(
    size({ min: 1_048_576 }),
    { default: 67_108_864 },
    'Memory limit of one script sandbox: the globals it keeps between messages and what one run allocates',
  ),
  'svc.script.workers': setting(
    int({ min: 1, max: 64 }),
    { default: 2 },
    'Worker threads that run scripts, off the event loop; each starts when a script first needs it',
  ),
  'svc.llm.deny-input-patterns': setting(
    regexList(),
    { default: [] },
    'Regular expressions an LLM_CALL prompt must not match; a pattern with a comma goes in an indexed entry',
  ),
  'svc.llm.deny-output-patterns': setting(
    regexList(),
    { default: [] },
    'Regular expressions an LLM answer and its tool-call arguments must not match',
  ),
  'svc.llm.max-input-chars': setting(
    int({ min: 0 }),
    { default: 0 },
    'Most prompt characters per LLM call; 0 means no limit',
  ),
  'svc.llm.rate-limit.*': setting(
    mapOf(int({ min: 1 })),
    { default: {} },
    'Requests per minute to the provider named below the prefix, e.g. svc.llm.rate-limit.openai',
  ),
  'svc.mcp-client.allowed-tools': setting(
    stringList(),
    { default: [] },
    'Tools MCP_TOOL_CALL may call; empty allows any',
  ),
  'svc.mcp-client.max-argument-bytes': setting(
    int({ min: 1 }),
    { default: 65_536 },
    'Most argument bytes per MCP_TOOL_CALL',
  ),
  'svc.mcp-client.deny-argument-patterns': setting(
    regexList(),
    { default: [] },
    'Regular expressions MCP_TOOL_CALL arguments must not match',
  ),
  'svc.plugins.dir': setting(
    nullable(text()),
    { default: null },
    'Directory of plugins loaded at start-up (docs/writing-a-plugin.md); empty loads none',
  ),
} as const;
