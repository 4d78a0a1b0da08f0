// One version of a workflow drawn read-only on @xyflow/react, laid out by ELK, with the nodes
// and edges that differ from the other version marked by a label and a border style (added,
// removed, changed), never by colour alone.
import { Handle, MarkerType, Position, ReactFlow, ReactFlowProvider } from '@xyflow/react';
import type { Edge, Node, NodeProps } from '@xyflow/react';
import { useEffect, useState } from 'react';
import { layout } from '../editor/layout';
import { portOf } from '../editor/model';
import type { Point } from '../editor/model';
import type { DefinitionEdge, WorkflowDefinition } from '../types';

export type Mark = 'added' | 'removed' | 'changed';

const MARK_LABEL: Record<Mark, string> = {
  added: '+ added',
  removed: '- removed',
  changed: '✎ changed',
};

/** How an edge is known across versions: its ends and port. */
export function edgeIdentity(edge: DefinitionEdge): string {
  return `${edge.source}:${portOf(edge)}->${edge.target}`;
}

type DiffData = {
  readonly label: string;
  readonly type: string;
  readonly mark: Mark | undefined;
  readonly ports: readonly string[];
};

function DiffCard(props: NodeProps<Node<DiffData, 'diff'>>) {
  const { label, type, mark, ports } = props.data;
  return (
    <div className={`diff-card${mark === undefined ? '' : ` mark-${mark}`}`}>
      <Handle type="target" position={Position.Left} id="in" isConnectable={false} />
      <strong>{label}</strong>
      <span className="node-type">{type}</span>
      {mark !== undefined && <span className="diff-mark">{MARK_LABEL[mark]}</span>}
      {ports.map((port, index) => (
        <Handle
          key={port}
          type="source"
          position={Position.Right}
          id={port}
          isConnectable={false}
          style={{ top: `${String(((index + 1) * 100) / (ports.length + 1))}%` }}
        />
      ))}
    </div>
  );
}

const NODE_TYPES = { diff: DiffCard };

export function DiffGraph(props: {
  readonly title: string;
  readonly definition: WorkflowDefinition;
  readonly nodeMarks: ReadonlyMap<string, Mark>;
  readonly edgeMarks: ReadonlyMap<string, Mark>;
}) {
  const { definition } = props;
  const [positions, setPositions] = useState<Record<string, Point>>({});
  const portsOf = (nodeId: string) => [
    ...new Set(definition.edges.filter((edge) => edge.source === nodeId).map(portOf)),
  ];
  useEffect(() => {
    let current = true;
    void layout(definition, () => 1).then((placed) => {
      if (current) setPositions(placed);
    });
    return () => {
      current = false;
    };
  }, [definition]);
  const nodes: Node<DiffData, 'diff'>[] = definition.nodes.map((node) => ({
    id: node.nodeId,
    type: 'diff',
    position: positions[node.nodeId] ?? { x: 0, y: 0 },
    ariaLabel: `Node ${node.nodeId}`,
    data: {
      label: node.nodeId,
      type: node.type,
      mark: props.nodeMarks.get(node.nodeId),
      ports: portsOf(node.nodeId),
    },
  }));
  const edges: Edge[] = definition.edges.map((edge, index) => {
    const mark = props.edgeMarks.get(edgeIdentity(edge));
    const port = portOf(edge);
    const parts = [port === 'out' ? '' : port, mark === undefined ? '' : MARK_LABEL[mark]];
    const label = parts.filter((part) => part !== '').join(' · ');
    return {
      id: `${edgeIdentity(edge)}#${index}`,
      source: edge.source,
      target: edge.target,
      sourceHandle: port,
      targetHandle: 'in',
      markerEnd: { type: MarkerType.ArrowClosed },
      className: mark === undefined ? '' : `mark-${mark}`,
      ...(label !== '' && { label }),
    };
  });
  const laidOut = Object.keys(positions).length > 0 || definition.nodes.length === 0;
  return (
    <figure className="diff-graph" aria-label={props.title}>
      <figcaption>{props.title}</figcaption>
      <div className="diff-canvas">
        <ReactFlowProvider>
          {laidOut && (
            <ReactFlow
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              nodesDraggable={false}
              nodesConnectable={false}
              elementsSelectable={false}
              fitView
              fitViewOptions={{ maxZoom: 1 }}
              minZoom={0.2}
            />
          )}
        </ReactFlowProvider>
      </div>
      <ul className="diff-list" aria-label={`Differences in ${props.title}`}>
        {definition.nodes
          .filter((node) => props.nodeMarks.has(node.nodeId))
          .map((node) => {
            const mark = props.nodeMarks.get(node.nodeId);
            return (
              <li key={node.nodeId}>
                node {node.nodeId}: {mark === undefined ? '' : MARK_LABEL[mark]}
              </li>
            );
          })}
        {definition.edges
          .filter((edge) => props.edgeMarks.has(edgeIdentity(edge)))
          .map((edge) => {
            const mark = props.edgeMarks.get(edgeIdentity(edge));
            return (
              <li key={edgeIdentity(edge)}>
                edge {edge.source} ({portOf(edge)}) → {edge.target}:{' '}
                {mark === undefined ? '' : MARK_LABEL[mark]}
              </li>
            );
          })}
      </ul>
    </figure>
  );
}
