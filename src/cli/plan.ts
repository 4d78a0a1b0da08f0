// What `svc diff` shows and `svc apply` does: the sessions to create and the workflows whose
// definition differs from the server's current version. Definitions are compared as the server
// reads them (a missing description is empty, missing edges are none, an empty config is none),
// so a file exported and applied back changes nothing.
import { isDeepStrictEqual } from 'node:util';
import { userInfo } from 'node:os';
import { dataOf } from '../client/index.js';
import type { ApiClient, ApiSchemas } from '../client/index.js';
import type { SessionFile, WorkflowDefinition, WorkflowFile } from './workflow-files.js';

type CurrentDefinition = ApiSchemas['WorkflowDefinition'];

export type Change =
  | {
      readonly action: 'create-session';
      readonly sessionId: string;
      readonly name: string;
      readonly initiator: string;
      readonly description?: string;
    }
  | {
      readonly action: 'create-workflow' | 'change-workflow';
      readonly sessionId: string;
      readonly workflowId: string;
      readonly file: string;
      readonly definition: WorkflowDefinition;
      /** What differs, in words, for a change. */
      readonly differences: readonly string[];
    }
  | {
      readonly action: 'unchanged';
      readonly sessionId: string;
      readonly workflowId: string;
      readonly file: string;
    };

export async function planChanges(
  api: ApiClient,
  workflows: readonly WorkflowFile[],
  sessions: readonly SessionFile[],
): Promise<Change[]> {
  const existing = new Set((await dataOf(api.GET('/api/sessions'))).map((s) => s.sessionId));
  const changes: Change[] = [];
  const created = new Set<string>();
  const wanted = [
    ...new Set([...sessions.map((s) => s.sessionId), ...workflows.map((w) => w.sessionId)]),
  ];
  for (const sessionId of wanted) {
    if (existing.has(sessionId)) continue;
    const file = sessions.find((session) => session.sessionId === sessionId);
    const folder = workflows.find((workflow) => workflow.sessionId === sessionId)?.folder;
    changes.push({
      action: 'create-session',
      sessionId,
      name: file?.name ?? folder ?? sessionId,
      initiator: file?.initiator ?? initiator(),
      ...(file?.description === undefined ? {} : { description: file.description }),
    });
    created.add(sessionId);
  }
  for (const workflow of workflows) {
    const workflowId = workflow.definition.workflowId;
    const current = created.has(workflow.sessionId)
      ? undefined
      : await currentDefinition(api, workflow.sessionId, workflowId);
    const base = { sessionId: workflow.sessionId, workflowId, file: workflow.file };
    if (current === undefined) {
      changes.push({
        ...base,
        action: 'create-workflow',
        definition: workflow.definition,
        differences: [],
      });
    } else if (isDeepStrictEqual(canonical(current), canonical(workflow.definition))) {
      changes.push({ ...base, action: 'unchanged' });
    } else {
      changes.push({
        ...base,
        action: 'change-workflow',
        definition: workflow.definition,
        differences: differences(canonical(current), canonical(workflow.definition)),
      });
    }
  }
  return changes;
}

async function currentDefinition(
  api: ApiClient,
  sessionId: string,
  workflowId: string,
): Promise<CurrentDefinition | undefined> {
  const answer = await api.GET('/api/sessions/{sessionId}/workflows/{workflowId}', {
    params: { path: { sessionId, workflowId } },
  });
  if (answer.response.status === 404) return undefined;
  return dataOf(Promise.resolve(answer));
}

interface Canonical {
  readonly workflowId: string;
  readonly description: string;
  readonly nodes: readonly { nodeId: string; type: string; config?: unknown }[];
  readonly edges: readonly { source: string; target: string; sourcePort?: string }[];
}

export function canonical(definition: WorkflowDefinition | CurrentDefinition): Canonical {
  return {
    workflowId: definition.workflowId,
    description: definition.description ?? '',
    nodes: definition.nodes.map(({ nodeId, type, config }) => ({
      nodeId,
      type,
      ...(config === undefined || Object.keys(config).length === 0 ? {} : { config }),
    })),
    edges: (definition.edges ?? []).map(({ source, target, sourcePort }) => ({
      source,
      target,
      ...(sourcePort === undefined ? {} : { sourcePort }),
    })),
  };
}

function differences(current: Canonical, next: Canonical): string[] {
  const lines: string[] = [];
  if (current.description !== next.description) lines.push('description changed');
  const before = new Map(current.nodes.map((node) => [node.nodeId, node]));
  const after = new Map(next.nodes.map((node) => [node.nodeId, node]));
  for (const [nodeId, node] of after) {
    const old = before.get(nodeId);
    if (old === undefined) lines.push(`+ node ${nodeId} (${node.type})`);
    else if (!isDeepStrictEqual(old, node)) lines.push(`~ node ${nodeId} (${node.type})`);
  }
  for (const [nodeId, node] of before) {
    if (!after.has(nodeId)) lines.push(`- node ${nodeId} (${node.type})`);
  }
  const edge = (e: Canonical['edges'][number]): string =>
    `${e.source}${e.sourcePort === undefined ? '' : `:${e.sourcePort}`} -> ${e.target}`;
  const edgesBefore = new Set(current.edges.map(edge));
  const edgesAfter = new Set(next.edges.map(edge));
  for (const text of edgesAfter) if (!edgesBefore.has(text)) lines.push(`+ edge ${text}`);
  for (const text of edgesBefore) if (!edgesAfter.has(text)) lines.push(`- edge ${text}`);
  if (lines.length === 0) lines.push('node order or edge order changed');
  return lines;
}

/** Who creates a session the files do not describe: the user at the terminal. */
function initiator(): string {
  try {
    return userInfo().username || 'svc';
  } catch {
    return 'svc';
  }
}
