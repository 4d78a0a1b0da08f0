// Automatic layout with ELK's layered algorithm: sources on the left, edges running right,
// each node as tall as its list of output ports.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { WorkflowDefinition } from '../types';
import type { Point } from './model';

export const NODE_WIDTH = 220;
/** Header of a node card, then one row per output port (the card's CSS uses the same sizes). */
const HEADER_HEIGHT = 58;
export const PORT_ROW_HEIGHT = 24;

export function nodeHeight(ports: number): number {
  return HEADER_HEIGHT + Math.max(ports, 1) * PORT_ROW_HEIGHT;
}

const elk = new ELK();

export async function layout(
  definition: WorkflowDefinition,
  portCount: (nodeId: string) => number,
): Promise<Record<string, Point>> {
  const ids = new Set(definition.nodes.map((node) => node.nodeId));
  const graph = await elk.layout({
    id: 'workflow',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '40',
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
    },
    children: definition.nodes.map((node) => ({
      id: node.nodeId,
      width: NODE_WIDTH,
      height: nodeHeight(portCount(node.nodeId)),
    })),
    edges: definition.edges
      .filter((edge) => ids.has(edge.source) && ids.has(edge.target))
      .map((edge, index) => ({ id: `e${index}`, sources: [edge.source], targets: [edge.target] })),
  });
  const positions: Record<string, Point> = {};
  for (const child of graph.children ?? []) {
    positions[child.id] = { x: Math.round(child.x ?? 0) + 20, y: Math.round(child.y ?? 0) + 20 };
  }
  return positions;
}
