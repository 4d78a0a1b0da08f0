// The admission queue (docs/scheduler-queue.md): the starts waiting for a slot in the order the
// queue takes them, why each waits, and a priority field per start. Read again every two
// seconds while shown: the order moves as runs end.
import { useEffect, useState } from 'react';
import type { SubmitEvent } from 'react';
import { api, call } from '../api';
import type { ApiSchemas } from '../api';
import { ErrorNote, Section, Time } from '../components';
import { useAction, useRead } from '../hooks';
import { Link, segment } from '../router';

type QueuedStart = ApiSchemas['QueuedStart'];

const REFRESH_MS = 2000;

export function QueueView() {
  const queue = useRead('scheduler queue', () => call(api.GET('/api/scheduler/queue')));
  useEffect(() => {
    const timer = setInterval(() => {
      queue.reload();
    }, REFRESH_MS);
    return () => {
      clearInterval(timer);
    };
  }, [queue]);
  const data = queue.data;
  return (
    <Section title="Queue" aside={queue.loading ? 'loading…' : undefined}>
      <ErrorNote error={queue.error} />
      {data !== undefined && (
        <>
          <p>
            {data.running} running, {data.queued} waiting for a slot. Limits: at most{' '}
            {limitText(data.limits.maxConcurrent)} at once, {limitText(data.limits.maxPerSession)}{' '}
            per session, {limitText(data.limits.maxPerWorkflow)} per workflow; a start that finds no
            slot is {data.limits.onLimit === 'QUEUE' ? 'queued' : 'refused'}.
          </p>
          {data.items.length === 0 ? (
            <p className="muted">No start is waiting.</p>
          ) : (
            <table>
              <caption className="muted">
                In the order the queue takes them: higher priority first, then the session that runs
                fewer executions, then arrival.
              </caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Execution</th>
                  <th scope="col">Workflow</th>
                  <th scope="col">Queued</th>
                  <th scope="col">Waiting for</th>
                  <th scope="col">Priority</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((start) => (
                  <QueuedRow
                    key={start.executionId}
                    start={start}
                    onChange={() => {
                      queue.reload();
                    }}
                  />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </Section>
  );
}

function limitText(limit: number | null): string {
  return limit === null ? 'any number' : String(limit);
}

function QueuedRow(props: { readonly start: QueuedStart; readonly onChange: () => void }) {
  const { start } = props;
  const [priority, setPriority] = useState(String(start.priority));
  const action = useAction(props.onChange);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    action.run(() =>
      call(
        api.POST('/api/executions/{id}/priority', {
          params: { path: { id: start.executionId }, query: { priority: Number(priority) } },
        }),
      ),
    );
  };
  return (
    <tr aria-label={`Waiting start ${String(start.position)}`}>
      <td>{start.position}</td>
      <td>
        <Link to={`/executions/${segment(start.executionId)}`}>{start.executionId}</Link>
      </td>
      <td>
        <Link to={`/sessions/${segment(start.sessionId)}/workflows/${segment(start.workflowId)}`}>
          {start.sessionId}/{start.workflowId}
        </Link>{' '}
        <span className="muted">v{start.workflowVersion}</span>
      </td>
      <td>
        <Time value={start.queuedAt} />
      </td>
      <td>
        <ul className="plain">
          {start.paused && <li>Paused: it starts paused when it gets its slot</li>}
          {start.waitingFor.map((hold) => (
            <li key={hold.limit}>{hold.message}</li>
          ))}
        </ul>
      </td>
      <td>
        <form onSubmit={submit} className="inline">
          <label>
            <span className="visually-hidden">Priority of {start.executionId}</span>
            <input
              type="number"
              step={1}
              value={priority}
              onChange={(event) => {
                setPriority(event.target.value);
              }}
            />
          </label>
          <button type="submit" disabled={action.busy}>
            Set
          </button>
        </form>
        <ErrorNote error={action.error} />
      </td>
    </tr>
  );
}
