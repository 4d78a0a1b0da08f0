// The error catalogue: every failure the service reports has a stable code listed here as
// data. Edges (HTTP, MCP) map codes to their own status tables; the domain never knows HTTP.

export type ErrorKind = 'user' | 'operational' | 'unexpected';

export interface ErrorSpec {
  readonly kind: ErrorKind;
  readonly retryable: boolean;
  /** Message template; `{name}` is replaced by the parameter of that name. */
  readonly template: string;
}

export const ERROR_CATALOGUE = {
  INVALID_REQUEST_BODY: { kind: 'user', retryable: false, template: 'Invalid request body' },
  VALIDATION_FAILED: { kind: 'user', retryable: false, template: 'Validation failed' },
  MISSING_PARAMETER: {
    kind: 'user',
    retryable: false,
    template: "Required parameter '{name}' is missing",
  },
  BAD_REQUEST: { kind: 'user', retryable: false, template: '{detail}' },
  WORKFLOW_INVALID: { kind: 'user', retryable: false, template: 'Validation failed' },
  SESSION_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template: "Session '{sessionId}' does not exist",
  },
  SESSION_ALREADY_EXISTS: {
    kind: 'user',
    retryable: false,
    template: "Session '{sessionId}' already exists",
  },
  WORKFLOW_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template: "Workflow '{workflowId}' does not exist in session '{sessionId}'",
  },
  VERSION_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template: "Version '{version}' of workflow '{workflowId}' does not exist",
  },
  EXECUTION_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template: "Execution '{executionId}' does not exist",
  },
  NODE_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template: "Node '{nodeId}' does not exist in execution '{executionId}'",
  },
  NODE_NOT_CONTROLLABLE: {
    kind: 'user',
    retryable: false,
    template: "Node '{nodeId}' cannot be {action}: it has ended",
  },
  NOT_A_PROCESSOR: {
    kind: 'user',
    retryable: false,
    template: "Node '{nodeId}' is a {kind}; only processors can be skipped",
  },
  EXECUTION_NOT_ACTIVE: {
    kind: 'user',
    retryable: false,
    template: "Execution '{executionId}' has ended ({status})",
  },
  EXECUTION_NOT_PAUSED: {
    kind: 'user',
    retryable: false,
    template: "Execution '{executionId}' is not paused",
  },
  NOTHING_TO_STEP: {
    kind: 'user',
    retryable: false,
    template:
      "Execution '{executionId}' has nothing to step: no message is held outside nodes paused on their own",
  },
  NOT_WAITING_FOR_SLOT: {
    kind: 'user',
    retryable: false,
    template:
      "Execution '{executionId}' is not waiting for a slot; its priority can no longer change",
  },
  NOT_RESTARTABLE: {
    kind: 'user',
    retryable: false,
    template: "Execution '{executionId}' is no longer restartable: {reason}",
  },
  RESTART_REFUSED: {
    kind: 'user',
    retryable: false,
    template: "Execution '{executionId}' cannot be restarted: {detail}",
  },
  NODE_DID_NOT_FAIL: {
    kind: 'user',
    retryable: false,
    template:
      "Node '{nodeId}' of execution '{executionId}' did not fail (it is {status}): only a node that ended FAILURE or TIMED_OUT can be retried; to run it again, restart from it (POST /api/executions/{executionId}/restart/{nodeId}, or the RESTART_FROM_NODE action of the tool endpoint)",
  },
  DEAD_LETTER_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template: "Dead letter '{id}' does not exist",
  },
  DEAD_LETTER_NOT_REDRIVABLE: {
    kind: 'user',
    retryable: false,
    template: "Dead letter '{id}' cannot be redriven: {detail}",
  },
  CHECKPOINTS_NOT_KEPT: {
    kind: 'user',
    retryable: false,
    template:
      "The messages of node '{nodeId}' in execution '{executionId}' were not kept: {detail}",
  },
  NODE_MESSAGES_NOT_YET: {
    kind: 'user',
    retryable: true,
    template:
      "The messages of node '{nodeId}' in execution '{executionId}' can be read once node '{producer}' has ended: it is still producing output",
  },
  HOOK_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template:
      'No hook at /api/hooks/{sessionId}/{workflowId}: no saved workflow of that session and id has a WEBHOOK_TRIGGER',
  },
  HOOK_UNAUTHORIZED: {
    kind: 'user',
    retryable: false,
    template: 'The hook needs its secret as X-Hook-Secret or a signature as X-Hook-Signature',
  },
  HOOK_UNAVAILABLE: {
    kind: 'operational',
    retryable: true,
    template: "The hook's configuration cannot be resolved on this server",
  },
  HOOK_TIMEOUT: {
    kind: 'operational',
    retryable: false,
    template:
      "Execution '{executionId}' sent no terminal message within {seconds} s; it goes on (GET /api/executions/{executionId})",
  },
  HOOK_RUN_ENDED: {
    kind: 'operational',
    retryable: false,
    template: "Execution '{executionId}' ended {status} before a terminal message: {detail}",
  },
  INPUT_MESSAGE_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template:
      "Message '{messageId}' is not one node '{nodeId}' received in execution '{executionId}': edit a message listed by GET /api/executions/{executionId}/nodes/{nodeId}/messages?direction=in",
  },
  REPLAY_VERSION_CONFLICT: {
    kind: 'user',
    retryable: false,
    template:
      "Execution '{executionId}' cannot be replayed on version {version}: the graph above the restart differs, {detail}",
  },
  REPLAY_CHECK_REFUSED: {
    kind: 'user',
    retryable: false,
    template: "Execution '{executionId}' cannot be replay-checked: {detail}",
  },
  RESTART_IN_PROGRESS: {
    kind: 'user',
    retryable: true,
    template: "A restart of execution '{executionId}' is already in progress",
  },
  RESTART_NOT_ACCEPTED: {
    kind: 'operational',
    retryable: true,
    template: "The new run of execution '{executionId}' was not accepted within {seconds} s",
  },
  RECOVER_REFUSED: {
    kind: 'user',
    retryable: false,
    template: "Execution '{executionId}' cannot be recovered: {detail}",
  },
  SIGNAL_NOT_EXPECTED: {
    kind: 'user',
    retryable: false,
    template: "Node '{nodeId}' cannot take this signal: {detail}",
  },
  SUPERVISOR_REFUSED: {
    kind: 'user',
    retryable: false,
    template: 'refused by supervisor {id}',
  },
  APPROVAL_ON_CONTROL: {
    kind: 'user',
    retryable: false,
    template:
      'A node command cannot carry an approval signal; send it to POST /api/executions/{executionId}/nodes/{nodeId}/signal',
  },
  ADMISSION_REFUSED: { kind: 'operational', retryable: true, template: '{reason}' },
  NOT_LEADER: {
    kind: 'operational',
    retryable: true,
    template:
      'This server is a standby in a high-availability pair; send the request to the leader',
  },
  RATE_LIMITED: {
    kind: 'operational',
    retryable: true,
    template: 'Too many requests: at most {limit} a minute per caller; retry in {seconds} s',
  },
  PLUGIN_TYPE_NOT_FOUND: {
    kind: 'user',
    retryable: false,
    template: "Plugin type '{type}' does not exist",
  },
  ROUTE_NOT_FOUND: { kind: 'user', retryable: false, template: 'No endpoint {method} {path}' },
  METHOD_NOT_ALLOWED: {
    kind: 'user',
    retryable: false,
    template: 'Method {method} is not supported for {path}; use {allowed}',
  },
  PAYLOAD_TOO_LARGE: {
    kind: 'user',
    retryable: false,
    template: 'Request body is larger than the limit of {limit} bytes',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    kind: 'user',
    retryable: false,
    template: "Content type '{contentType}' is not supported; send application/json",
  },
  MALFORMED_URL: {
    kind: 'user',
    retryable: false,
    template: "Malformed URL '{path}': it is not valid percent-encoded UTF-8",
  },
  PARAMETER_TOO_LONG: {
    kind: 'user',
    retryable: false,
    template: 'A path parameter is longer than the limit of {limit} characters',
  },
  HEADERS_TOO_LARGE: {
    kind: 'user',
    retryable: false,
    template: 'The request line and headers are larger than the limit of {limit} bytes',
  },
  REQUEST_TIMEOUT: {
    kind: 'user',
    retryable: true,
    template: 'The request was not received in time',
  },
  MALFORMED_REQUEST: {
    kind: 'user',
    retryable: false,
    template: 'Malformed HTTP request: {detail}',
  },
  SERVER_CLOSING: {
    kind: 'operational',
    retryable: true,
    template: 'The server is shutting down; send the request to another server or retry later',
  },
  SETTINGS_INVALID: { kind: 'operational', retryable: false, template: '{detail}' },
  STORE_DAMAGED: {
    kind: 'operational',
    retryable: false,
    template: "Stored file '{file}' is damaged: {detail}",
  },
  STORE_FAILED: { kind: 'operational', retryable: true, template: 'Storage failed: {detail}' },
  STORE_ROW_DAMAGED: {
    kind: 'operational',
    retryable: false,
    template: 'Stored row {row} is damaged: {detail}',
  },
  DATABASE_SETUP_FAILED: {
    kind: 'operational',
    retryable: false,
    template: 'The relational database cannot be prepared: {detail}',
  },
  ILLEGAL_TRANSITION: {
    kind: 'unexpected',
    retryable: false,
    template: "Execution '{executionId}' cannot go from {from} to {to}",
  },
  INTERNAL: {
    kind: 'unexpected',
    retryable: true,
    template: 'An unexpected error occurred. Reference: {reference}',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** A problem tied to one field of the input. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export type ErrorParams = Readonly<Record<string, string | number>>;

export interface AppErrorOptions {
  readonly params?: ErrorParams;
  readonly fieldErrors?: readonly FieldError[];
  /** Overrides the template when the caller has a more precise sentence. */
  readonly message?: string;
  readonly cause?: unknown;
}

export function formatTemplate(template: string, params: ErrorParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** The one error class of the service: a catalogue code plus what the edges need to answer. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  readonly fieldErrors: readonly FieldError[];

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const params = options.params ?? {};
    super(options.message ?? formatTemplate(ERROR_CATALOGUE[code].template, params), {
      cause: options.cause,
    });
    this.name = 'AppError';
    this.code = code;
    this.params = params;
    this.fieldErrors = options.fieldErrors ?? [];
  }

  get kind(): ErrorKind {
    return ERROR_CATALOGUE[this.code].kind;
  }

  get retryable(): boolean {
    return ERROR_CATALOGUE[this.code].retryable;
  }
}

/** The message of anything thrown: an error's own message, else the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
