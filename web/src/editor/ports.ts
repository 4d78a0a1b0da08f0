// The output ports a node offers: those the validate call reports for its configuration, else
// the plugin's usual ones; a port an edge still uses stays on view so the edge has an end.
import type { DefinitionEdge, DefinitionNode, PluginView } from '../types';
import { DEFAULT_PORT, portOf } from './model';
import type { Problems } from './validation';

export function portsOf(
  node: DefinitionNode,
  problems: Problems,
  plugins: ReadonlyMap<string, PluginView>,
  edges: readonly DefinitionEdge[],
): string[] {
  const reported = problems.outputPorts[node.nodeId] ??
    plugins.get(node.type)?.ports ?? [DEFAULT_PORT];
  const ports = [...reported];
  for (const edge of edges) {
    const port = portOf(edge);
    if (edge.source === node.nodeId && !ports.includes(port)) ports.push(port);
  }
  return ports;
}

/** Triggers take no input: their nodes have no input handle. */
export function takesInput(
  node: DefinitionNode,
  plugins: ReadonlyMap<string, PluginView>,
): boolean {
  return plugins.get(node.type)?.kind !== 'trigger';
}
