// Small shared pieces: refusals, statuses, JSON, times, and the key field.
import { useState } from 'react';
import type { ReactNode, SubmitEvent } from 'react';
import { ApiError, storeKey, storedKey } from './api';
import { navigate } from './router';

export function ErrorNote(props: { readonly error: Error | undefined }) {
  const { error } = props;
  if (error === undefined) return null;
  return (
    <div className="error" role="alert">
      {error.message}
      {error instanceof ApiError && error.fields.length > 0 && (
        <ul>
          {error.fields.map((field) => (
            <li key={`${field.field}:${field.message}`}>
              <code>{field.field}</code>: {field.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Status(props: { readonly status: string; readonly label?: string }) {
  return (
    <span className={`status status-${props.status}`} aria-label={props.label}>
      {props.status}
    </span>
  );
}

/** `pause` as `Pause`: the controls and labels are named by their API words. */
export function capitalised(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}

export function Json(props: { readonly value: unknown }) {
  return <pre className="json">{JSON.stringify(props.value, null, 2)}</pre>;
}

/** ISO time as `YYYY-MM-DD HH:MM:SS` (UTC, as the server records it). */
export function Time(props: { readonly value: string | null }) {
  if (props.value === null) return <span className="muted">-</span>;
  return <time dateTime={props.value}>{props.value.replace('T', ' ').slice(0, 19)}</time>;
}

export function Section(props: {
  readonly title: string;
  readonly children: ReactNode;
  readonly aside?: ReactNode;
}) {
  return (
    <section aria-label={props.title}>
      <h2>
        {props.title}
        {props.aside !== undefined && <span className="aside">{props.aside}</span>}
      </h2>
      {props.children}
    </section>
  );
}

/** The API key, kept for this tab only (sessionStorage) and sent as a Bearer token. */
export function KeyField(props: { readonly onChange: () => void }) {
  const [draft, setDraft] = useState('');
  const [inUse, setInUse] = useState(() => storedKey() !== null);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    storeKey(draft.trim());
    setDraft('');
    setInUse(true);
    props.onChange();
  };
  const forget = () => {
    storeKey(null);
    setInUse(false);
    props.onChange();
  };
  return (
    <form className="key" onSubmit={submit}>
      <label>
        API key{' '}
        <input
          type="password"
          autoComplete="off"
          value={draft}
          placeholder={inUse ? 'a key is in use' : 'none'}
          onChange={(event) => {
            setDraft(event.target.value);
          }}
        />
      </label>
      <button type="submit" disabled={draft.trim() === ''}>
        Use key
      </button>
      {inUse && (
        <button type="button" onClick={forget}>
          Forget key
        </button>
      )}
    </form>
  );
}

/**
 * First and next page of a list paged by cursor, whose filters and cursor the address holds:
 * `path` is the list's address, `params` its query as shown now.
 */
export function Pager(props: {
  readonly path: string;
  readonly params: URLSearchParams;
  readonly nextCursor: string | null | undefined;
}) {
  const goTo = (cursor: string | null) => {
    const next = new URLSearchParams(props.params);
    if (cursor === null) next.delete('cursor');
    else next.set('cursor', cursor);
    navigate(`${props.path}?${next.toString()}`);
  };
  const { nextCursor } = props;
  return (
    <p>
      {props.params.has('cursor') && (
        <button
          type="button"
          onClick={() => {
            goTo(null);
          }}
        >
          First page
        </button>
      )}{' '}
      {nextCursor != null && (
        <button
          type="button"
          onClick={() => {
            goTo(nextCursor);
          }}
        >
          Next page
        </button>
      )}
    </p>
  );
}
