// The ToolContext of a call over MCP: progress notifications when the client sent a progress
// token, log notifications at or above the level the client set, and approval questions through
// elicitation when the client declared it can ask its user.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type {
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalAnswer, LogLevel, ToolContext } from './tool.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** MCP's log levels, least severe first (MCP "Logging"). */
const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** The form an approval question shows: approve or reject, and a comment. */
const APPROVAL_FORM: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    decision: {
      type: 'string',
      title: 'Decision',
      enum: ['approve', 'reject'],
      description: 'Approve to let the run go on, reject to refuse',
    },
    comment: { type: 'string', title: 'Comment', description: 'Why, for the audit' },
  },
  required: ['decision'],
};

export interface ContextOptions {
  /** The least severe level the client wants; nothing is sent below it. */
  readonly level: () => LoggingLevel;
  /** Whether the client declared it can answer `elicitation/create`. */
  readonly canAsk: boolean;
}

export function toolContext(extra: Extra, options: ContextOptions): ToolContext {
  const token = extra._meta?.progressToken;
  // A notification lost with a closed connection is no reason to fail the call.
  const send = (notification: ServerNotification): void => {
    extra.sendNotification(notification).catch(() => undefined);
  };
  return {
    signal: extra.signal,
    progress(done, total, message) {
      if (token === undefined) return;
      send({
        method: 'notifications/progress',
        params: { progressToken: token, progress: done, total, message },
      });
    },
    log(level: LogLevel, logger, data) {
      if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(options.level())) return;
      send({ method: 'notifications/message', params: { level, logger, data } });
    },
    ask: options.canAsk ? (question) => ask(extra, question) : undefined,
  };
}

async function ask(extra: Extra, question: string): Promise<ApprovalAnswer | undefined> {
  let result: ElicitResult;
  try {
    result = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: { mode: 'form', message: question, requestedSchema: APPROVAL_FORM },
      },
      ElicitResultSchema,
      { signal: extra.signal },
    );
  } catch {
    // A client that fails to ask, or a call given up, leaves the approval to signal_node.
    return undefined;
  }
  const decision = result.content?.decision;
  if (result.action !== 'accept' || (decision !== 'approve' && decision !== 'reject')) {
    return undefined;
  }
  const comment = result.content?.comment;
  return {
    approved: decision === 'approve',
    comment: typeof comment === 'string' ? comment : undefined,
  };
}
