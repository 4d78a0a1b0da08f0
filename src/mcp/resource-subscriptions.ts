// Subscriptions of one MCP session to resources (MCP "Resources", subscriptions): a resource of
// an execution sends `notifications/resources/updated` when an event changes what it shows.
// Only executions change on their own; the other resources are read when wanted.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../auth/index.js';
import type { Subscription } from '../events/index.js';
import { protocolError, ProtocolRefusal, RESOURCE_NOT_FOUND } from './error-mapping.js';
import { matchResource } from './resources.js';
import type { ToolDeps } from './tool.js';
import { checkAccess } from './tool-access.js';

/**
 * A busy run writes many log lines; updates of one resource are sent at most this often, each
 * saying only "read me again".
 */
const UPDATE_INTERVAL_MS = 100;

interface Watched {
  readonly subscription: Subscription;
  timer: NodeJS.Timeout | undefined;
}

export class ResourceSubscriptions {
  readonly #watched = new Map<string, Watched>();
  readonly #deps: ToolDeps;
  readonly #notify: (uri: string) => void;

  constructor(deps: ToolDeps, notify: (uri: string) => void) {
    this.#deps = deps;
    this.#notify = notify;
  }

  /** Follows `uri` for `principal`; refuses a resource it may not read, or one that never changes. */
  subscribe(uri: string, principal: Principal | null): void {
    const match = matchResource(uri);
    if (match === undefined) {
      throw new ProtocolRefusal(RESOURCE_NOT_FOUND, `404 No resource has the URI '${uri}'`);
    }
    const { spec, params } = match;
    const changesOn = spec.changesOn;
    const executionId = params.executionId;
    if (changesOn === undefined || executionId === undefined) {
      throw new ProtocolRefusal(
        ErrorCode.InvalidParams,
        `400 Only resources of executions change; '${uri}' can be read again at any time`,
      );
    }
    if (this.#watched.has(uri)) return;
    try {
      checkAccess(spec, params, principal, this.#deps);
    } catch (error) {
      throw protocolError(error, RESOURCE_NOT_FOUND);
    }
    const watched: Watched = {
      timer: undefined,
      subscription: this.#deps.executions.watch(executionId, (event) => {
        if (!changesOn(event, params) || watched.timer !== undefined) return;
        watched.timer = setTimeout(() => {
          watched.timer = undefined;
          this.#notify(uri);
        }, UPDATE_INTERVAL_MS);
      }),
    };
    this.#watched.set(uri, watched);
  }

  unsubscribe(uri: string): void {
    const watched = this.#watched.get(uri);
    if (watched === undefined) return;
    this.#stop(watched);
    this.#watched.delete(uri);
  }

  close(): void {
    for (const watched of this.#watched.values()) this.#stop(watched);
    this.#watched.clear();
  }

  #stop(watched: Watched): void {
    watched.subscription.close();
    clearTimeout(watched.timer);
  }
}
