// The settings of runs: stores, the execution log and checkpoints, the database, high
// availability, admission, streaming, and workers. Part of `SETTINGS` (schema.ts).
import {
  MAX_TIMER_MS,
  bool,
  duration,
  int,
  nullable,
  oneOf,
  size,
  stringList,
  text,
} from './kinds.js';
import { ENTRY_SCHEMAS, objectList } from './list-entries.js';
import type { SupervisorEntry } from './list-entries.js';
import {
  MAX_BUDGET,
  isHostPort,
  isPostgresUrl,
  isSchemaName,
  setting,
  storeType,
} from './setting-spec.js';

export const RUN_SETTINGS = {
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
  'svc.logs.max-per-execution': setting(
    int({ min: 1 }),
    { default: 10_000 },
    'Node log lines one execution keeps (SPEC Limits: pending log lines); beyond them the oldest are dropped and counted in svc.tracker.dropped{type=log}',
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
