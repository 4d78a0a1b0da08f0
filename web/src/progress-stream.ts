// The progress stream of one execution, followed live: events as they come, taken up again
// from the last event id when the connection breaks, ended by the server when the run ends.
// One stream per tab carries both the state events and, about once a second, the run's flow.
import { useContext, useEffect, useEffectEvent, useState } from 'react';
import { activityOfEvent, activityOfFlow, appendActivity, retriesOf } from './activity';
import type { Activity, NodeRetries, RetriesSeen } from './activity';
import { ApiError, isTerminalStatus, readEventStream } from './api';
import { KeyVersion } from './hooks';
import { segment } from './router';
import type { ExecutionStatus, FlowEvent, ProgressEvent, RunFlow } from './types';

/** Live events kept; older ones scroll away (the stream is best effort anyway, SPEC Events 5). */
const EVENTS_SHOWN = 50;

export interface Stream {
  readonly state: string;
  readonly events: readonly ProgressEvent[];
  /** The run's flow as last sent; undefined before the first and once the run is over. */
  readonly flow?: RunFlow | undefined;
  /** When the last flow was sent, in milliseconds since the epoch. */
  readonly flowAt?: number | undefined;
  /** Node activity for the timeline, oldest first. */
  readonly activity: readonly Activity[];
  /** Retries the activity has told, by node. */
  readonly retries: RetriesSeen;
}

const EMPTY: Omit<Stream, 'state'> = { events: [], activity: [], retries: {} };

/** Every node's retry count in the execution record a state event carries. */
function retriesInRecord(event: ProgressEvent): Record<string, NodeRetries> {
  const counts: Record<string, NodeRetries> = {};
  for (const [nodeId, node] of Object.entries(event.progress.execution.nodes)) {
    const endedAt = node.endedAt === null ? undefined : Date.parse(node.endedAt);
    counts[nodeId] = { retries: node.retries, endedAt };
  }
  return counts;
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
    setStream((previous) => {
      const kept = previous?.executionId === executionId ? previous : EMPTY;
      const activity = activityOfEvent(event);
      // The record of a run that ended before its next flow is the only one to tell its retries.
      const retried = retriesOf(kept.retries, retriesInRecord(event), Date.parse(event.timestamp));
      return {
        ...kept,
        executionId,
        state: 'live',
        events: [...kept.events, event].slice(-EVENTS_SHOWN),
        activity: appendActivity(kept.activity, [
          ...retried.found,
          ...(activity === undefined ? [] : [activity]),
        ]),
        retries: retried.seen,
        // The run is over: no flow is sent any more, and the last one is no longer true.
        flow: isTerminalStatus(event.progress.status) ? undefined : kept.flow,
      };
    });
    onChange();
  });
  // The flow redraws the live view only: the records are read again on state events alone.
  const flowed = useEffectEvent((event: FlowEvent) => {
    setStream((previous) => {
      const kept = previous?.executionId === executionId ? previous : EMPTY;
      const at = Date.parse(event.timestamp);
      const counts = Object.fromEntries(
        event.flow.nodes.map((node) => [node.nodeId, { retries: node.retries }]),
      );
      const retried = retriesOf(kept.retries, counts, at);
      return {
        ...kept,
        executionId,
        state: 'live',
        flow: event.flow,
        flowAt: at,
        activity: appendActivity(kept.activity, [
          ...activityOfFlow(kept.flow, event.flow, at),
          ...retried.found,
        ]),
        retries: retried.seen,
      };
    });
  });
  const stateChanged = useEffectEvent((state: string) => {
    setStream((previous) => ({
      ...(previous?.executionId === executionId ? previous : EMPTY),
      executionId,
      state,
    }));
    onChange();
  });
  useEffect(() => {
    if (sessionId === undefined) return undefined;
    const controller = new AbortController();
    const path = `/api/workflow/${segment(sessionId)}/status/${segment(executionId)}/stream?flow=true`;
    let lastEventId: string | null = null;
    let lastStatus: ExecutionStatus = 'QUEUED';
    const stopped = () => controller.signal.aborted;
    const follow = async () => {
      while (!stopped()) {
        try {
          await readEventStream(
            path,
            (event) => {
              // Flow events carry no id: they leave the place to resume from as it was.
              if (event.event === 'flow') {
                flowed(event.data as FlowEvent);
                return;
              }
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
    return { state: sessionId === undefined ? 'waiting' : 'connecting', ...EMPTY };
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
