// Hook calls (`POST /api/hooks/{sessionId}/{workflowId}`, docs/webhooks.md): a saved workflow
// with a WEBHOOK_TRIGGER is started with the call's JSON body as its payload. No API key is
// needed; the trigger's secret, when it has one, is: sent as it is, or as an HMAC-SHA256
// signature of the body. A `sync` hook answers with the run's first terminal message.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ConfigResolver } from '../config/index.js';
import { AppError, isAppError } from '../core/index.js';
import type { StartAnswer } from '../executions/index.js';
import { DEFAULT_SYNC_SECONDS, WEBHOOK_TRIGGER, webhookConfigSchema } from '../plugins/index.js';
import type { WebhookConfig } from '../plugins/index.js';
import type { ExecutionService } from './execution-service.js';
import type { SessionService } from './session-service.js';

export interface HookServiceDeps {
  readonly sessions: SessionService;
  readonly executions: ExecutionService;
  /** Resolves `decrypted:<name>` and `${env.NAME}` in the trigger's configuration. */
  readonly resolveConfig: ConfigResolver;
}

export interface HookCall {
  readonly sessionId: string;
  readonly workflowId: string;
  /** The body as it came, which a signature signs; empty without one. */
  readonly body: Buffer;
  /** The body parsed; undefined without one. */
  readonly payload: unknown;
  /** `X-Hook-Secret`. */
  readonly secret?: string | undefined;
  /** `X-Hook-Signature`: `sha256=<hex>`. */
  readonly signature?: string | undefined;
  readonly idempotencyKey?: string | undefined;
}

export type HookAnswer =
  /** `async`: the run was accepted. */
  | { readonly kind: 'accepted'; readonly start: StartAnswer }
  /** `sync`: the payload of the run's first terminal message. */
  | { readonly kind: 'answered'; readonly executionId: string; readonly payload: unknown }
  /** `sync`: the run completed without a terminal message. */
  | { readonly kind: 'completed'; readonly executionId: string };

/** What the hook of a workflow asks of its callers, from all its WEBHOOK_TRIGGER nodes. */
interface HookRules {
  readonly secrets: readonly string[];
  /** Undefined for `async`. */
  readonly waitSeconds: number | undefined;
}

export class HookService {
  readonly #deps: HookServiceDeps;

  constructor(deps: HookServiceDeps) {
    this.#deps = deps;
  }

  async call(call: HookCall): Promise<HookAnswer> {
    const rules = await this.#rulesOf(call.sessionId, call.workflowId);
    if (!rules.secrets.every((secret) => verified(secret, call))) {
      throw new AppError('HOOK_UNAUTHORIZED');
    }
    const { executions } = this.#deps;
    const start = await executions.start(
      {
        sessionId: call.sessionId,
        workflowId: call.workflowId,
        ...(call.payload === undefined ? {} : { payload: call.payload }),
      },
      { idempotencyKey: call.idempotencyKey },
    );
    if (rules.waitSeconds === undefined) return { kind: 'accepted', start };
    const { executionId } = start;
    const answer = await executions.firstResult(executionId, rules.waitSeconds * 1000);
    switch (answer.kind) {
      case 'result':
        return { kind: 'answered', executionId, payload: answer.payload };
      case 'ended':
        if (answer.status === 'COMPLETED') return { kind: 'completed', executionId };
        throw new AppError('HOOK_RUN_ENDED', {
          params: { executionId, status: answer.status, detail: answer.error ?? 'no error given' },
        });
      case 'timeout':
        throw new AppError('HOOK_TIMEOUT', {
          params: { executionId, seconds: rules.waitSeconds },
        });
    }
  }

  /**
   * The hook's rules; the same 404 for an unknown session, an unknown workflow and a workflow
   * without a WEBHOOK_TRIGGER, so a caller without a key learns nothing of what exists.
   */
  async #rulesOf(sessionId: string, workflowId: string): Promise<HookRules> {
    const notFound = new AppError('HOOK_NOT_FOUND', { params: { sessionId, workflowId } });
    let nodes;
    try {
      ({ nodes } = await this.#deps.sessions.getWorkflow(sessionId, workflowId));
    } catch (error) {
      if (isAppError(error) && statusIsNotFound(error)) throw notFound;
      throw error;
    }
    const configs = nodes
      .filter((node) => node.type === WEBHOOK_TRIGGER)
      .map((node) => this.#configOf(node.config ?? {}));
    if (configs.length === 0) throw notFound;
    const waits = configs
      .filter((config) => config.respond === 'sync')
      .map((config) => config.timeoutSeconds ?? DEFAULT_SYNC_SECONDS);
    return {
      secrets: configs.flatMap((config) => (config.secret === undefined ? [] : [config.secret])),
      waitSeconds: waits.length === 0 ? undefined : Math.max(...waits),
    };
  }

  /** The trigger's configuration with its secret resolved; the reason stays in the server. */
  #configOf(raw: Readonly<Record<string, unknown>>): WebhookConfig {
    const resolved = this.#deps.resolveConfig(raw);
    const parsed = resolved.ok ? webhookConfigSchema.safeParse(resolved.config) : undefined;
    if (parsed?.success !== true) {
      throw new AppError('HOOK_UNAVAILABLE', {
        cause: resolved.ok ? parsed?.error : new Error(resolved.error),
      });
    }
    return parsed.data;
  }
}

function statusIsNotFound(error: AppError): boolean {
  return error.code === 'SESSION_NOT_FOUND' || error.code === 'WORKFLOW_NOT_FOUND';
}

/** The secret as it is, or a signature of the body made with it. */
function verified(secret: string, call: HookCall): boolean {
  if (call.secret !== undefined && sameText(call.secret, secret)) return true;
  if (call.signature === undefined) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(call.body).digest('hex')}`;
  return sameText(call.signature.trim().toLowerCase(), expected);
}

/** Compares in constant time: digests first, so texts of any length compare alike. */
function sameText(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
