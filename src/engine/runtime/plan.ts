// Preparing a workflow: validation, then a plan the runs share (nodes in topological order,
// their parsed engine settings, and per output port the children each emit goes to).
import { AppError } from '../../core/index.js';
import type { NodeKind } from '../../plugin-api/index.js';
import { topologicalOrder } from '../dag/graph.js';
import type { WorkflowDefinition } from '../dag/model.js';
import { parseNodeSettings } from '../dag/node-settings.js';
import type { NodeSettings } from '../dag/node-settings.js';
import { validateWorkflow } from '../dag/validate.js';
import { firstChildSuffix } from './message-ids.js';
import type { PluginCatalog, PluginDescriptor } from '../ports.js';

export interface PlannedNode {
  readonly index: number;
  /** Short key used in derived message ids. */
  readonly key: string;
  /** What the node's first emit for a message adds to its id: made once, not per message. */
  readonly idSuffix: string;
  readonly nodeId: string;
  readonly type: string;
  readonly kind: NodeKind;
  readonly config: Readonly<Record<string, unknown>>;
  readonly settings: NodeSettings;
  /** `timeoutSeconds` or the plugin's default, in milliseconds; absent when none applies. */
  readonly idleTimeoutMs: number | undefined;
  readonly descriptor: PluginDescriptor;
  /** Number of incoming edges (each edge is one writer of the node's input). */
  readonly inputEdges: number;
  /** Distinct parent and child nodes, by index. */
  readonly parents: readonly number[];
  readonly children: readonly number[];
  /** The children each output port reaches, one entry per edge; edges without a port are in every list. */
  readonly routes: ReadonlyMap<string, readonly number[]>;
  /** Children of edges without a port, for ports not listed in `routes`. */
  readonly anyPort: readonly number[];
  /**
   * The children of port `out`, which almost every emit goes to: read from here, it costs no
   * map lookup per message.
   */
  readonly outTargets: readonly number[];
  /** A sink: no outgoing edge. When a sink fails, the run ends (SPEC States and transitions). */
  readonly sink: boolean;
}

export interface WorkflowPlan {
  readonly definition: WorkflowDefinition;
  /** In topological order. */
  readonly nodes: readonly PlannedNode[];
  readonly byId: ReadonlyMap<string, PlannedNode>;
}

export interface PrepareOptions {
  readonly workers: boolean;
}

export function prepareWorkflow(
  definition: WorkflowDefinition,
  catalog: PluginCatalog,
  options: PrepareOptions,
): WorkflowPlan {
  const validation = validateWorkflow(definition, catalog, options);
  if (!validation.valid) throw new AppError('WORKFLOW_INVALID', { fieldErrors: validation.errors });
  const order = topologicalOrder(definition);
  const indexOf = new Map(order.map((nodeId, index) => [nodeId, index]));
  const definitions = new Map(definition.nodes.map((node) => [node.nodeId, node]));
  const inputEdges = new Array<number>(order.length).fill(0);
  const parents = order.map(() => new Set<number>());
  const children = order.map(() => new Set<number>());
  const ported = order.map(() => new Map<string, number[]>());
  const unported = order.map((): number[] => []);
  for (const edge of definition.edges) {
    const source = indexOf.get(edge.source);
    const target = indexOf.get(edge.target);
    if (source === undefined || target === undefined) continue;
    inputEdges[target] = (inputEdges[target] ?? 0) + 1;
    parents[target]?.add(source);
    children[source]?.add(target);
    if (edge.sourcePort === undefined) unported[source]?.push(target);
    else {
      const routes = ported[source];
      routes?.set(edge.sourcePort, [...(routes.get(edge.sourcePort) ?? []), target]);
    }
  }
  const nodes = order.map((nodeId, index): PlannedNode => {
    const node = definitions.get(nodeId);
    const descriptor = node && catalog.find(node.type);
    if (!node || !descriptor) throw new Error(`Node '${nodeId}' vanished while preparing`);
    const config = node.config ?? {};
    const parsed = parseNodeSettings(config, options);
    if (!parsed.ok) throw new AppError('WORKFLOW_INVALID', { fieldErrors: parsed.errors });
    const settings = parsed.value;
    const timeoutSeconds = settings.timeoutSeconds ?? descriptor.defaultTimeoutSeconds;
    const key = index.toString(36);
    const anyPort = unported[index] ?? [];
    const routes = new Map<string, readonly number[]>();
    for (const [port, targets] of ported[index] ?? []) routes.set(port, [...targets, ...anyPort]);
    return {
      index,
      key,
      idSuffix: firstChildSuffix(key),
      nodeId,
      type: node.type,
      kind: descriptor.kind,
      config,
      settings,
      idleTimeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
      descriptor,
      inputEdges: inputEdges[index] ?? 0,
      parents: [...(parents[index] ?? [])],
      children: [...(children[index] ?? [])],
      routes,
      anyPort,
      outTargets: routes.get('out') ?? anyPort,
      sink: (children[index]?.size ?? 0) === 0,
    };
  });
  return { definition, nodes, byId: new Map(nodes.map((node) => [node.nodeId, node])) };
}
