// Every svc.* setting as data: its value kind, its default in each profile, and one line of
// documentation. The loader, the documentation and the `Settings` type are all derived from it.
import {
  MAX_TIMER_MS,
  bool,
  duration,
  int,
  mapOf,
  nullable,
  oneOf,
  size,
  stringList,
  text,
} from './kinds.js';
import type { Codec } from './kinds.js';
import { ENTRY_SCHEMAS, objectList } from './list-entries.js';
import type { ApiKeyEntry, SupervisorEntry } from './list-entries.js';
import { messageOf } from '../core/index.js';

export const PROFILE_NAMES = ['dev', 'prod', 'postgres'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** The profiles that carry their own defaults; `postgres` is `dev` with relational stores. */
export type BaseProfile = 'dev' | 'prod';

export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'OFF'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const STORE_TYPES = ['memory', 'file', 'postgres'] as const;
export type StoreType = (typeof STORE_TYPES)[number];

export interface SettingSpec<TValue> {
  readonly codec: Codec<TValue>;
  readonly dev: TValue;
  readonly prod: TValue;
  readonly doc: string;
  /** Kept out of error messages: keys, tokens and URLs that may carry a password. */
  readonly secret: boolean;
}

type Defaults<TValue> =
  { readonly default: TValue } | { readonly dev: TValue; readonly prod: TValue };

function setting<TValue>(
  codec: Codec<TValue>,
  defaults: Defaults<NoInfer<TValue>>,
  doc: string,
  options: { secret?: boolean } = {},
): SettingSpec<TValue> {
  const [dev, prod] =
    'default' in defaults ? [defaults.default, defaults.default] : [defaults.dev, defaults.prod];
  return { codec, dev, prod, doc, secret: options.secret ?? false };
}

function compiles(pattern: string): string | null {
  try {
    new RegExp(pattern);
    return null;
  } catch (error) {
    return `not a valid regular expression: ${messageOf(error)}`;
  }
}

const ORIGIN_HINT = 'expected an origin such as https://app.example:8443 (scheme, host, port)';

function isOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return ORIGIN_HINT;
  }
  const bare =
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    !value.endsWith('/');
  return bare ? null : ORIGIN_HINT;
}

