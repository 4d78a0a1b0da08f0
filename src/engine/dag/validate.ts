// Workflow validation (SPEC WorkflowDefinition, Limits; CONTRACT section 2): every rule a
// draft must pass before it is saved or run, collecting all problems rather than the first.
import type { FieldError } from '../../core/index.js';
import { checkingExpressionsTogether } from '../../plugin-api/index.js';
import type { PluginCatalog, PluginDescriptor } from '../ports.js';
import { buildAdjacency, edgeKey } from './adjacency.js';
import { findCycles } from './cycles.js';
import { MAX_DESCRIPTION_LENGTH, MAX_EDGES, MAX_NODES } from './model.js';
import type { EdgeDefinition, NodeDefinition, WorkflowDefinition } from './model.js';
import { ERROR_PORT, parseNodeSettings } from './node-settings.js';

export interface WorkflowValidationOptions {
  /** Whether the build includes remote workers (`engine.placement` needs them). */
  readonly workers: boolean;
}

export interface WorkflowValidation {
  readonly valid: boolean;
  readonly message: string;
  readonly errors: FieldError[];
  /** `{ "<nodeId>": ["out", ...] }` for every node whose type and configuration are valid. */
  readonly outputPorts: Record<string, string[]>;
}

export const VALID_MESSAGE = 'Workflow is valid';

export const PLACEMENT_KIND_MESSAGE = 'Only processors can be placed on a remote worker';

/** Why a whole-stream processor cannot be placed (docs/workers.md, "What can be placed"). */
export function wholeStreamMessage(type: string): string {
  return `Plugin type '${type}' processes the whole stream; only per-message processors can run on a remote worker`;
}

interface CheckedNode {
  readonly descriptor: PluginDescriptor | undefined;
  /** Undefined when the type or configuration has a problem. */
  readonly ports: string[] | undefined;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one node: its type, its engine settings and its plugin configuration. */
function checkNode(
  node: NodeDefinition,
  field: string,
  catalog: PluginCatalog,
  options: WorkflowValidationOptions,
  errors: FieldError[],
): CheckedNode {
  const descriptor = catalog.find(node.type);
  if (descriptor === undefined) {
    const message = catalog.excludedReason(node.type) ?? `Unknown plugin type '${node.type}'`;
    errors.push({ field: `${field}.type`, message });
  }
  // The model types config as an object, but drafts arrive as JSON from outside.
  const raw: unknown = node.config;
  const config = raw === undefined ? {} : raw;
  if (!isPlainObject(config)) {
    errors.push({ field: `${field}.config`, message: 'Node configuration must be an object' });
    return { descriptor, ports: undefined };
  }
  const before = errors.length;
  const settings = parseNodeSettings(config, options);
  const seen = new Set<string>();
  if (!settings.ok) {
    for (const error of settings.errors) {
      seen.add(`${error.field}\n${error.message}`);
      errors.push({ field: `${field}.${error.field}`, message: error.message });
    }
  }
  // Only a processor's messages can be handed to a worker one by one: a trigger produces the
  // stream and a terminal's messages are the run's results.
  if (settings.ok && settings.value.placement !== undefined && descriptor !== undefined) {
    if (descriptor.kind !== 'processor') {
      errors.push({
        field: `${field}.config.engine.placement`,
        message: `${PLACEMENT_KIND_MESSAGE}; '${node.type}' is a ${descriptor.kind}`,
      });
    } else if (descriptor.wholeStream === true) {
      errors.push({
        field: `${field}.config.engine.placement`,
        message: wholeStreamMessage(node.type),
      });
    }
  }
  if (descriptor !== undefined) {
    for (const error of descriptor.validateConfig(config)) {
      const relative =
        error.field === '' || error.field.startsWith('[')
          ? `config${error.field}`
          : `config.${error.field}`;
      // A key both sides check (WAIT_FOR_SIGNAL's timeoutSeconds) is reported once.
      if (seen.has(`${relative}\n${error.message}`)) continue;
      errors.push({ field: `${field}.${relative}`, message: error.message });
    }
  }
  if (descriptor === undefined || !settings.ok || errors.length > before) {
    return { descriptor, ports: undefined };
  }
  const ports = [...descriptor.outputPorts(config)];
  if (settings.value.onError === 'ERROR_PORT' && !ports.includes(ERROR_PORT)) {
    ports.push(ERROR_PORT);
  }
  return { descriptor, ports };
}

function checkEdges(
  edges: readonly EdgeDefinition[],
  nodes: ReadonlyMap<string, CheckedNode>,
  errors: FieldError[],
): void {
  const firstIndex = new Map<string, number>();
  edges.forEach((edge, index) => {
    const field = `edges[${index}]`;
    const source = nodes.get(edge.source);
    const target = nodes.get(edge.target);
    if (source === undefined) {
      errors.push({ field: `${field}.source`, message: `Unknown source node '${edge.source}'` });
    }
    if (target === undefined) {
      errors.push({ field: `${field}.target`, message: `Unknown target node '${edge.target}'` });
    } else if (target.descriptor?.kind === 'trigger') {
      errors.push({
        field: `${field}.target`,
        message: `Node '${edge.target}' is a trigger (${target.descriptor.type}) and takes no input`,
      });
    }
    const ports = source?.ports;
    if (edge.sourcePort !== undefined && ports !== undefined && !ports.includes(edge.sourcePort)) {
      errors.push({
        field: `${field}.sourcePort`,
        message: `Node '${edge.source}' has no output port '${edge.sourcePort}'; its ports are ${ports.join(', ')}`,
      });
    }
    const key = edgeKey(edge);
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, index);
    else {
      errors.push({
        field,
        message: `Edge repeats edges[${first}]; each message would arrive twice`,
      });
    }
  });
}

