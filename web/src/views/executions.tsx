// Execution search (GET /api/executions): filters kept in the address, pages by cursor, each
// page in a table that keeps only the rows in view.
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { ErrorNote, Pager, Section, Status, Time } from '../components';
import { api, call } from '../api';
import type { SearchQuery } from '../api';
import { useRead } from '../hooks';
import { Link, navigate, segment, useLocation } from '../router';
import { EXECUTION_STATUSES } from '../types';
import type { ExecutionRecord } from '../types';
import { VirtualTable } from '../virtual-table';

const FILTERS = ['sessionId', 'workflowId', 'status', 'since', 'until', 'limit'] as const;
type Filter = (typeof FILTERS)[number];

export function ExecutionsView() {
  const query = useLocation().searchParams;
  const params = new URLSearchParams();
  for (const name of [...FILTERS, 'cursor']) {
    const value = query.get(name);
    if (value !== null && value !== '') params.set(name, value);
  }
  // The filters as the address holds them: the server checks them, and answers 400 for bad ones.
  const search = Object.fromEntries(params) as SearchQuery;
  const page = useRead(`executions ${params.toString()}`, () =>
    call(api.GET('/api/executions', { params: { query: search } })),
  );
  return (
    <Section title="Executions" aside={page.loading ? 'loading…' : undefined}>
      <SearchForm
        key={query.toString()}
        initial={query}
        onSearch={(next) => {
          // The same search again is a refresh: the address alone would not change.
          if (next.toString() === params.toString()) page.reload();
          else navigate(`/executions?${next.toString()}`);
        }}
      />
      <ErrorNote error={page.error} />
      {page.data !== undefined && (
        <>
          <ExecutionTable items={page.data.items} />
          <Pager path="/executions" params={params} nextCursor={page.data.nextCursor} />
        </>
      )}
    </Section>
  );
}

function SearchForm(props: {
  readonly initial: URLSearchParams;
  readonly onSearch: (query: URLSearchParams) => void;
}) {
  const [values, setValues] = useState<Record<Filter, string>>(() => ({
    sessionId: props.initial.get('sessionId') ?? '',
    workflowId: props.initial.get('workflowId') ?? '',
    status: props.initial.get('status') ?? '',
    since: props.initial.get('since') ?? '',
    until: props.initial.get('until') ?? '',
    limit: props.initial.get('limit') ?? '',
  }));
  const set = (name: Filter) => (event: { target: { value: string } }) => {
    setValues({ ...values, [name]: event.target.value });
  };
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const name of FILTERS) {
      const value = values[name].trim();
      if (value !== '') query.set(name, value);
    }
    props.onSearch(query);
  };
  return (
    <form className="search" onSubmit={submit}>
      <label>
        Session <input value={values.sessionId} onChange={set('sessionId')} />
      </label>
      <label>
        Workflow <input value={values.workflowId} onChange={set('workflowId')} />
      </label>
      <label>
        Status
        <select value={values.status} onChange={set('status')}>
          <option value="">any</option>
          {EXECUTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label>
        Since <input value={values.since} placeholder="ISO date-time" onChange={set('since')} />
      </label>
      <label>
        Until <input value={values.until} placeholder="ISO date-time" onChange={set('until')} />
      </label>
      <label>
        Limit <input value={values.limit} placeholder="100" onChange={set('limit')} size={5} />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

const COLUMNS = ['Execution', 'Status', 'Session', 'Workflow', 'Created', 'Ended'];
/** Height of a row of the table before it is measured. */
const ROW_ESTIMATE = 30;

/**
 * A page of executions (up to the search's largest `limit`, 1,000) in its own scrolling box that
 * draws only the rows in view (docs/ui.md "Large workflows and long runs").
 */
export function ExecutionTable(props: { readonly items: readonly ExecutionRecord[] }) {
  const { items } = props;
  if (items.length === 0) return <p className="muted">No executions.</p>;
  return (
    <VirtualTable
      label="Executions"
      columns={COLUMNS}
      count={items.length}
      estimate={ROW_ESTIMATE}
      rowKey={(index) => items[index]?.executionId ?? index}
      cells={(index) => {
        const execution = items[index];
        return execution === undefined ? null : <ExecutionCells execution={execution} />;
      }}
    />
  );
}

function ExecutionCells({ execution }: { readonly execution: ExecutionRecord }) {
  return (
    <>
      <td>
        <Link to={`/executions/${segment(execution.executionId)}`}>{execution.executionId}</Link>
      </td>
      <td>
        <Status status={execution.status} />
      </td>
      <td>
        <Link to={`/sessions/${segment(execution.sessionId)}`}>{execution.sessionId}</Link>
      </td>
      <td>
        <Link
          to={`/sessions/${segment(execution.sessionId)}/workflows/${segment(execution.workflowId)}`}
        >
          {execution.workflowId}
        </Link>{' '}
        <span className="muted">v{execution.workflowVersion}</span>
      </td>
      <td>
        <Time value={execution.createdAt} />
      </td>
      <td>
        <Time value={execution.endedAt} />
      </td>
    </>
  );
}
