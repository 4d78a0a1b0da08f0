// A workflow graph drawn as SVG: one column per topological level (as the graph call answers
// them), edges as curves from a node's right side to its child's left side. With a run's live
// flow, each edge tells its messages per second and how full the child's input is, and each
// node its counts and whether it holds the others back, in words beside any colour.
import { useId } from 'react';
import type { EdgeFlow, NodeFlow, NodeRecord, RunFlow, WorkflowGraph } from './types';

const NODE_WIDTH = 200;
const NODE_HEIGHT = 46;
/** A node with a live flow has a third line: its counts. */
const FLOW_NODE_HEIGHT = 62;
const COLUMN_GAP = 64;
/** Room for the edge labels of a live flow. */
const FLOW_COLUMN_GAP = 120;
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
  /** The run's live flow: rates and loads on the edges, counts on the nodes. */
  readonly flow?: RunFlow | undefined;
}) {
  const { graph, nodes, flow } = props;
  const arrow = `arrow-${useId().replace(/:/g, '')}`;
  const nodeHeight = flow === undefined ? NODE_HEIGHT : FLOW_NODE_HEIGHT;
  const gap = flow === undefined ? COLUMN_GAP : FLOW_COLUMN_GAP;
  const nodeFlows = new Map<string, NodeFlow>(flow?.nodes.map((node) => [node.nodeId, node]));
  const edgeFlows = new Map<string, EdgeFlow>(
    flow?.edges.map((edge) => [`${edge.source}>${edge.target}`, edge]),
  );
  const positions = new Map<string, { x: number; y: number }>();
  graph.levels.forEach((level, column) => {
    level.forEach((nodeId, row) => {
      positions.set(nodeId, {
        x: PADDING + column * (NODE_WIDTH + gap),
        y: PADDING + row * (nodeHeight + ROW_GAP),
      });
    });
  });
  const rows = Math.max(1, ...graph.levels.map((level) => level.length));
  const width = 2 * PADDING + graph.levels.length * (NODE_WIDTH + gap) - gap;
  const height = 2 * PADDING + rows * (nodeHeight + ROW_GAP) - ROW_GAP;
  return (
    // A large graph scrolls in this box; it takes focus so that the keyboard can scroll it.
    <div className="graph" tabIndex={0}>
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
          const y1 = from.y + nodeHeight / 2;
          const x2 = to.x;
          const y2 = to.y + nodeHeight / 2;
          const bend = Math.max(24, (x2 - x1) / 2);
          const port = edge.sourcePort;
          const load = edgeFlows.get(`${edge.source}>${edge.target}`);
          const full = load !== undefined && load.queued >= load.capacity;
          return (
            <g
              key={`${edge.source}>${edge.target}:${port ?? ''}:${index}`}
              className={full ? 'edge-full' : undefined}
            >
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
              {load !== undefined && <EdgeLabel load={load} x={(x1 + x2) / 2} y={(y1 + y2) / 2} />}
            </g>
          );
        })}
        {graph.nodes.map((node) => {
          const position = positions.get(node.nodeId);
          if (position === undefined) return null;
          const live = nodeFlows.get(node.nodeId);
          const status = live?.status ?? nodes?.[node.nodeId]?.status;
          return (
            <g
              key={node.nodeId}
              className={`node kind-${node.kind}${status === undefined ? '' : ` status-${status}`}${live?.holdingBack === true ? ' holding-back' : ''}`}
              transform={`translate(${position.x},${position.y})`}
              data-node-id={node.nodeId}
            >
              <title>{`${node.nodeId} (${node.type}, ${node.kind})${status === undefined ? '' : `: ${status}`}`}</title>
              <rect width={NODE_WIDTH} height={nodeHeight} rx="6" />
              <text x="10" y="19" className="node-id">
                {shorten(node.nodeId)}
              </text>
              <text x="10" y="36" className="node-type">
                {shorten(status === undefined ? node.type : `${node.type} · ${status}`)}
              </text>
              {live !== undefined && (
                <text x="10" y="53" className="node-counts">
                  {shorten(countsOf(live))}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** A node's counts and how it stands with its neighbours, in words. */
function countsOf(node: NodeFlow): string {
  const counts = `in ${String(node.messagesIn)} · out ${String(node.messagesOut)}`;
  if (node.holdingBack) return `${counts} · holds back`;
  if (node.waitingToSend) return `${counts} · waits`;
  return counts;
}

/** Messages per second over the edge, and how full the child's input is ("full" in words). */
function EdgeLabel(props: { readonly load: EdgeFlow; readonly x: number; readonly y: number }) {
  const { load, x, y } = props;
  const rate = load.perSecond === null ? '–' : `${load.perSecond.toFixed(1)}/s`;
  const fill = `${String(load.queued)}/${String(load.capacity)}`;
  return (
    <text className="edge-flow" x={x} y={y - 19} textAnchor="middle">
      <tspan x={x}>{rate}</tspan>
      <tspan x={x} dy="12">
        {load.queued >= load.capacity ? `${fill} full` : fill}
      </tspan>
    </text>
  );
}
