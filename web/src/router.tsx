// Navigation over the History API. The server answers every UI path with the page, so a deep
// link or a reload lands on the same view.
import { useSyncExternalStore } from 'react';
import type { MouseEvent, ReactNode } from 'react';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

function currentLocation(): string {
  return `${window.location.pathname}${window.location.search}`;
}

export function useLocation(): URL {
  const href = useSyncExternalStore(subscribe, currentLocation);
  return new URL(href, window.location.origin);
}

export function navigate(to: string, options: { readonly replace?: boolean } = {}): void {
  if (options.replace === true) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  for (const listener of listeners) listener();
}

/** A path segment: ids are encoded so that a `?` or a space in one keeps the path intact. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}

export function Link(props: {
  readonly to: string;
  readonly children: ReactNode;
  readonly className?: string;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // Modified clicks keep their browser meaning (new tab, new window).
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={props.to} onClick={onClick} className={props.className}>
      {props.children}
    </a>
  );
}

export type Route =
  | { readonly view: 'sessions' }
  | { readonly view: 'session'; readonly sessionId: string }
  | { readonly view: 'workflow'; readonly sessionId: string; readonly workflowId: string }
  | { readonly view: 'editor'; readonly sessionId: string; readonly workflowId: string }
  | { readonly view: 'versions'; readonly sessionId: string; readonly workflowId: string }
  | { readonly view: 'executions' }
  | { readonly view: 'execution'; readonly executionId: string }
  | { readonly view: 'dead-letters' }
  | { readonly view: 'queue' }
  | { readonly view: 'audit' }
  | { readonly view: 'not-found'; readonly path: string };

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function matchRoute(pathname: string): Route {
  const parts = pathname
    .split('/')
    .filter((part) => part !== '')
    .map(decode);
  const [first, second, third, fourth, fifth, ...rest] = parts;
  if (rest.length > 0 || (fifth !== undefined && third !== 'workflows')) {
    return { view: 'not-found', path: pathname };
  }
  if (first === undefined) return { view: 'sessions' };
  if (first === 'sessions' && second !== undefined) {
    if (third === undefined) return { view: 'session', sessionId: second };
    if (third === 'workflows' && fourth !== undefined) {
      if (fifth === 'edit') return { view: 'editor', sessionId: second, workflowId: fourth };
      if (fifth === 'versions') return { view: 'versions', sessionId: second, workflowId: fourth };
      if (fifth === undefined) return { view: 'workflow', sessionId: second, workflowId: fourth };
    }
  }
  if (first === 'sessions' && second === undefined) return { view: 'sessions' };
  if (first === 'dead-letters' && second === undefined) return { view: 'dead-letters' };
  if (first === 'queue' && second === undefined) return { view: 'queue' };
  if (first === 'audit' && second === undefined) return { view: 'audit' };
  if (first === 'executions' && third === undefined) {
    return second === undefined
      ? { view: 'executions' }
      : { view: 'execution', executionId: second };
  }
  return { view: 'not-found', path: pathname };
}
