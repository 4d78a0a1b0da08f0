// One node on the canvas: its id and type, whether it has problems (in words and an icon, not
// by colour alone), an input handle unless it is a trigger, and one labelled output handle per
// port, each port on a row of its own so that labels never overlap. Handles serve the mouse and
// the keyboard: each is a named button in the tab order, and Enter or Space on an output, then
// on an input, connects them (xyflow's connect-on-click); Escape lets go of the chosen output.
import { Handle, Position, useStore, useStoreApi } from '@xyflow/react';
import type { Node, NodeProps } from '@xyflow/react';
import type { KeyboardEvent } from 'react';
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

/**
 * Enter and Space press a handle as a click would: xyflow starts a connection on the first
 * handle clicked and makes it on the second. Stopped here, so the node does not take the key
 * as its own (Enter there selects the node).
 */
function useHandleKeys(): (event: KeyboardEvent<HTMLDivElement>) => void {
  const store = useStoreApi();
  return (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      event.currentTarget.click();
    } else if (event.key === 'Escape' && store.getState().connectionClickStartHandle !== null) {
      event.stopPropagation();
      store.setState({ connectionClickStartHandle: null });
    }
  };
}

export function NodeCard(props: NodeProps<CardNode>) {
  const { node, kind, ports, takesInput, problems } = props.data;
  const count = problems.length;
  const onHandleKey = useHandleKeys();
  // The output a connection is being made from, told to screen readers as a pressed button.
  const chosen = useStore((state) =>
    state.connectionClickStartHandle?.nodeId === node.nodeId
      ? state.connectionClickStartHandle.id
      : undefined,
  );
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
          role="button"
          tabIndex={0}
          aria-label={`Input of node ${node.nodeId}`}
          onKeyDown={onHandleKey}
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
              role="button"
              tabIndex={0}
              aria-label={`Output port ${port} of node ${node.nodeId}`}
              aria-pressed={chosen === port}
              onKeyDown={onHandleKey}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
