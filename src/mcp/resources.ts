// What the endpoint shows as resources (MCP "Resources"): the plugin catalogue, sessions and
// their workflows with saved versions, and executions with their results and log lines, under
// stable `svc://` URIs. Each answers the data of the REST call it stands for, as JSON, under
// the same access rules as the tool that reads it.
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { Principal } from '../auth/index.js';
import { AppError } from '../core/index.js';
import type { ExecutionEvent } from '../executions/index.js';
import type { AccessRule, ToolDeps } from './tool.js';
import { mayUse, reachesSession } from './tool-access.js';

/** The variables of a resource URI, by the argument names the tools use. */
export type ResourceParams = Readonly<Record<string, string>>;

export interface ResourceSpec extends AccessRule {
  readonly uriTemplate: string;
  readonly title: string;
  readonly description: string;
  read(params: ResourceParams, deps: ToolDeps): unknown;
  /** For resources of an execution: which of its events change what the resource shows. */
  readonly changesOn?: (event: ExecutionEvent, params: ResourceParams) => boolean;
}

const ruleOf = (name: string, scope: AccessRule['scope']) =>
  ({ name, role: 'VIEWER', scope, noun: 'resource' }) as const;

const isState = (event: ExecutionEvent): boolean =>
  event.kind.startsWith('execution.') || event.kind.startsWith('node.');

export const RESOURCES: readonly ResourceSpec[] = [
  {
    ...ruleOf('plugins', 'global'),
    uriTemplate: 'svc://plugins',
    title: 'Plugin catalogue',
    description: 'Every node type of this build: kind, configuration JSON Schema and ports.',
    read: (_params, { plugins }) => plugins.list(),
  },
  {
    ...ruleOf('plugin', 'global'),
    uriTemplate: 'svc://plugins/{type}',
    title: 'Plugin type',
    description: 'One node type: kind, configuration JSON Schema and output ports.',
    read: ({ type = '' }, { plugins }) => {
      const info = plugins.describe(type);
      if (info === undefined) throw new AppError('PLUGIN_TYPE_NOT_FOUND', { params: { type } });
      return info;
    },
  },
  {
    ...ruleOf('session', 'session'),
    uriTemplate: 'svc://sessions/{sessionId}',
    title: 'Session',
    description: 'A session: name, initiator, description and its workflows.',
    read: ({ sessionId = '' }, { sessions }) => sessions.getSession(sessionId),
  },
  {
    ...ruleOf('workflow', 'session'),
    uriTemplate: 'svc://sessions/{sessionId}/workflows/{workflowId}',
    title: 'Workflow definition',
    description: 'The current definition of a workflow: nodes, edges and their configuration.',
    read: ({ sessionId = '', workflowId = '' }, { sessions }) =>
      sessions.getWorkflow(sessionId, workflowId),
  },
  {
    ...ruleOf('workflow-versions', 'session'),
    uriTemplate: 'svc://sessions/{sessionId}/workflows/{workflowId}/versions',
    title: 'Workflow versions',
    description: 'The saved versions of a workflow, newest first, with author and note.',
    read: ({ sessionId = '', workflowId = '' }, { sessions }) =>
      sessions.listVersions(sessionId, workflowId),
  },
  {
    ...ruleOf('workflow-version', 'session'),
    uriTemplate: 'svc://sessions/{sessionId}/workflows/{workflowId}/versions/{version}',
    title: 'Workflow version',
    description: 'The definition of one saved version of a workflow.',
    read: ({ sessionId = '', workflowId = '', version = '' }, { sessions }) =>
      sessions.getVersion(sessionId, workflowId, version),
  },
  {
    ...ruleOf('execution', 'execution'),
    uriTemplate: 'svc://executions/{executionId}',
    title: 'Execution',
    description:
      'An execution record: status, nodes with their statuses and counts, and its progress. Subscribe to follow it.',
    read: ({ executionId = '' }, { executions }) => executions.status(executionId),
    changesOn: isState,
  },
  {
    ...ruleOf('execution-results', 'execution'),
    uriTemplate: 'svc://executions/{executionId}/results',
    title: 'Execution results',
    description: 'The result events of an execution (what its terminals received), oldest first.',
    read: ({ executionId = '' }, { executions }) => executions.results(executionId),
    changesOn: (event) => event.kind === 'result',
  },
  {
    ...ruleOf('execution-logs', 'execution'),
    uriTemplate: 'svc://executions/{executionId}/logs',
    title: 'Execution log lines',
    description: 'The node log lines of an execution, oldest first.',
    read: ({ executionId = '' }, { executions }) => executions.logs(executionId, {}),
    changesOn: (event) => event.kind === 'log',
  },
  {
    ...ruleOf('execution-node', 'execution'),
    uriTemplate: 'svc://executions/{executionId}/nodes/{nodeId}',
    title: 'Execution node',
    description: 'One node of an execution: its record and its log lines.',
    read: ({ executionId = '', nodeId = '' }, { executions }) => {
      const node = executions.read(executionId).nodes[nodeId];
      if (node === undefined) {
        throw new AppError('NODE_NOT_FOUND', { params: { executionId, nodeId } });
      }
      return { nodeId, ...node, logs: executions.logs(executionId, { nodeId }) };
    },
    changesOn: (event, { nodeId }) =>
      'nodeId' in event && event.nodeId === nodeId && (isState(event) || event.kind === 'log'),
  },
];

const TEMPLATES = RESOURCES.map((spec) => ({ spec, template: new UriTemplate(spec.uriTemplate) }));

/** The resource a URI names, with its variables; undefined for a URI of no resource. */
export function matchResource(
  uri: string,
): { readonly spec: ResourceSpec; readonly params: ResourceParams } | undefined {
  for (const { spec, template } of TEMPLATES) {
    const variables = template.match(uri);
    if (variables === null) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(variables)) {
      params[name] = decodeURIComponent(Array.isArray(value) ? value.join(',') : value);
    }
    // A variable matches across `/` too; a URI with more segments names another resource.
    if (Object.values(params).some((value) => value === '' || value.includes('/'))) continue;
    return { spec, params };
  }
  return undefined;
}

/** The concrete resources `resources/list` names: the catalogue, and each session reachable. */
export async function listResources(
  principal: Principal | null,
  deps: ToolDeps,
): Promise<{ uri: string; name: string; title: string; mimeType: string }[]> {
  const listed: { uri: string; name: string; title: string; mimeType: string }[] = [];
  const mimeType = 'application/json';
  const catalogue = RESOURCES.find((spec) => spec.uriTemplate === 'svc://plugins');
  if (catalogue !== undefined && mayUse(catalogue, principal)) {
    listed.push({
      uri: catalogue.uriTemplate,
      name: catalogue.name,
      title: catalogue.title,
      mimeType,
    });
  }
  for (const session of await deps.sessions.listSessions()) {
    if (!reachesSession(principal, session.sessionId)) continue;
    const base = `svc://sessions/${encodeURIComponent(session.sessionId)}`;
    listed.push({ uri: base, name: session.sessionId, title: `Session ${session.name}`, mimeType });
    for (const workflowId of session.workflows) {
      listed.push({
        uri: `${base}/workflows/${encodeURIComponent(workflowId)}`,
        name: `${session.sessionId}/${workflowId}`,
        title: `Workflow ${workflowId} of session ${session.sessionId}`,
        mimeType,
      });
    }
  }
  return listed;
}