function isPostgresUrl(value: string): string | null {
  const hint = 'expected a postgres:// or postgresql:// URL';
  if (!/^postgres(ql)?:\/\//i.test(value)) return hint;
  try {
    new URL(value);
    return null;
  } catch {
    return hint;
  }
}

/** A plain lower-case identifier, so it needs no quoting and reads the same everywhere. */
function isSchemaName(value: string): string | null {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(value)
    ? null
    : 'expected a schema name of lower-case letters, digits and _ (at most 63, not starting with a digit)';
}

/** `host:port`, with an IPv6 host in brackets (`[::1]:8081`). */
function isHostPort(value: string): string | null {
  const match = /^(\[[^\]]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  return match !== null && port >= 1 && port <= 65535
    ? null
    : 'expected host:port, e.g. control.example:8081 or [::1]:8081';
}

/** The largest payload setting: about what one JavaScript string can hold. */
const MAX_PAYLOAD_SETTING = 2 ** 29;
/** A memory budget beyond 1 TiB is a mistyped unit, not a plan. */
const MAX_BUDGET = 2 ** 40;

const regexList = () => stringList({ check: compiles });
const logLevel = () => oneOf(LOG_LEVELS);
const storeType = () => oneOf(STORE_TYPES);

export const SETTINGS = {
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
  'svc.session.store-type': setting(
    storeType(),
    { default: 'memory' },
    'Where sessions and workflows are kept; postgres needs a build with the relational stores',
  ),
  'svc.session.base-dir': setting(
    text(),
    { default: 'data/sessions' },
    'Directory of the file session store',
  ),
  'svc.execution-log.dir': setting(
    nullable(text()),
    { default: null },
    'Directory of the durable execution log; off keeps the log in memory',
  ),
  'svc.execution-log.store-type': setting(
    storeType(),
    { default: 'memory' },
    'Where the execution log is kept; svc.execution-log.dir alone means file; postgres needs a build with the relational stores',
  ),
  'svc.execution-log.retained-runs': setting(
    int({ min: 1 }),
    { default: 500 },
    'Newest runs kept in the execution log and restored on start',
  ),
  'svc.execution-log.compact-after': setting(
    int({ min: 1 }),
    { default: 10_000 },
    'Events written between two trims of the execution log',
  ),
  'svc.restart.dir': setting(
    nullable(text()),
    { default: null },
    'Directory of the file checkpoint store (one JSON line per message, no caps)',
  ),
  'svc.restart.store-type': setting(
    storeType(),
    { default: 'memory' },
    'Where checkpoints are kept; postgres needs a build with the relational stores',
  ),
  'svc.restart.spill-dir': setting(
    nullable(text()),
    { default: null },
    'Directory the memory checkpoint store spills node output to beyond its caps',
  ),
  'svc.restart.retained-executions': setting(
    int({ min: 0 }),
    { default: 10 },
    'Newest executions kept restartable in memory',
  ),
  'svc.restart.messages-per-node': setting(
    int({ min: 0 }),
    { default: 200 },
    'Messages the memory checkpoint store keeps per node and execution',
  ),
  'svc.restart.bytes-per-node': setting(
    size(),
    { default: 4_194_304 },
    'Bytes the memory checkpoint store keeps per node and execution',
  ),
  'svc.restart.max-bytes': setting(
    size({ max: MAX_BUDGET }),
    { default: 268_435_456 },
    'Bytes of node output the memory checkpoint store holds over all executions, payloads counted by their JSON length; beyond it the oldest executions lose their output first (spilled with svc.restart.spill-dir). See docs/limits.md',
  ),
  'svc.restart.auto-resume': setting(
    bool(),
    { default: false },
    'After recovery on start, resume every interrupted run in turn',
  ),
  'svc.db.url': setting(
    nullable(text({ check: isPostgresUrl })),
    { default: null },
    'Run-time URL of the relational database (postgres://), for a least-privilege account',
    { secret: true },
  ),
  'svc.db.migration-url': setting(
    nullable(text({ check: isPostgresUrl })),
    { default: null },
    'URL of the relational database (postgres://) for an account that may change the schema',
    { secret: true },
  ),
  'svc.db.schema': setting(
    text({ check: isSchemaName }),
    { default: 'svc' },
    'Schema of the relational database that holds the tables; created by the migration when missing',
  ),
  'svc.db.pool-size': setting(
    int({ min: 1, max: 1000 }),
    { default: 10 },
    'Connections the server opens at most with svc.db.url',
  ),
  'svc.ha.enabled': setting(
    bool(),
    { default: false },
    'High availability: a leader and standby servers sharing one relational database (all three store types postgres); only the holder of the leader lease runs executions',
  ),
  'svc.ha.server-id': setting(
    nullable(text({ check: (value) => (value.trim() === '' ? 'expected a server id' : null) })),
    { default: null },
    'Name of this server in the leader lease; unique per server; off: its host name, process id and a random suffix',
  ),
  'svc.ha.lease-duration': setting(
    duration({ max: MAX_TIMER_MS }),
    { default: 15_000 },
    'How long the leader lease lasts without a renewal; a standby takes over a leader that stopped renewing after this long',
  ),
  'svc.ha.renew-interval': setting(
    duration({ max: MAX_TIMER_MS }),
    { default: 5_000 },
    "Interval of the leader's renewals and of a standby's attempts to take the lease; at most half of svc.ha.lease-duration",
  ),
  'svc.execution.max-concurrent': setting(
    nullable(int({ min: 1 })),
    { default: null },
    'Executions holding a slot at once; off means no limit',
  ),
  'svc.execution.max-concurrent-per-session': setting(
    nullable(int({ min: 1 })),
    { default: null },
    'Executions of one session holding a slot at once; off means no limit',
  ),
  'svc.execution.max-concurrent-per-workflow': setting(
    nullable(int({ min: 1 })),
    { default: null },
    'Executions of one workflow holding a slot at once; off means no limit',
  ),
  'svc.execution.on-limit': setting(
    oneOf(['REJECT', 'QUEUE']),
    { default: 'REJECT' },
    'What a start meets when no slot is free: REJECT answers 429, QUEUE waits',
  ),
  'svc.execution.queue-capacity': setting(
    int({ min: 0 }),
    { default: 100 },
    'Starts that may wait for a slot',
  ),
  'svc.execution.queue-capacity-per-workflow': setting(
    int({ min: 0 }),
    { default: 0 },
    'Starts of one workflow that may wait for a slot; 0 means no limit of its own, only svc.execution.queue-capacity',
  ),
  'svc.execution.queue-timeout': setting(
    nullable(duration({ max: MAX_TIMER_MS })),
    { default: null },
    'Longest wait for a slot before the execution ends TIMED_OUT; off waits without limit',
  ),
  'svc.execution.shutdown-timeout': setting(
    duration({ max: MAX_TIMER_MS }),
    { default: 30_000 },
    'Time running executions get to finish when the server stops',
  ),
  'svc.session.execution-timeout-seconds': setting(
    // The run deadline is a run-clock timer, armed in steps: only absurd values are refused.
    int({ min: 1, max: MAX_TIMER_MS }),
    { default: 3600 },
    'Run deadline in seconds; a run still going ends TIMED_OUT',
  ),
  'svc.start.idempotency-max-keys': setting(
    int({ min: 1 }),
    { default: 100_000 },
    'Idempotency keys of starts remembered at once in memory; with `svc.execution-log.store-type=postgres` the keys live in the database, every key of the window',
  ),
  'svc.start.idempotency-ttl': setting(
    duration(),
    { default: 600_000 },
    'How long an idempotency key of a start is remembered',
  ),
  'svc.tracker.cleanup-ttl': setting(
    duration(),
    { default: 600_000 },
    'Longest time the live state of an ended execution is kept (it is released as soon as the run ends; the record stays in history)',
  ),
  'svc.tracker.max-sessions': setting(
    nullable(int({ min: 1 })),
    { default: null },
    'Sessions the tracker holds at once; off means no limit',
  ),
  'svc.streaming.status-history-ttl-minutes': setting(
    int({ min: 1 }),
    { default: 5 },
    'Minutes progress history is kept for late stream clients',
  ),
  'svc.streaming.status-history-max-snapshots': setting(
    int({ min: 1 }),
    { default: 200 },
    'Progress snapshots kept per execution',
  ),
  'svc.streaming.status-history-max-executions': setting(
    int({ min: 1 }),
    { default: 1000 },
    'Executions whose progress history is kept',
  ),
  'svc.streaming.event-history-max-bytes': setting(
    size({ max: MAX_BUDGET }),
    { default: 67_108_864 },
    'Bytes of events kept for clients that reconnect with Last-Event-ID, result payloads counted by their JSON length; the oldest go first. See docs/limits.md',
  ),
  'svc.results.max-per-execution': setting(
    int({ min: 1 }),
    { default: 1000 },
    'Result events kept per execution',
  ),
  'svc.results.max-executions': setting(
    int({ min: 1 }),
    { default: 200 },
    'Executions whose result events are kept',
  ),
  'svc.results.ttl': setting(
    duration(),
    { default: 3_600_000 },
    'How long result events are kept after their last use',
  ),
  'svc.results.max-bytes': setting(
    size({ max: MAX_BUDGET }),
    { default: 134_217_728 },
    'Bytes of result events kept over all executions, payloads counted by their JSON length; the oldest results of the least recently used executions go first. See docs/limits.md',
  ),
  'svc.logs.store.retention.default-period-minutes': setting(
    int({ min: 1, max: 1440 }),
    { default: 30 },
    'Minutes node log lines are kept in memory',
  ),
  'svc.logs.store.max-bytes': setting(
    size({ max: MAX_BUDGET }),
    { default: 67_108_864 },
    'Bytes of node log lines kept in memory over all executions; the oldest lines of the executions that logged least recently go first. See docs/limits.md',
  ),
  'svc.workflow.cache-ttl': setting(
    duration(),
    { default: 600_000 },
    "How long a prepared workflow is kept unused (SPEC's workflow.cache.ttl.ms)",
  ),
  'svc.session-memory.ttl': setting(
    nullable(duration()),
    { default: null },
    'How long SESSION_MEMORY history is kept in the relational store; off keeps it',
  ),
  'svc.supervisors': setting(
    objectList<SupervisorEntry>(ENTRY_SCHEMAS.supervisor, { uniqueField: 'id' }),
    { default: [] },
    'Supervisors that review commands or send commands on events (see below)',
  ),
  'svc.workers.role': setting(
    oneOf(['control-plane', 'worker']),
    { default: 'control-plane' },
    'In a build with remote workers: control-plane serves the API and places nodes on workers; worker connects to svc.workers.connect and runs placed nodes',
  ),
  'svc.workers.token': setting(
    nullable(text()),
    { default: null },
    'Token every worker presents to the control plane; the control plane accepts workers only when it is set',
    { secret: true },
  ),
  'svc.workers.ssl-bundle': setting(
    nullable(text()),
    { default: null },
    'Directory with cert.pem, key.pem and ca.pem: TLS with mandatory client certificates on the control plane, the client certificate and trusted CA on a worker; off is plain TCP',
  ),
  'svc.workers.listen-address': setting(
    text(),
    { default: '127.0.0.1' },
    'Address the control plane accepts worker connections on',
  ),
  'svc.workers.listen-port': setting(
    int({ min: 0, max: 65535 }),
    { default: 8081 },
    'Port the control plane accepts worker connections on; 0 picks a free port',
  ),
  'svc.workers.heartbeat': setting(
    duration({ max: MAX_TIMER_MS }),
    { default: 10_000 },
    'Interval of gRPC keepalive pings between the control plane and its workers; a side whose ping goes unanswered for two intervals drops the connection',
  ),
  'svc.workers.reflection': setting(
    bool(),
    { default: false },
    'Serve gRPC server reflection on the workers port, so that grpcurl and similar tools can list and describe the worker service',
  ),
  'svc.workers.connect': setting(
    nullable(text({ check: isHostPort })),
    { default: null },
    'Control plane a worker connects to, as host:port; with TLS the host name is checked against its certificate',
  ),
  'svc.workers.pool': setting(
    text({ check: (value) => (value.trim() === '' ? 'expected a pool name' : null) }),
    { default: 'default' },
    'Pool a worker joins; a node names its pool in engine.placement',
  ),
  'svc.workers.slots': setting(
    int({ min: 1, max: 10_000 }),
    { default: 4 },
    'Placed nodes a worker runs at once',
  ),
  'svc.workers.max-in-flight': setting(
    int({ min: 1, max: 10_000 }),
    { default: 16 },
    'Messages the control plane may send a worker before it answers them (the credits the worker grants); a slow worker holds its senders back',
  ),
  'svc.workers.name': setting(
    nullable(text()),
    { default: null },
    'Name a worker shows in GET /api/workers; off: its host name and process id',
  ),
  'svc.workers.plugin-types': setting(
    stringList(),
    { default: [] },
    'Plugin types a worker runs; a worker needs at least one',
  ),
} as const;

export type SettingKey = keyof typeof SETTINGS;

type ValueOf<TSpec> = TSpec extends SettingSpec<infer TValue> ? TValue : never;

/** Every setting with its typed value; maps are read as `settings['svc.var.*'][name]`. */
export type Settings = { readonly [TKey in SettingKey]: ValueOf<(typeof SETTINGS)[TKey]> };

export const SETTING_KEYS = Object.keys(SETTINGS) as readonly SettingKey[];

/** Free-form maps: their key ends in `.*` and any name below the prefix is a value. */
export function isMapKey(key: SettingKey): boolean {
  return key.endsWith('.*');
}

/** `svc.var` for `svc.var.*`. */
export function mapPrefix(key: SettingKey): string {
  return key.slice(0, -2);
}

/** Profile `postgres` is `dev` with the relational stores. */
export const POSTGRES_OVERRIDES = {
  'svc.session.store-type': 'postgres',
  'svc.restart.store-type': 'postgres',
  'svc.execution-log.store-type': 'postgres',
} as const satisfies Partial<Settings>;

/** The settings that choose a store; `postgres` in any of them needs the relational stores. */
export const STORE_TYPE_KEYS = [
  'svc.session.store-type',
  'svc.restart.store-type',
  'svc.execution-log.store-type',
] as const satisfies readonly SettingKey[];
