// One execution: status, nodes with their counters and controls, live progress from the
// progress stream, approvals waiting for an answer, results and log lines.
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, call, isTerminalStatus } from '../api';
import { useProgressStream } from '../progress-stream';
import { ErrorNote, Json, Section, Status, Time, capitalised } from '../components';
import { useAction, useRead } from '../hooks';
import { LogList, useLogLines } from '../log-list';
import { Link, segment } from '../router';
import { Approvals } from './approvals';
import { NodeInspector } from './node-inspector';
import { NodeRepair } from './node-repair';
import { Nodes } from './run-nodes';
import { ActivityTimeline, LiveFlow } from './live-run';
import type { ExecutionRecord } from '../types';

const RUN_CONTROLS = ['pause', 'resume', 'step', 'stop'] as const;

function controlRun(id: string, control: (typeof RUN_CONTROLS)[number]) {
  return call(api.POST(`/api/executions/{id}/${control}`, { params: { path: { id } } }));
}

export function ExecutionView(props: { readonly executionId: string }) {
  const { executionId } = props;
  const path = `/api/executions/${segment(executionId)}`;
  const [changes, setChanges] = useState(0);
  const pending = useRef<number | undefined>(undefined);
  // Many events can arrive at once: the reads are made again at most four times a second.
  const changed = useCallback(() => {
    if (pending.current !== undefined) return;
    pending.current = window.setTimeout(() => {
      pending.current = undefined;
      setChanges((value) => value + 1);
    }, 250);
  }, []);
  useEffect(
    () => () => {
      window.clearTimeout(pending.current);
    },
    [],
  );

  const id = { params: { path: { id: executionId } } };
  const execution = useRead(path, () => call(api.GET('/api/executions/{id}', id)), changes);
  const record = execution.data;
  const stream = useProgressStream(record?.sessionId, executionId, changed);
  const workflow = {
    params: { path: { sessionId: record?.sessionId ?? '', workflowId: record?.workflowId ?? '' } },
  };
  const graph = useRead(
    record === undefined ? null : `graph ${record.sessionId}/${record.workflowId}`,
    () => call(api.GET('/api/sessions/{sessionId}/workflows/{workflowId}/graph', workflow)),
  );
  // What the run no longer keeps is told by the progress snapshot, beside the record.
  const snapshot = useRead(
    record === undefined ? null : `progress ${executionId}`,
    () =>
      call(
        api.GET('/api/workflow/{sessionId}/status/{id}', {
          params: { path: { sessionId: record?.sessionId ?? '', id: executionId } },
        }),
      ),
    changes,
  );
  const notKept = snapshot.data?.progress;
  const nodeIds = useMemo(() => graph.data?.nodes.map((node) => node.nodeId) ?? [], [graph.data]);
  const action = useAction(changed);
  const ended = record !== undefined && isTerminalStatus(record.status);
  const [repairing, setRepairing] = useState<string>();
  const [inspecting, setInspecting] = useState<string>();

  return (
    <>
      <Section title={`Execution ${executionId}`} aside={`stream: ${stream.state}`}>
        <ErrorNote error={execution.error} />
        {record !== undefined && <RootCause record={record} />}
        {record !== undefined && <Summary record={record} />}
        {record !== undefined && (
          <div className="controls">
            {RUN_CONTROLS.map((control) => (
              <button
                key={control}
                type="button"
                disabled={ended || action.busy}
                onClick={() => {
                  action.run(() => controlRun(executionId, control));
                }}
              >
                {capitalised(control)}
              </button>
            ))}
          </div>
        )}
        <ErrorNote error={action.error} />
      </Section>
      {record !== undefined && (
        <Nodes
          record={record}
          graph={graph.data}
          flow={stream.flow}
          action={action}
          onRepair={setRepairing}
          onInspect={setInspecting}
        />
      )}
      {record !== undefined && !ended && <LiveFlow flow={stream.flow} ended={ended} />}
      {record !== undefined && (
        <ActivityTimeline
          activity={stream.activity}
          nodeIds={nodeIds}
          now={Math.max(
            Date.parse(record.endedAt ?? '') || 0,
            stream.activity.at(-1)?.at ?? 0,
            stream.flowAt ?? 0,
          )}
        />
      )}
      {record !== undefined && inspecting !== undefined && (
        <NodeInspector
          key={inspecting}
          record={record}
          nodeId={inspecting}
          changes={changes}
          action={action}
          onClose={() => {
            setInspecting(undefined);
          }}
        />
      )}
      {repairing !== undefined && (
        <NodeRepair
          key={repairing}
          executionId={executionId}
          nodeId={repairing}
          onClose={() => {
            setRepairing(undefined);
          }}
        />
      )}
      {record !== undefined && (
        <Approvals executionId={executionId} changes={changes} action={action} ended={ended} />
      )}
      <Results
        executionId={executionId}
        changes={changes}
        notKept={notKept?.resultsNotKept === true}
      />
      <Logs executionId={executionId} changes={changes} notKept={notKept?.logsNotKept === true} />
      <Section title="Live events">
        {stream.events.length === 0 ? (
          <p className="muted">No events yet.</p>
        ) : (
          // The list scrolls once it is long; it takes focus so that the keyboard can scroll it.
          <ol className="events" tabIndex={0}>
            {stream.events.map((event, index) => (
              <li key={`${String(index)}:${event.timestamp}`}>
                <Time value={event.timestamp} /> <code>{event.kind}</code>
                {event.nodeId !== undefined && <> · {event.nodeId}</>}
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}

/** The ends a node reaches by itself; UPSTREAM_FAILED and CANCELLED only follow from them. */
const ROOT_CAUSE_STATUSES = new Set(['FAILURE', 'TIMED_OUT']);

/**
 * Why the run failed, first: the node that failed first and its own error, rather than the
 * nodes that ended behind it; the run's error when no node failed by itself (a deadline).
 */
function RootCause(props: { readonly record: ExecutionRecord }) {
  const { record } = props;
  const failed = Object.entries(record.nodes)
    .filter(([, node]) => ROOT_CAUSE_STATUSES.has(node.status))
    .sort(([, a], [, b]) => (a.endedAt ?? '').localeCompare(b.endedAt ?? ''));
  const first = failed[0];
  if (first === undefined) {
    if (record.error === null) return null;
    return (
      <div className="error" role="alert" aria-label="Why the run failed">
        {record.error}
      </div>
    );
  }
  const [nodeId, node] = first;
  return (
    <div className="error" role="alert" aria-label="Why the run failed">
      Node <code>{nodeId}</code> ended <Status status={node.status} />
      {node.error !== null && <>: {node.error}</>}
      {failed.length > 1 && <span className="muted"> (and {failed.length - 1} more)</span>}
    </div>
  );
}

function Summary(props: { readonly record: ExecutionRecord }) {
  const { record } = props;
  const related: [string, string | null][] = [
    ['restart of', record.restartOf],
    ['resumed from', record.resumedFrom],
    ['started by', record.parentExecutionId],
  ];
  return (
    <>
      <dl className="summary">
        <dt>Status</dt>
        <dd>
          <Status status={record.status} label="Execution status" />
        </dd>
        <dt>Workflow</dt>
        <dd>
          <Link
            to={`/sessions/${segment(record.sessionId)}/workflows/${segment(record.workflowId)}`}
          >
            {record.workflowId}
          </Link>{' '}
          version {record.workflowVersion} in session{' '}
          <Link to={`/sessions/${segment(record.sessionId)}`}>{record.sessionId}</Link>
        </dd>
        <dt>Priority</dt>
        <dd>{record.priority}</dd>
        <dt>Created</dt>
        <dd>
          <Time value={record.createdAt} />
        </dd>
        <dt>Started</dt>
        <dd>
          <Time value={record.startedAt} />
        </dd>
        <dt>Ended</dt>
        <dd>
          <Time value={record.endedAt} />
        </dd>
        {related.map(([label, id]) =>
          id === null ? null : (
            <Fragment key={label}>
              <dt>{capitalised(label)}</dt>
              <dd>
                <Link to={`/executions/${segment(id)}`}>{id}</Link>
              </dd>
            </Fragment>
          ),
        )}
      </dl>
    </>
  );
}

/** What a list shows of itself: nothing, or only its newest part, and whether that is all. */
function NotKept(props: { readonly what: string; readonly count: number | undefined }) {
  if (props.count === undefined) return null;
  return (
    <p className="note not-kept">
      {props.count === 0
        ? `${capitalised(props.what)} were not kept.`
        : `Older ${props.what} were not kept.`}
    </p>
  );
}

interface OutputProps {
  readonly executionId: string;
  readonly changes: number;
  /** Some of them are gone (bounds, retention, a server restart): say so, not "none". */
  readonly notKept: boolean;
}

function Results(props: OutputProps) {
  const id = props.executionId;
  const results = useRead(
    `results ${id}`,
    () => call(api.GET('/api/executions/{id}/results', { params: { path: { id } } })),
    props.changes,
  );
  const count = results.data?.length;
  return (
    <Section title="Results">
      <ErrorNote error={results.error} />
      {props.notKept && <NotKept what="results" count={count} />}
      {count === 0 && !props.notKept && <p className="muted">No results yet.</p>}
      {results.data !== undefined && results.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>#</th>
              <th>Node</th>
              <th>Message</th>
              <th>Payload</th>
            </tr>
          </thead>
          <tbody>
            {results.data.map((result) => (
              <tr key={result.seq}>
                <td>{result.seq}</td>
                <td>
                  <code>{result.nodeId}</code>
                </td>
                <td>
                  <code>{result.messageId}</code>
                </td>
                <td>
                  <Json value={result.payload} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function Logs(props: OutputProps) {
  const logs = useLogLines(props.executionId, undefined, props.changes);
  const count = logs.lines.length;
  return (
    <Section title="Logs" aside={count > 0 ? `${String(count)} lines` : undefined}>
      <ErrorNote error={logs.error} />
      {props.notKept && <NotKept what="log lines" count={logs.loaded ? count : undefined} />}
      {logs.loaded && count === 0 && !props.notKept && <p className="muted">No log lines.</p>}
      {count > 0 && <LogList label="Log lines of the run" lines={logs.lines} withNode />}
    </Section>
  );
}
