// The nodes of a run: its graph, and a table of every node with its counts and controls. The
// table draws only the rows in view (TanStack Virtual), so that a 500-node run keeps a few dozen
// rows of controls in the page (docs/ui.md "Large workflows and long runs").
import { memo } from 'react';
import { api, call, isTerminalStatus } from '../api';
import { Section, Status, Time, capitalised } from '../components';
import { GraphView } from '../graph';
import type { Action } from '../hooks';
import type { ExecutionRecord, RunFlow, WorkflowGraph } from '../types';
import { VirtualTable } from '../virtual-table';

const NODE_CONTROLS = ['pause', 'resume', 'step', 'stop', 'skip', 'unskip'] as const;
/** Height of a row of the node table before it is measured. */
const ROW_ESTIMATE = 28;
const COLUMNS = ['Node', 'Status', 'In', 'Out', 'Retries', 'Started', 'Ended', 'Controls'];

function controlNode(id: string, nodeId: string, control: (typeof NODE_CONTROLS)[number]) {
  return call(
    api.POST(`/api/executions/{id}/nodes/{nodeId}/${control}`, {
      params: { path: { id, nodeId } },
      body: {},
    }),
  );
}

/**
 * The graph and the table of nodes: drawn again only when the record, graph or flow change, so
 * that opening an inspector on a large workflow does not draw hundreds of nodes again.
 */
export const Nodes = memo(function Nodes(props: {
  readonly record: ExecutionRecord;
  readonly graph: WorkflowGraph | undefined;
  /** The run's live flow while it goes. */
  readonly flow: RunFlow | undefined;
  readonly action: Action;
  /** Opens the editing of what a node received, to restart the ended run from it. */
  readonly onRepair: (nodeId: string) => void;
  /** Opens the node's inspector: its recorded messages, log lines and approvals. */
  readonly onInspect: (nodeId: string) => void;
}) {
  const { record, graph, action } = props;
  // Graph order where the graph is known: nodes then read from trigger to terminal.
  const order = graph?.nodes.map((node) => node.nodeId) ?? [];
  const ordered = new Set(order);
  const ids = [
    ...order.filter((id) => id in record.nodes),
    ...Object.keys(record.nodes).filter((id) => !ordered.has(id)),
  ];
  const ended = isTerminalStatus(record.status);
  return (
    <Section title="Nodes">
      {graph !== undefined && (
        <GraphView graph={graph} nodes={record.nodes} flow={ended ? undefined : props.flow} />
      )}
      {graph !== undefined && graph.version !== record.workflowVersion && (
        <p className="muted">
          The graph shows version {graph.version}, the current one; this run used version{' '}
          {record.workflowVersion}.
        </p>
      )}
      <NodeTable
        record={record}
        ids={ids}
        action={action}
        onRepair={props.onRepair}
        onInspect={props.onInspect}
      />
    </Section>
  );
});

interface TableProps {
  readonly record: ExecutionRecord;
  readonly ids: readonly string[];
  readonly action: Action;
  readonly onRepair: (nodeId: string) => void;
  readonly onInspect: (nodeId: string) => void;
}

/** The node table in its own scrolling box, drawing only the rows in view. */
function NodeTable(props: TableProps) {
  const { ids } = props;
  return (
    <VirtualTable
      label="Nodes of the run"
      columns={COLUMNS}
      count={ids.length}
      estimate={ROW_ESTIMATE}
      rowKey={(index) => ids[index] ?? index}
      rowData={(index) => ({ 'data-node-id': ids[index] ?? '' })}
      cells={(index) => {
        const nodeId = ids[index];
        return nodeId === undefined ? null : <NodeCells {...props} nodeId={nodeId} />;
      }}
    />
  );
}

function NodeCells(props: TableProps & { readonly nodeId: string }) {
  const { record, nodeId, action } = props;
  const node = record.nodes[nodeId];
  if (node === undefined) return null;
  const ended = isTerminalStatus(record.status);
  return (
    <>
      <td>
        <code>{nodeId}</code>
        {node.error !== null && <div className="error small">{node.error}</div>}
      </td>
      <td>
        <Status status={node.status} />
      </td>
      <td>{node.messagesIn}</td>
      <td>{node.messagesOut}</td>
      <td>{node.retries}</td>
      <td>
        <Time value={node.startedAt} />
      </td>
      <td>
        <Time value={node.endedAt} />
      </td>
      <td className="controls">
        {NODE_CONTROLS.map((control) => (
          <button
            key={control}
            type="button"
            className="small"
            disabled={ended || node.endedAt !== null || action.busy}
            onClick={() => {
              action.run(() => controlNode(record.executionId, nodeId, control));
            }}
          >
            {capitalised(control)}
          </button>
        ))}
        <button
          type="button"
          className="small"
          aria-label={`Inspect ${nodeId}`}
          onClick={() => {
            props.onInspect(nodeId);
          }}
        >
          Inspect
        </button>
        {ended && (
          <button
            type="button"
            className="small"
            aria-label={`Edit input of ${nodeId} and restart from it`}
            onClick={() => {
              props.onRepair(nodeId);
            }}
          >
            Edit input…
          </button>
        )}
      </td>
    </>
  );
}
