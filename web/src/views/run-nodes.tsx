// The nodes of a run: its graph, and a table of every node with its counts and controls. The
// table draws only the rows in view (TanStack Virtual), so that a 500-node run keeps a few dozen
// rows of controls in the page (docs/ui.md "Large workflows and long runs").
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import { api, call, isTerminalStatus } from '../api';
import { Section, Status, Time, capitalised } from '../components';
import { GraphView } from '../graph';
import type { Action } from '../hooks';
import type { ExecutionRecord, RunFlow, WorkflowGraph } from '../types';
import { scrollKeys } from '../virtual-list';

const NODE_CONTROLS = ['pause', 'resume', 'step', 'stop', 'skip', 'unskip'] as const;
/** Height of a row of the node table before it is measured. */
const ROW_ESTIMATE = 28;
/** Rows drawn beyond each edge of the view, so that scrolling and tabbing meet no blank rows. */
const OVERSCAN = 12;
const COLUMNS = 8;

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

/**
 * The node table in its own scrolling box. Rows out of view are stood in for by two empty rows
 * as tall as they are, so that the columns keep one layout and the scrollbar tells the truth.
 */
function NodeTable(props: TableProps) {
  const { ids } = props;
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the UI is built without the React Compiler, so nothing memoizes what the virtualizer returns
  const rows = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: OVERSCAN,
    getItemKey: (index) => ids[index] ?? index,
  });
  const shown = rows.getVirtualItems();
  const before = shown[0]?.start ?? 0;
  const after = rows.getTotalSize() - (shown.at(-1)?.end ?? 0);
  return (
    // Reachable by keyboard so that the arrows, Page Down, Home and End scroll it.
    <div
      ref={scroller}
      className="virtual-table"
      tabIndex={0}
      onKeyDown={scrollKeys(rows, ids.length)}
    >
      <table aria-rowcount={ids.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th>Node</th>
            <th>Status</th>
            <th>In</th>
            <th>Out</th>
            <th>Retries</th>
            <th>Started</th>
            <th>Ended</th>
            <th>Controls</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 && <Spacer height={before} />}
          {shown.map((row) => {
            const nodeId = ids[row.index];
            return nodeId === undefined ? null : (
              <NodeRow
                key={row.key}
                {...props}
                nodeId={nodeId}
                index={row.index}
                measure={rows.measureElement}
              />
            );
          })}
          {after > 0 && <Spacer height={after} />}
        </tbody>
      </table>
    </div>
  );
}

function Spacer(props: { readonly height: number }) {
  return (
    <tr aria-hidden="true" className="spacer" style={{ height: `${String(props.height)}px` }}>
      <td colSpan={COLUMNS} />
    </tr>
  );
}

function NodeRow(
  props: TableProps & {
    readonly nodeId: string;
    readonly index: number;
    readonly measure: (row: HTMLTableRowElement | null) => void;
  },
) {
  const { record, nodeId, index, measure, action } = props;
  const node = record.nodes[nodeId];
  if (node === undefined) return null;
  const ended = isTerminalStatus(record.status);
  return (
    // The page holds only the rows in view: each says where it stands in the whole table.
    <tr data-node-id={nodeId} data-index={index} aria-rowindex={index + 2} ref={measure}>
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
    </tr>
  );
}
