// One node on the canvas: its id and type, whether it has problems (in words and an icon, not
// by colour alone), an input handle unless it is a trigger, and one labelled output handle per
// port, each port on a row of its own so that labels never overlap. Handles serve the mouse;
// the outline does the same with the keyboard.
import { Handle, Position } from '@xyflow/react';
import type { Node, NodeProps } from '@xyflow/react';
import type { DefinitionNode, FieldProblem, PluginKind } from '../types';
import { NODE_WIDTH, nodeHeight } from './layout';

export type CardData = {
  readonly node: DefinitionNode;
  readonly kind: PluginKind | undefined;
  readonly ports: readonly string[];
  readonly takesInput: boolean;
  readonly problems: readonly FieldProblem[];
};

export type CardNode = Node<CardData, 'card'>;

/** The handle id of a node's input. */
export const INPUT_HANDLE = 'in';

export function NodeCard(props: NodeProps<CardNode>) {
  const { node, kind, ports, takesInput, problems } = props.data;
  const count = problems.length;
  return (
    <div
      className={`node-card${count > 0 ? ' has-problems' : ''}`}
      data-node-id={node.nodeId}
      style={{ width: NODE_WIDTH, minHeight: nodeHeight(ports.length) }}
    >
      {takesInput && (
        <Handle
          type="target"
          position={Position.Left}
          id={INPUT_HANDLE}
          className="input-handle"
          title={`Input of ${node.nodeId}`}
        />
      )}
      <div className="node-card-head">
        <strong>{node.nodeId}</strong>
        <span className="node-type">
          {node.type}
          {kind !== undefined && ` · ${kind}`}
        </span>
        {count > 0 ? (
          <span className="node-problems" title={problems.map((p) => p.message).join('\n')}>
            <span aria-hidden="true">⚠ </span>
            {count === 1 ? '1 problem' : `${count} problems`}
          </span>
        ) : (
          <span className="node-valid">
            <span aria-hidden="true">✓ </span>no problems
          </span>
        )}
      </div>
      <ul className="ports" aria-label={`Output ports of ${node.nodeId}`}>
        {ports.map((port) => (
          <li key={port} className="port" data-port={port}>
            <span className="port-label">{port}</span>
            <Handle
              type="source"
              position={Position.Right}
              id={port}
              className="output-handle"
              title={`Output ${port} of ${node.nodeId}`}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
