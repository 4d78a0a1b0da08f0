// Data hooks: reads that follow the key in use, and actions whose refusals are shown.
import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { api } from './api';

/** Bumped whenever the key changes, so every read is made again with the new key. */
export const KeyVersion = createContext(0);

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

interface Answer<T> {
  readonly request: string;
  readonly data?: T;
  readonly error?: Error;
}

export interface Read<T> {
  /** The last answer for this path, kept while a newer read is under way. */
  readonly data: T | undefined;
  readonly error: Error | undefined;
  readonly loading: boolean;
  reload(): void;
}

/** GETs `path` (nothing while null); again when the key, `version` or `reload` changes it. */
export function useRead<T>(path: string | null, version = 0): Read<T> {
  const keyVersion = useContext(KeyVersion);
  const [tick, setTick] = useState(0);
  const [answer, setAnswer] = useState<Answer<T> & { readonly path: string }>();
  const request = path === null ? null : `${path} ${keyVersion} ${version} ${tick}`;
  useEffect(() => {
    if (path === null || request === null) return undefined;
    let current = true;
    api<T>('GET', path).then(
      (data) => {
        if (current) setAnswer({ path, request, data });
      },
      (error: unknown) => {
        if (current) setAnswer({ path, request, error: asError(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [path, request]);
  const reload = useCallback(() => {
    setTick((value) => value + 1);
  }, []);
  const same = answer !== undefined && answer.path === path;
  return {
    data: same ? answer.data : undefined,
    error: same ? answer.error : undefined,
    loading: request !== null && answer?.request !== request,
    reload,
  };
}

export interface Action {
  readonly busy: boolean;
  readonly error: Error | undefined;
  /** Runs one action at a time; its refusal is kept in `error` until the next one. */
  run(work: () => Promise<unknown>): void;
}

export function useAction(onDone?: () => void): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const run = useCallback(
    (work: () => Promise<unknown>) => {
      setBusy(true);
      setError(undefined);
      work().then(
        () => {
          setBusy(false);
          onDone?.();
        },
        (failure: unknown) => {
          setBusy(false);
          setError(asError(failure));
        },
      );
    },
    [onDone],
  );
  return { busy, error, run };
}
