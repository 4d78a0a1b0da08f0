// Data hooks: reads that follow the key in use, and actions whose refusals are shown.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useEffectEvent,
  useMemo,
  useState,
} from 'react';

/** Bumped whenever the key changes, so every read is made again with the new key. */
export const KeyVersion = createContext(0);

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

interface Answer<T> {
  readonly key: string;
  readonly request: string;
  readonly data?: T;
  readonly error?: Error;
}

export interface Read<T> {
  /** The last answer for this key, kept while a newer read is under way. */
  readonly data: T | undefined;
  readonly error: Error | undefined;
  readonly loading: boolean;
  reload(): void;
}

/**
 * Reads with `read` (a call of the typed client), named by `key` (nothing while null); again
 * when the key in use, `key`, `version` or `reload` changes.
 */
export function useRead<T>(key: string | null, read: () => Promise<T>, version = 0): Read<T> {
  const keyVersion = useContext(KeyVersion);
  const [tick, setTick] = useState(0);
  const [answer, setAnswer] = useState<Answer<T>>();
  // A new read function comes with each render; `key` says when to call it.
  const readNow = useEffectEvent(read);
  const request = key === null ? null : `${key} ${keyVersion} ${version} ${tick}`;
  useEffect(() => {
    if (key === null || request === null) return undefined;
    let current = true;
    readNow().then(
      (data) => {
        if (current) setAnswer({ key, request, data });
      },
      (error: unknown) => {
        if (current) setAnswer({ key, request, error: asError(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [key, request]);
  const reload = useCallback(() => {
    setTick((value) => value + 1);
  }, []);
  const same = answer !== undefined && answer.key === key;
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
  // The same object while nothing changed, so that views given it can skip drawing again.
  return useMemo(() => ({ busy, error, run }), [busy, error, run]);
}
