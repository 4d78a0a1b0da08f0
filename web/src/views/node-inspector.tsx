// One node of a run, inspected (docs/ui.md): its state and error, the messages it received and
// sent as the checkpoints recorded them (paged), its log lines, and its approvals waiting for
// an answer. A run whose checkpoints were not kept says so in the API's own words.
import { useState } from 'react';
import { api, call } from '../api';
import type { ApiSchemas } from '../api';
import { ErrorNote, Json, Section, Status, Time } from '../components';
import { useRead } from '../hooks';
import type { Action } from '../hooks';
import { LogList, useLogLines } from '../log-list';
import type { ExecutionRecord } from '../types';
import { ApprovalCard, usePendingApprovals } from './approvals';

const PAGE = 20;

type Direction = 'in' | 'out';
type RecordedMessage = ApiSchemas['NodeMessagePage']['items'][number];

export function NodeInspector(props: {
  readonly record: ExecutionRecord;
  readonly nodeId: string;
  readonly changes: number;
  readonly action: Action;
  readonly onClose: () => void;
}) {
  const { record, nodeId } = props;
  const node = record.nodes[nodeId];
  const approvals = usePendingApprovals(record.executionId, props.changes);
  const waiting = approvals.data?.filter((approval) => approval.nodeId === nodeId) ?? [];
  return (
    <Section
      title={`Node ${nodeId}`}
      aside={
        <button type="button" className="small" onClick={props.onClose}>
          Close
        </button>
      }
    >
      {node !== undefined && (
        <dl className="summary">
          <dt>Status</dt>
          <dd>
            <Status status={node.status} />
          </dd>
          <dt>Messages</dt>
          <dd>
            {node.messagesIn} in, {node.messagesOut} out, {node.retries} retries
          </dd>
          <dt>Started</dt>
          <dd>
            <Time value={node.startedAt} />
          </dd>
          <dt>Ended</dt>
          <dd>
            <Time value={node.endedAt} />
          </dd>
          {node.error !== null && (
            <>
              <dt>Error</dt>
              <dd className="error small">{node.error}</dd>
            </>
          )}
        </dl>
      )}
      {waiting.map((approval) => (
        <ApprovalCard
          key={approval.messageId}
          executionId={record.executionId}
          approval={approval}
          action={props.action}
          ended={false}
        />
      ))}
      <ErrorNote error={props.action.error} />
      {(['in', 'out'] as const).map((direction) => (
        <RecordedMessages
          key={direction}
          executionId={record.executionId}
          nodeId={nodeId}
          direction={direction}
          changes={props.changes}
        />
      ))}
      <NodeLogs executionId={record.executionId} nodeId={nodeId} changes={props.changes} />
    </Section>
  );
}

/** The node's recorded input or output, oldest first, a page at a time. */
function RecordedMessages(props: {
  readonly executionId: string;
  readonly nodeId: string;
  readonly direction: Direction;
  readonly changes: number;
}) {
  const { executionId: id, nodeId, direction } = props;
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  // Read again as the run moves: a node still running answers 409 until it has ended.
  const page = useRead(
    `messages ${id}/${nodeId}/${direction}/${cursor ?? ''}`,
    () =>
      call(
        api.GET('/api/executions/{id}/nodes/{nodeId}/messages', {
          params: {
            path: { id, nodeId },
            query: { direction, limit: PAGE, ...(cursor === undefined ? {} : { cursor }) },
          },
        }),
      ),
    props.changes,
  );
  const title = direction === 'in' ? 'Received' : 'Sent';
  const next = page.data?.nextCursor ?? null;
  return (
    <section aria-label={`${title} by ${nodeId}`} className="messages">
      <h3>
        {title}
        {cursors.length > 0 && <span className="muted"> (page {cursors.length + 1})</span>}
      </h3>
      <ErrorNote error={page.error} />
      {page.data?.items.length === 0 && <p className="muted">Nothing recorded.</p>}
      {page.data !== undefined && page.data.items.length > 0 && (
        <MessageTable items={page.data.items} />
      )}
      <div className="controls">
        {cursors.length > 0 && (
          <button
            type="button"
            className="small"
            onClick={() => {
              setCursors(cursors.slice(0, -1));
            }}
          >
            Previous
          </button>
        )}
        {next !== null && (
          <button
            type="button"
            className="small"
            onClick={() => {
              setCursors([...cursors, next]);
            }}
          >
            Next
          </button>
        )}
      </div>
    </section>
  );
}

function MessageTable(props: { readonly items: readonly RecordedMessage[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Message</th>
          <th scope="col">Port</th>
          <th scope="col">Attempt</th>
          <th scope="col">Payload</th>
        </tr>
      </thead>
      <tbody>
        {props.items.map((message) => (
          <tr key={`${message.messageId}/${message.port}`}>
            <td>
              <code>{message.messageId}</code>
            </td>
            <td>{message.port}</td>
            <td>{message.headers.attempt}</td>
            <td>
              <Json value={message.payload} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NodeLogs(props: {
  readonly executionId: string;
  readonly nodeId: string;
  readonly changes: number;
}) {
  const { executionId: id, nodeId } = props;
  const logs = useLogLines(id, nodeId, props.changes);
  return (
    <section aria-label={`Log lines of ${nodeId}`} className="messages">
      <h3>Log lines</h3>
      <ErrorNote error={logs.error} />
      {logs.loaded && logs.lines.length === 0 && <p className="muted">No log lines.</p>}
      {logs.lines.length > 0 && (
        <LogList label={`Lines of ${nodeId}`} lines={logs.lines} withNode={false} />
      )}
    </section>
  );
}
