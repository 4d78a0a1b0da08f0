// The live view of a running execution under its graph: which node holds the others back,
// every edge's rate and load as a table (what the graph draws, for screen readers too), and a
// timeline of node activity with the same entries listed in words.
import { memo } from 'react';
import type { Activity, ActivityKind } from '../activity';
import { Section, Time } from '../components';
import type { RunFlow } from '../types';

/** Entries the activity list shows; the timeline above it draws them all. */
const ACTIVITY_LISTED = 40;
const ROW_HEIGHT = 18;
const LABEL_WIDTH = 140;
const TRACK_WIDTH = 560;

export function LiveFlow(props: { readonly flow: RunFlow | undefined; readonly ended: boolean }) {
  const { flow } = props;
  if (flow === undefined) {
    return (
      <Section title="Live flow">
        <p className="muted">{props.ended ? 'The run is over.' : 'Waiting for the run’s flow…'}</p>
      </Section>
    );
  }
  return (
    <Section title="Live flow" aside={`every ${String(flow.intervalMs / 1000)} s`}>
      <p className="held-back" role="status" aria-label="Held back by">
        {flow.heldBackBy === null ? (
          'Nothing holds the run back.'
        ) : (
          <>
            Held back by: <code>{flow.heldBackBy}</code>
          </>
        )}
      </p>
      <table className="edge-flows">
        <caption>Edges</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">Messages/s</th>
            <th scope="col">Queued</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {flow.edges.map((edge) => {
            const full = edge.queued >= edge.capacity;
            return (
              <tr key={`${edge.source}>${edge.target}`} data-edge={`${edge.source}>${edge.target}`}>
                <td>
                  <code>{edge.source}</code>
                </td>
                <td>
                  <code>{edge.target}</code>
                </td>
                <td>{edge.perSecond === null ? '–' : edge.perSecond.toFixed(1)}</td>
                <td>
                  {edge.queued} of {edge.capacity}
                </td>
                <td className={full ? 'edge-state full' : 'edge-state'}>
                  {full ? 'full' : 'has room'}
                  {edge.sourceWaiting && `, ${edge.source} waits`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Section>
  );
}

/** A span of a node's activity on the timeline, from one entry to the next that ends it. */
interface Span {
  readonly nodeId: string;
  readonly kind: 'run' | 'wait' | 'held';
  readonly from: number;
  readonly to: number;
}

const ENDS: Readonly<Record<Span['kind'], readonly ActivityKind[]>> = {
  run: ['end'],
  wait: ['resume', 'end'],
  held: ['sends', 'end'],
};
const OPENS: Partial<Record<ActivityKind, Span['kind']>> = {
  start: 'run',
  wait: 'wait',
  held: 'held',
};

function spansOf(activity: readonly Activity[], now: number): Span[] {
  const spans: Span[] = [];
  activity.forEach((entry, index) => {
    const kind = OPENS[entry.kind];
    if (kind === undefined) return;
    const closing = activity
      .slice(index + 1)
      .find((later) => later.nodeId === entry.nodeId && ENDS[kind].includes(later.kind));
    spans.push({ nodeId: entry.nodeId, kind, from: entry.at, to: closing?.at ?? now });
  });
  return spans;
}

/** Drawn again only when its entries or its end change, not with every change of the page. */
export const ActivityTimeline = memo(function ActivityTimeline(props: {
  readonly activity: readonly Activity[];
  /** Nodes in graph order, so the rows read from trigger to terminal. */
  readonly nodeIds: readonly string[];
  /** Where open spans end: the time of the newest flow or event. */
  readonly now: number;
}) {
  const { activity, now } = props;
  if (activity.length === 0) {
    return (
      <Section title="Timeline">
        <p className="muted">No node activity yet.</p>
      </Section>
    );
  }
  const seen = new Set(activity.map((entry) => entry.nodeId));
  const rows = [
    ...props.nodeIds.filter((nodeId) => seen.has(nodeId)),
    ...[...seen].filter((nodeId) => !props.nodeIds.includes(nodeId)),
  ];
  const start = activity[0]?.at ?? now;
  const end = Math.max(now, activity.at(-1)?.at ?? now, start + 1);
  const xOf = (at: number): number => LABEL_WIDTH + ((at - start) / (end - start)) * TRACK_WIDTH;
  const yOf = (nodeId: string): number => rows.indexOf(nodeId) * ROW_HEIGHT;
  const listed = activity.slice(-ACTIVITY_LISTED);
  return (
    <Section title="Timeline" aside={`${String(Math.round((end - start) / 1000))} s`}>
      <svg
        className="timeline"
        width={LABEL_WIDTH + TRACK_WIDTH + 8}
        height={rows.length * ROW_HEIGHT}
        role="img"
        aria-label="Timeline of node activity; the list below tells the same in words"
      >
        {rows.map((nodeId) => (
          <text key={nodeId} x="0" y={yOf(nodeId) + 13} className="timeline-label">
            {nodeId}
          </text>
        ))}
        {spansOf(activity, end).map((span) => (
          <rect
            key={`${span.nodeId}:${span.kind}:${String(span.from)}`}
            className={`span span-${span.kind}`}
            x={xOf(span.from)}
            y={yOf(span.nodeId) + (span.kind === 'run' ? 3 : 7)}
            width={Math.max(2, xOf(span.to) - xOf(span.from))}
            height={span.kind === 'run' ? 12 : 4}
          />
        ))}
        {activity
          .filter((entry) => entry.kind === 'retry')
          .map((entry) => (
            <path
              key={`${entry.nodeId}:retry:${String(entry.at)}`}
              className="retry-mark"
              d={`M${String(xOf(entry.at))},${String(yOf(entry.nodeId) + 1)} l4,7 l-4,7 l-4,-7 z`}
            />
          ))}
      </svg>
      <p className="legend muted">
        Thick bar: running · thin bar: paused or waiting for a signal · dashed bar: waiting for room
        downstream · diamond: retry.
      </p>
      {/* The list scrolls once it is long; it takes focus so that the keyboard can scroll it. */}
      <ol className="activity" aria-label="Node activity" tabIndex={0}>
        {listed.map((entry, index) => (
          <li key={`${String(index)}:${entry.nodeId}:${String(entry.at)}`} data-kind={entry.kind}>
            <Time value={new Date(entry.at).toISOString()} /> <code>{entry.nodeId}</code>{' '}
            {entry.text}
          </li>
        ))}
      </ol>
    </Section>
  );
});
