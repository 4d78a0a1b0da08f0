// The versions page of a workflow (`/sessions/{sid}/workflows/{wid}/versions?from=&to=`): its
// saved versions with their notes, two of them side by side as graphs with what was added,
// removed and changed marked, the same as a text diff, and a rollback with a note.
import '@xyflow/react/dist/style.css';
import '../editor/editor.css';
import { useId, useState } from 'react';
import type { SubmitEvent } from 'react';
import { api, call } from '../api';
import { ErrorNote, Section } from '../components';
import { useAction, useRead } from '../hooks';
import { Link, navigate, segment, useLocation } from '../router';
import type { VersionDiff } from '../types';
import { DiffGraph, edgeIdentity } from '../versions/diff-graph';
import type { Mark } from '../versions/diff-graph';
import { diffLines } from '../versions/text-diff';
import { VersionTable } from './version-table';

function marks(diff: VersionDiff, side: 'from' | 'to') {
  const nodeMarks = new Map<string, Mark>();
  const edgeMarks = new Map<string, Mark>();
  const gone: Mark = side === 'from' ? 'removed' : 'added';
  for (const node of side === 'from' ? diff.nodes.removed : diff.nodes.added) {
    nodeMarks.set(node.nodeId, gone);
  }
  for (const node of diff.nodes.changed) nodeMarks.set(node.nodeId, 'changed');
  for (const edge of side === 'from' ? diff.edges.removed : diff.edges.added) {
    edgeMarks.set(edgeIdentity(edge), gone);
  }
  return { nodeMarks, edgeMarks };
}

function Comparison(props: {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly from: string;
  readonly to: string;
}) {
  const { sessionId, workflowId, from, to } = props;
  const key = `${sessionId}/${workflowId} ${from}..${to}`;
  const read = (version: string) =>
    call(
      api.GET('/api/sessions/{sessionId}/workflows/{workflowId}/versions/{version}', {
        params: { path: { sessionId, workflowId, version } },
      }),
    );
  const compared = useRead(`compare ${key}`, async () => {
    const [before, after, diff] = await Promise.all([
      read(from),
      read(to),
      call(
        api.GET('/api/sessions/{sessionId}/workflows/{workflowId}/versions/diff', {
          params: { path: { sessionId, workflowId }, query: { from, to } },
        }),
      ),
    ]);
    return { before, after, diff };
  });
  if (compared.error !== undefined) return <ErrorNote error={compared.error} />;
  if (compared.data === undefined) return <p className="muted">loading…</p>;
  const { before, after, diff } = compared.data;
  const lines = diffLines(JSON.stringify(before, null, 2), JSON.stringify(after, null, 2));
  const changes = lines.filter((line) => line.change !== 'same').length;
  return (
    <>
      <p>
        Nodes: {diff.nodes.added.length} added, {diff.nodes.removed.length} removed,{' '}
        {diff.nodes.changed.length} changed. Edges: {diff.edges.added.length} added,{' '}
        {diff.edges.removed.length} removed.
      </p>
      <div className="diff-graphs">
        <DiffGraph title={`Version ${from}`} definition={before} {...marks(diff, 'from')} />
        <DiffGraph title={`Version ${to}`} definition={after} {...marks(diff, 'to')} />
      </div>
      <section aria-label="Text diff">
        <h3>
          Text diff <span className="muted">({changes} lines differ)</span>
        </h3>
        {/* Scrolls: focusable so a keyboard can scroll it. */}
        <pre className="text-diff" tabIndex={0}>
          {lines.map((line, index) => (
            <div key={index} className={`line-${line.change}`}>
              {line.change === 'added' ? '+ ' : line.change === 'removed' ? '- ' : '  '}
              {line.text}
            </div>
          ))}
        </pre>
      </section>
    </>
  );
}

export function VersionsView(props: { readonly sessionId: string; readonly workflowId: string }) {
  const { sessionId, workflowId } = props;
  const id = useId();
  const location = useLocation();
  const path = { params: { path: { sessionId, workflowId } } };
  const versions = useRead(`versions ${sessionId}/${workflowId}`, () =>
    call(api.GET('/api/sessions/{sessionId}/workflows/{workflowId}/versions', path)),
  );
  const list = versions.data ?? [];
  const newest = list[0]?.version;
  const from = location.searchParams.get('from') ?? String(list[1]?.version ?? newest ?? '');
  const to = location.searchParams.get('to') ?? String(newest ?? '');
  const base = `/sessions/${segment(sessionId)}/workflows/${segment(workflowId)}`;
  const choose = (next: { from: string; to: string }) => {
    navigate(`${base}/versions?from=${next.from}&to=${next.to}`, { replace: true });
  };
  const [target, setTarget] = useState('');
  const [note, setNote] = useState('');
  const [rolledBack, setRolledBack] = useState<number>();
  const rollback = useAction(() => {
    versions.reload();
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const version = target === '' ? from : target;
    rollback.run(async () => {
      const saved = await call(
        api.POST('/api/sessions/{sessionId}/workflows/{workflowId}/versions/{version}/rollback', {
          params: {
            path: { sessionId, workflowId, version },
            query: note.trim() === '' ? {} : { note: note.trim() },
          },
        }),
      );
      setRolledBack(saved.version);
      setNote('');
    });
  };
  const options = list.map((version) => (
    <option key={version.version} value={String(version.version)}>
      version {version.version}
      {version.current ? ' (current)' : ''}
    </option>
  ));
  return (
    <>
      <Section
        title={`Versions of ${workflowId}`}
        aside={<Link to={base}>back to {workflowId}</Link>}
      >
        <ErrorNote error={versions.error} />
        <VersionTable versions={list} />
        <form className="inline-form" aria-label="Rollback" onSubmit={submit}>
          <label htmlFor={`${id}-target`}>Roll back to</label>
          <select
            id={`${id}-target`}
            value={target === '' ? from : target}
            onChange={(event) => {
              setTarget(event.target.value);
            }}
          >
            {options}
          </select>
          <label htmlFor={`${id}-note`}>Rollback note</label>
          <input
            id={`${id}-note`}
            type="text"
            maxLength={1000}
            value={note}
            onChange={(event) => {
              setNote(event.target.value);
            }}
          />
          <button type="submit" disabled={rollback.busy || list.length === 0}>
            Roll back
          </button>
          <span role="status" aria-label="Rollback status">
            {rolledBack !== undefined && `Rolled back: version ${rolledBack} is current.`}
          </span>
        </form>
        <ErrorNote error={rollback.error} />
      </Section>
      {list.length > 0 && (
        <Section title="Compare">
          <form className="inline-form" aria-label="Versions to compare">
            <label htmlFor={`${id}-from`}>From</label>
            <select
              id={`${id}-from`}
              value={from}
              onChange={(event) => {
                choose({ from: event.target.value, to });
              }}
            >
              {options}
            </select>
            <label htmlFor={`${id}-to`}>To</label>
            <select
              id={`${id}-to`}
              value={to}
              onChange={(event) => {
                choose({ from, to: event.target.value });
              }}
            >
              {options}
            </select>
          </form>
          <Comparison sessionId={sessionId} workflowId={workflowId} from={from} to={to} />
        </Section>
      )}
    </>
  );
}