function summary(errors: readonly FieldError[]): string {
  if (errors.length === 0) return VALID_MESSAGE;
  const problems = errors.map((error) => `${error.field}: ${error.message}`).join('; ');
  return errors.length === 1 ? problems : `${errors.length} problems: ${problems}`;
}

/** Applies every rule of a workflow definition; the same rules hold for saving and running. */
export function validateWorkflow(
  definition: WorkflowDefinition,
  catalog: PluginCatalog,
  options: WorkflowValidationOptions,
): WorkflowValidation {
  // A large draft holds hundreds of expressions never seen before: parsed together they cost
  // a fraction of parsing each on its own.
  return checkingExpressionsTogether(() => applyRules(definition, catalog, options));
}

function applyRules(
  definition: WorkflowDefinition,
  catalog: PluginCatalog,
  options: WorkflowValidationOptions,
): WorkflowValidation {
  const errors: FieldError[] = [];
  const { nodes, edges } = definition;
  if (definition.description.length > MAX_DESCRIPTION_LENGTH) {
    errors.push({
      field: 'description',
      message: `Description must have at most ${MAX_DESCRIPTION_LENGTH} characters; it has ${definition.description.length}`,
    });
  }
  if (nodes.length === 0) {
    errors.push({ field: 'nodes', message: 'A workflow needs at least one node' });
  } else if (nodes.length > MAX_NODES) {
    errors.push({
      field: 'nodes',
      message: `A workflow may have at most ${MAX_NODES} nodes; this one has ${nodes.length}`,
    });
  }
  if (edges.length > MAX_EDGES) {
    errors.push({
      field: 'edges',
      message: `A workflow may have at most ${MAX_EDGES} edges; this one has ${edges.length}`,
    });
  }

  const checked = new Map<string, CheckedNode>();
  const outputPorts = new Map<string, string[]>();
  let hasTrigger = false;
  for (const [index, node] of nodes.entries()) {
    const field = `nodes[${index}]`;
    const duplicate = checked.has(node.nodeId);
    if (node.nodeId === '') {
      errors.push({ field: `${field}.nodeId`, message: 'Node id must not be empty' });
    } else if (duplicate) {
      errors.push({ field: `${field}.nodeId`, message: `Duplicate node id '${node.nodeId}'` });
    }
    const result = checkNode(node, field, catalog, options, errors);
    if (result.descriptor?.kind === 'trigger') hasTrigger = true;
    if (duplicate) continue;
    checked.set(node.nodeId, result);
    if (result.ports !== undefined) outputPorts.set(node.nodeId, result.ports);
  }
  if (nodes.length > 0 && !hasTrigger) {
    errors.push({ field: 'nodes', message: 'A workflow needs at least one trigger node' });
  }

  checkEdges(edges, checked, errors);
  for (const cycle of findCycles(buildAdjacency(definition))) {
    errors.push({ field: 'edges', message: `Cycle detected: ${cycle.join(' -> ')}` });
  }

  return {
    valid: errors.length === 0,
    message: summary(errors),
    errors,
    // fromEntries defines own properties, so a node named `__proto__` stays an ordinary key.
    outputPorts: Object.fromEntries(outputPorts),
  };
}
