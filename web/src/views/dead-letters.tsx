// Dead letters (docs/dead-letters.md): messages nodes with onError DEAD_LETTER gave up on,
// filtered by the address, paged by cursor; each can be redriven (with its own payload or an
// edited one) or deleted.
import { useState } from 'react';
import { api, call } from '../api';
import type { ApiSchemas } from '../api';
import { ErrorNote, Pager, Section, Time } from '../components';
import { useAction, useRead } from '../hooks';
import { Link, navigate, segment, useLocation } from '../router';

const FILTERS = ['sessionId', 'workflowId', 'nodeId', 'executionId'] as const;

type Letter = ApiSchemas['DeadLetter'];

export function DeadLettersView() {
  const query = useLocation().searchParams;
  const params = new URLSearchParams();
  for (const name of [...FILTERS, 'cursor']) {
    const value = query.get(name);
    if (value !== null && value !== '') params.set(name, value);
  }
  const page = useRead(`dead-letters ${params.toString()}`, () =>
    call(api.GET('/api/dead-letters', { params: { query: Object.fromEntries(params) } })),
  );
  return (
    <Section title="Dead letters" aside={page.loading ? 'loading…' : undefined}>
      <p className="muted">
        Messages nodes with <code>onError: DEAD_LETTER</code> gave up on. A redrive runs the node
        and what follows it again on the message alone.
      </p>
      <ErrorNote error={page.error} />
      {page.data !== undefined && page.data.items.length === 0 && (
        <p className="muted">No dead letters.</p>
      )}
      {page.data?.items.map((letter) => (
        <LetterCard
          key={letter.id}
          letter={letter}
          onChange={() => {
            page.reload();
          }}
        />
      ))}
      <Pager path="/dead-letters" params={params} nextCursor={page.data?.nextCursor} />
    </Section>
  );
}

function LetterCard(props: { readonly letter: Letter; readonly onChange: () => void }) {
  const { letter } = props;
  const [payload, setPayload] = useState(() => JSON.stringify(letter.payload, null, 2));
  const action = useAction(props.onChange);
  const redrive = () => {
    action.run(async () => {
      let edited: unknown;
      try {
        edited = JSON.parse(payload) as unknown;
      } catch (error) {
        throw new Error(
          `The payload is not JSON: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      const answer = await call(
        api.POST('/api/dead-letters/{id}/redrive', {
          params: { path: { id: letter.id } },
          body: { payload: edited },
        }),
      );
      navigate(`/executions/${segment(answer.executionId)}`);
    });
  };
  const remove = () => {
    action.run(() =>
      call(api.DELETE('/api/dead-letters/{id}', { params: { path: { id: letter.id } } })),
    );
  };
  return (
    <article className="dead-letter" aria-label={`Dead letter ${letter.id}`}>
      <p>
        Node <code>{letter.nodeId}</code> of{' '}
        <Link to={`/executions/${segment(letter.executionId)}`}>{letter.executionId}</Link>{' '}
        <span className="muted">
          ({letter.sessionId}/{letter.workflowId}, <Time value={letter.createdAt} />)
        </span>
      </p>
      <p>
        Error: <code>{letter.error}</code>{' '}
        <span className="muted">after {letter.attempts.length} attempt(s)</span>
      </p>
      {letter.redrivenAs !== null && (
        <p>
          Redriven as{' '}
          <Link to={`/executions/${segment(letter.redrivenAs)}`}>{letter.redrivenAs}</Link>
        </p>
      )}
      <label>
        Payload of message <code>{letter.messageId}</code>
        <textarea
          rows={3}
          spellCheck={false}
          value={payload}
          onChange={(event) => {
            setPayload(event.target.value);
          }}
        />
      </label>
      <div className="controls">
        <button type="button" disabled={action.busy} onClick={redrive}>
          Redrive
        </button>
        <button type="button" disabled={action.busy} onClick={remove}>
          Delete
        </button>
      </div>
      <ErrorNote error={action.error} />
    </article>
  );
}
