// Completions (MCP `completion/complete`) for the arguments of prompts and resource templates
// that name a session, workflow, version, execution, node or plugin type. Only what the caller's
// key may reach is offered: the rule of the prompt or resource first, then its sessions.
import type { Principal } from '../auth/index.js';
import { findPrompt } from './prompts.js';
import { RESOURCES } from './resources.js';
import type { AccessRule, ToolDeps } from './tool.js';
import { mayUse, reachesSession } from './tool-access.js';

/** MCP allows at most 100 values in one answer. */
const MAX_VALUES = 100;
/** Executions offered when no session narrows them: the newest of each session reachable. */
const EXECUTIONS_PER_SESSION = 20;

export interface CompletionRequest {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: { readonly name: string; readonly value: string };
  /** Arguments already chosen, which narrow the candidates. */
  readonly context: Readonly<Record<string, string>>;
}

export interface Completion {
  readonly values: string[];
  readonly total: number;
  readonly hasMore: boolean;
}

function ruleOf(ref: CompletionRequest['ref']): AccessRule | undefined {
  if (ref.type === 'ref/prompt') return findPrompt(ref.name ?? '');
  if (ref.type === 'ref/resource') return RESOURCES.find((spec) => spec.uriTemplate === ref.uri);
  return undefined;
}

export async function complete(
  request: CompletionRequest,
  principal: Principal | null,
  deps: ToolDeps,
): Promise<Completion> {
  const rule = ruleOf(request.ref);
  if (rule === undefined || !mayUse(rule, principal)) return answer([]);
  let candidates: readonly string[];
  try {
    candidates = await candidatesOf(request.argument.name, request.context, principal, deps);
  } catch {
    // A context naming an unknown session or execution narrows the candidates to none.
    candidates = [];
  }
  const prefix = request.argument.value;
  return answer(candidates.filter((value) => value.startsWith(prefix)));
}

function answer(values: readonly string[]): Completion {
  return {
    values: values.slice(0, MAX_VALUES),
    total: values.length,
    hasMore: values.length > MAX_VALUES,
  };
}

async function candidatesOf(
  argument: string,
  context: Readonly<Record<string, string>>,
  principal: Principal | null,
  deps: ToolDeps,
): Promise<readonly string[]> {
  const { sessionId, workflowId, executionId } = context;
  const sessions = async (): Promise<string[]> =>
    sessionId === undefined
      ? (await deps.sessions.listSessions())
          .map((session) => session.sessionId)
          .filter((id) => reachesSession(principal, id))
      : reachesSession(principal, sessionId)
        ? [sessionId]
        : [];
  switch (argument) {
    case 'sessionId':
      return sessionId === undefined ? sessions() : [];
    case 'workflowId': {
      const found: string[] = [];
      for (const id of await sessions()) {
        for (const workflow of (await deps.sessions.getSession(id)).workflows) found.push(workflow);
      }
      return [...new Set(found)];
    }
    case 'version': {
      if (sessionId === undefined || workflowId === undefined) return [];
      if (!reachesSession(principal, sessionId)) return [];
      const versions = await deps.sessions.listVersions(sessionId, workflowId);
      return versions.map((version) => String(version.version));
    }
    case 'executionId': {
      const found: string[] = [];
      for (const id of await sessions()) {
        const limit = sessionId === undefined ? EXECUTIONS_PER_SESSION : MAX_VALUES + 1;
        for (const record of deps.executions.history(id, { workflowId, limit })) {
          found.push(record.executionId);
        }
      }
      return found;
    }
    case 'nodeId': {
      if (executionId !== undefined) {
        const owner = deps.executions.sessionOf(executionId);
        if (owner === undefined || !reachesSession(principal, owner)) return [];
        return Object.keys(deps.executions.read(executionId).nodes);
      }
      if (sessionId === undefined || workflowId === undefined) return [];
      if (!reachesSession(principal, sessionId)) return [];
      const definition = await deps.sessions.getWorkflow(sessionId, workflowId);
      return definition.nodes.map((node) => node.nodeId);
    }
    case 'type':
      return deps.plugins.list().map((plugin) => plugin.type);
    default:
      return [];
  }
}
