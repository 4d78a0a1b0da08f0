// The progress stream of one execution, followed live: events as they come, taken up again
// from the last event id when the connection breaks, ended by the server when the run ends.
import { useContext, useEffect, useEffectEvent, useState } from 'react';
import { ApiError, isTerminalStatus, readEventStream } from './api';
import { KeyVersion } from './hooks';
import { segment } from './router';
import type { ExecutionStatus, ProgressEvent } from './types';

/** Live events kept; older ones scroll away (the stream is best effort anyway, SPEC Events 5). */
const EVENTS_SHOWN = 50;

export interface Stream {
  readonly state: string;
  readonly events: readonly ProgressEvent[];
}

/**
 * Follows the progress stream of the execution. The server ends it once the execution has
 * ended; a broken connection is taken up again from the last event id.
 */
export function useProgressStream(
  sessionId: string | undefined,
  executionId: string,
  onChange: () => void,
): Stream {
  const keyVersion = useContext(KeyVersion);
  const [stream, setStream] = useState<Stream & { readonly executionId: string }>();
  const received = useEffectEvent((event: ProgressEvent) => {
    setStream((previous) => ({
      executionId,
      state: 'live',
      events: [...(previous?.executionId === executionId ? previous.events : []), event].slice(
        -EVENTS_SHOWN,
      ),
    }));
    onChange();
  });
  const stateChanged = useEffectEvent((state: string) => {
    setStream((previous) => ({
      executionId,
      state,
      events: previous?.executionId === executionId ? previous.events : [],
    }));
    onChange();
  });
  useEffect(() => {
    if (sessionId === undefined) return undefined;
    const controller = new AbortController();
    const path = `/api/workflow/${segment(sessionId)}/status/${segment(executionId)}/stream`;
    let lastEventId: string | null = null;
    let lastStatus: ExecutionStatus = 'QUEUED';
    const stopped = () => controller.signal.aborted;
    const follow = async () => {
      while (!stopped()) {
        try {
          await readEventStream(
            path,
            (event) => {
              lastEventId = event.id ?? lastEventId;
              const data = event.data as ProgressEvent;
              lastStatus = data.progress.status;
              received(data);
            },
            { signal: controller.signal, lastEventId },
          );
          if (isTerminalStatus(lastStatus)) {
            stateChanged('ended');
            return;
          }
          // Ended before the execution did: the server stopped; try again shortly.
          stateChanged('reconnecting');
        } catch (error) {
          if (stopped()) return;
          if (error instanceof ApiError) {
            stateChanged(`refused (${error.message})`);
            return;
          }
          stateChanged('reconnecting');
        }
        await pause(2_000, controller.signal);
      }
    };
    void follow();
    return () => {
      controller.abort();
    };
  }, [sessionId, executionId, keyVersion]);
  if (stream === undefined || stream.executionId !== executionId) {
    return { state: sessionId === undefined ? 'waiting' : 'connecting', events: [] };
  }
  return stream;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      window.clearTimeout(timer);
      resolve();
    });
  });
}
