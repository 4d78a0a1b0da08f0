// The control audit (SPEC Events 8; GET /api/control/audit): the commands sent to runs and the
// scheduler, newest first, who sent them and whether they were applied. The execution and the
// count are asked of the server; command, outcome and actor narrow what it answered.
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { api, call } from '../api';
import type { ApiSchemas } from '../api';
import { ErrorNote, Section, Time } from '../components';
import { useRead } from '../hooks';
import { Link, navigate, segment, useLocation } from '../router';

type AuditEntry = ApiSchemas['AuditEntry'];

const FILTERS = ['executionId', 'limit', 'command', 'outcome', 'actor'] as const;
type Filter = (typeof FILTERS)[number];

function matches(entry: AuditEntry, filters: Readonly<Record<Filter, string>>): boolean {
  if (filters.command !== '' && entry.command !== filters.command) return false;
  if (filters.outcome !== '' && entry.outcome !== filters.outcome) return false;
  const actor = filters.actor.toLowerCase();
  return actor === '' || (entry.actor ?? '').toLowerCase().includes(actor);
}

export function AuditView() {
  const query = useLocation().searchParams;
  const filters = Object.fromEntries(
    FILTERS.map((name) => [name, query.get(name) ?? '']),
  ) as Record<Filter, string>;
  const asked = new URLSearchParams();
  if (filters.executionId !== '') asked.set('executionId', filters.executionId);
  if (filters.limit !== '') asked.set('limit', filters.limit);
  const trail = useRead(`audit ${asked.toString()}`, () =>
    call(
      api.GET('/api/control/audit', {
        params: {
          query: {
            ...(filters.executionId === '' ? {} : { executionId: filters.executionId }),
            ...(filters.limit === '' ? {} : { limit: Number(filters.limit) }),
          },
        },
      }),
    ),
  );
  const shown = trail.data?.filter((entry) => matches(entry, filters));
  return (
    <Section title="Audit" aside={trail.loading ? 'loading…' : undefined}>
      <AuditFilters
        key={query.toString()}
        initial={filters}
        onFilter={(next) => {
          if (next.toString() === query.toString()) trail.reload();
          else navigate(`/audit?${next.toString()}`);
        }}
      />
      <ErrorNote error={trail.error} />
      {shown !== undefined && shown.length === 0 && (
        <p className="muted">No control command matches.</p>
      )}
      {shown !== undefined && shown.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Command</th>
              <th scope="col">Outcome</th>
              <th scope="col">Execution</th>
              <th scope="col">Node</th>
              <th scope="col">Actor</th>
              <th scope="col">Reason or detail</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <Time value={entry.timestamp} />
                </td>
                <td>{entry.command}</td>
                <td>{entry.outcome === 'APPLIED' ? 'applied' : 'refused'}</td>
                <td>
                  {entry.executionId === null ? (
                    <span className="muted">none</span>
                  ) : (
                    <Link to={`/executions/${segment(entry.executionId)}`}>
                      {entry.executionId}
                    </Link>
                  )}
                </td>
                <td>{entry.nodeId ?? ''}</td>
                <td>{entry.actor ?? <span className="muted">unnamed</span>}</td>
                <td>{entry.reason ?? entry.detail ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function AuditFilters(props: {
  readonly initial: Readonly<Record<Filter, string>>;
  readonly onFilter: (query: URLSearchParams) => void;
}) {
  const [values, setValues] = useState<Record<Filter, string>>(() => ({ ...props.initial }));
  const set = (name: Filter) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [name]: event.target.value }));
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const name of FILTERS) if (values[name] !== '') next.set(name, values[name]);
    props.onFilter(next);
  };
  return (
    <form className="search" onSubmit={submit} aria-label="Audit filters">
      <label>
        Execution
        <input value={values.executionId} onChange={set('executionId')} />
      </label>
      <label>
        Command
        <input value={values.command} onChange={set('command')} placeholder="e.g. PAUSE" />
      </label>
      <label>
        Outcome
        <select value={values.outcome} onChange={set('outcome')}>
          <option value="">any</option>
          <option value="APPLIED">applied</option>
          <option value="REFUSED">refused</option>
        </select>
      </label>
      <label>
        Actor
        <input value={values.actor} onChange={set('actor')} />
      </label>
      <label>
        At most
        <input type="number" min={1} max={500} value={values.limit} onChange={set('limit')} />
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}
