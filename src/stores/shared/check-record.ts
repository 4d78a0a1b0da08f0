// Shape checks for records read back from storage: a persisted record is untrusted input, and
// a damaged one must be reported with the field at fault rather than surface later as a crash.
import type {
  SessionRecord,
  WorkflowLayout,
  WorkflowRecord,
  WorkflowVersionRecord,
} from '../../engine/index.js';

export type CheckedRecord<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

class ShapeProblem extends Error {}

type Fields = Readonly<Record<string, unknown>>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fields(value: unknown, at: string): Fields {
  if (!isFields(value)) throw new ShapeProblem(`${at} must be an object`);
  return value;
}

function list(value: unknown, at: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new ShapeProblem(`${at} must be an array`);
  return value;
}

function text(owner: Fields, key: string, at: string): void {
  if (typeof owner[key] !== 'string') throw new ShapeProblem(`${at}.${key} must be a string`);
}

function optionalText(owner: Fields, key: string, at: string): void {
  if (key in owner && typeof owner[key] !== 'string') {
    throw new ShapeProblem(`${at}.${key} must be a string when present`);
  }
}

function check<T>(
  value: unknown,
  root: string,
  walk: (value: unknown, at: string) => void,
): CheckedRecord<T> {
  try {
    walk(value, root);
    // The walk above has checked every field the type declares.
    return { ok: true, value: value as T };
  } catch (error) {
    if (error instanceof ShapeProblem) return { ok: false, problem: error.message };
    throw error;
  }
}

function walkSession(value: unknown, at: string): void {
  const session = fields(value, at);
  for (const key of ['sessionId', 'name', 'initiator', 'description', 'createdAt', 'updatedAt']) {
    text(session, key, at);
  }
}

function walkDefinition(value: unknown, at: string): void {
  const definition = fields(value, at);
  text(definition, 'workflowId', at);
  text(definition, 'description', at);
  list(definition.nodes, `${at}.nodes`).forEach((item, index) => {
    const nodeAt = `${at}.nodes[${index}]`;
    const node = fields(item, nodeAt);
    text(node, 'nodeId', nodeAt);
    text(node, 'type', nodeAt);
    if ('config' in node) fields(node.config, `${nodeAt}.config`);
  });
  list(definition.edges, `${at}.edges`).forEach((item, index) => {
    const edgeAt = `${at}.edges[${index}]`;
    const edge = fields(item, edgeAt);
    text(edge, 'source', edgeAt);
    text(edge, 'target', edgeAt);
    optionalText(edge, 'sourcePort', edgeAt);
  });
}

function walkVersion(value: unknown, at: string): void {
  const version = fields(value, at);
  if (!Number.isSafeInteger(version.version)) {
    throw new ShapeProblem(`${at}.version must be an integer`);
  }
  text(version, 'createdAt', at);
  text(version, 'author', at);
  if (version.note !== null && typeof version.note !== 'string') {
    throw new ShapeProblem(`${at}.note must be a string or null`);
  }
  walkDefinition(version.definition, `${at}.definition`);
}

function walkLayout(value: unknown, at: string): void {
  for (const [nodeId, item] of Object.entries(fields(value, at))) {
    const position = fields(item, `${at}.${nodeId}`);
    for (const axis of ['x', 'y']) {
      if (typeof position[axis] !== 'number' || !Number.isFinite(position[axis])) {
        throw new ShapeProblem(`${at}.${nodeId}.${axis} must be a finite number`);
      }
    }
  }
}

function walkWorkflowFields(value: unknown, at: string): Fields {
  const workflow = fields(value, at);
  text(workflow, 'sessionId', at);
  text(workflow, 'workflowId', at);
  text(workflow, 'createdAt', at);
  if (workflow.active !== undefined && typeof workflow.active !== 'boolean') {
    throw new ShapeProblem(`${at}.active must be a boolean`);
  }
  if (workflow.layout !== undefined) walkLayout(workflow.layout, `${at}.layout`);
  return workflow;
}

function walkWorkflow(value: unknown, at: string): void {
  const workflow = walkWorkflowFields(value, at);
  list(workflow.versions, `${at}.versions`).forEach((item, index) => {
    walkVersion(item, `${at}.versions[${index}]`);
  });
}

/** Checks a workflow record's own fields, leaving its versions to `checkVersionRecord`. */
function walkWorkflowShell(value: unknown, at: string): void {
  const workflow = walkWorkflowFields(value, at);
  list(workflow.versions, `${at}.versions`);
}

export function checkSessionRecord(value: unknown): CheckedRecord<SessionRecord> {
  return check<SessionRecord>(value, 'session', walkSession);
}

export function checkWorkflowRecord(value: unknown): CheckedRecord<WorkflowRecord> {
  return check<WorkflowRecord>(value, 'workflow', walkWorkflow);
}

export function checkVersionRecord(value: unknown): CheckedRecord<WorkflowVersionRecord> {
  return check<WorkflowVersionRecord>(value, 'version', walkVersion);
}

export function checkWorkflowShell(value: unknown): CheckedRecord<WorkflowRecord> {
  return check<WorkflowRecord>(value, 'workflow', walkWorkflowShell);
}

/** A layout kept apart from its workflow's other fields (the relational store's column). */
export function checkWorkflowLayout(value: unknown): CheckedRecord<WorkflowLayout> {
  return check<WorkflowLayout>(value, 'layout', walkLayout);
}
