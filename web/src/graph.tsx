// A workflow graph drawn as SVG: one column per topological level (as the graph call answers
// them), edges as curves from a node's right side to its child's left side.
import { useId } from 'react';
import type { NodeRecord, WorkflowGraph } from './types';

const NODE_WIDTH = 200;
const NODE_HEIGHT = 46;
const COLUMN_GAP = 64;
const ROW_GAP = 16;
const PADDING = 10;
const LABEL_LENGTH = 28;

function shorten(text: string): string {
  return text.length > LABEL_LENGTH ? `${text.slice(0, LABEL_LENGTH - 1)}…` : text;
}

export function GraphView(props: {
  readonly graph: WorkflowGraph;
  /** Node statuses of an execution, to colour the nodes by. */
  readonly nodes?: Readonly<Record<string, NodeRecord>>;
}) {
  const { graph, nodes } = props;
  const arrow = `arrow-${useId().replace(/:/g, '')}`;
  const positions = new Map<string, { x: number; y: number }>();
  graph.levels.forEach((level, column) => {
    level.forEach((nodeId, row) => {
      positions.set(nodeId, {
        x: PADDING + column * (NODE_WIDTH + COLUMN_GAP),
        y: PADDING + row * (NODE_HEIGHT + ROW_GAP),
      });
    });
  });
  const rows = Math.max(1, ...graph.levels.map((level) => level.length));
  const width = 2 * PADDING + graph.levels.length * (NODE_WIDTH + COLUMN_GAP) - COLUMN_GAP;
  const height = 2 * PADDING + rows * (NODE_HEIGHT + ROW_GAP) - ROW_GAP;
  return (
    <div className="graph">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="img"
        aria-label={`Graph of workflow ${graph.workflowId}`}
      >
        <defs>
          <marker
            id={arrow}
            viewBox="0 0 8 8"
            refX="8"
            refY="4"
            markerWidth="8"
            markerHeight="8"
            orient="auto"
          >
            <path d="M0,0 L8,4 L0,8 z" className="arrow" />
          </marker>
        </defs>
        {graph.edges.map((edge, index) => {
          const from = positions.get(edge.source);
          const to = positions.get(edge.target);
          if (from === undefined || to === undefined) return null;
          const x1 = from.x + NODE_WIDTH;
          const y1 = from.y + NODE_HEIGHT / 2;
          const x2 = to.x;
          const y2 = to.y + NODE_HEIGHT / 2;
          const bend = Math.max(24, (x2 - x1) / 2);
          const port = edge.sourcePort;
          return (
            <g key={`${edge.source}>${edge.target}:${port ?? ''}:${index}`}>
              <path
                className="edge"
                d={`M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`}
                markerEnd={`url(#${arrow})`}
              />
              {port !== undefined && port !== 'out' && (
                <text className="port" x={x1 + 6} y={y1 - 5}>
                  {port}
                </text>
              )}
            </g>
          );
        })}
        {graph.nodes.map((node) => {
          const position = positions.get(node.nodeId);
          if (position === undefined) return null;
          const status = nodes?.[node.nodeId]?.status;
          return (
            <g
              key={node.nodeId}
              className={`node kind-${node.kind}${status === undefined ? '' : ` status-${status}`}`}
              transform={`translate(${position.x},${position.y})`}
              data-node-id={node.nodeId}
            >
              <title>{`${node.nodeId} (${node.type}, ${node.kind})${status === undefined ? '' : `: ${status}`}`}</title>
              <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx="6" />
              <text x="10" y="19" className="node-id">
                {shorten(node.nodeId)}
              </text>
              <text x="10" y="36" className="node-type">
                {shorten(status === undefined ? node.type : `${node.type} · ${status}`)}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
