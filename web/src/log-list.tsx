// Log lines of a run or of one node: read a slice at a time (only the lines after the last one
// held) and shown in a virtualised list, so that a run of 100,000 lines keeps a few dozen rows
// in the page and stays responsive (docs/ui.md).
import { useContext, useEffect, useEffectEvent, useRef, useState } from 'react';
import { api, call } from './api';
import { KeyVersion, asError } from './hooks';
import type { LogEntry } from './types';
import { VirtualList } from './virtual-list';

/** Height of one unwrapped line in pixels; the list corrects it as rows are measured. */
const ROW_ESTIMATE = 18;

/** A line as text: time, level, the node when the list mixes nodes, message and fields. */
export function logLineText(line: LogEntry, withNode: boolean): string {
  const node = withNode ? `${line.nodeId}: ` : '';
  const fields = Object.keys(line.fields).length === 0 ? '' : ` ${JSON.stringify(line.fields)}`;
  return `${line.timestamp.slice(11, 23)} ${line.level.padEnd(5)} ${node}${line.message}${fields}`;
}

export interface LogLines {
  readonly lines: readonly LogEntry[];
  readonly error: Error | undefined;
  readonly loaded: boolean;
}

interface Held extends LogLines {
  readonly scope: string;
}

/** Lines asked for in one read: the first slice of a long run shows while the rest comes. */
const SLICE = 5_000;
/**
 * Lines the page holds at most, the newest: a run followed for hours can log far more than the
 * server keeps, and the page would otherwise hold every line it was ever sent.
 */
export const LINES_HELD = 200_000;

/** A read under way: whether a change asked for another, and the newest line it has read. */
interface Reading {
  readonly scope: string;
  again: boolean;
  newest: number | undefined;
}

/** Whether another read was asked for, and the asking answered. */
function takeAgain(reading: Reading): boolean {
  const again = reading.again;
  reading.again = false;
  return again;
}

/**
 * The log lines of the execution (of one node when `nodeId` is given), read again whenever
 * `changes` moves. Each read asks only for the lines after the newest one held, a slice at a
 * time, so a long run is neither sent in one answer nor sent again as it grows. One read runs
 * at a time; a change during it makes it read once more when it is done.
 */
export function useLogLines(
  executionId: string,
  nodeId: string | undefined,
  changes: number,
): LogLines {
  const keyVersion = useContext(KeyVersion);
  const scope = `${executionId}/${nodeId ?? ''}/${String(keyVersion)}`;
  const [held, setHeld] = useState<Held>();
  const reading = useRef<Reading>(undefined);
  const stop = useRef<AbortSignal>(undefined);
  const readSlices = useEffectEvent(async (signal: AbortSignal): Promise<void> => {
    if (reading.current?.scope === scope) {
      reading.current.again = true;
      return;
    }
    const state: Reading = { scope, again: true, newest: undefined };
    reading.current = state;
    // A call, not a property read: the signal changes while the reads are awaited.
    const stopped = () => signal.aborted;
    try {
      while (takeAgain(state) && !stopped()) {
        let full = true;
        while (full && !stopped()) {
          const after = state.newest;
          const lines = await call(
            api.GET('/api/executions/{id}/logs', {
              params: {
                path: { id: executionId },
                query: {
                  limit: SLICE,
                  ...(nodeId === undefined ? {} : { nodeId }),
                  ...(after === undefined ? {} : { after }),
                },
              },
              signal,
            }),
          );
          full = lines.length === SLICE;
          state.newest = lines.at(-1)?.seq ?? after;
          setHeld((previous) => {
            const kept = previous?.scope === scope ? previous.lines : [];
            return {
              scope,
              lines: lines.length === 0 ? kept : [...kept, ...lines].slice(-LINES_HELD),
              error: undefined,
              loaded: true,
            };
          });
        }
      }
    } catch (error) {
      if (!stopped()) {
        setHeld((previous) => ({
          scope,
          lines: previous?.scope === scope ? previous.lines : [],
          error: asError(error),
          loaded: true,
        }));
      }
    } finally {
      if (reading.current === state) reading.current = undefined;
    }
  });
  // A new execution, node or key starts again from the first line and drops a read under way.
  useEffect(() => {
    const controller = new AbortController();
    stop.current = controller.signal;
    void readSlices(controller.signal);
    return () => {
      controller.abort();
    };
  }, [scope]);
  useEffect(() => {
    if (stop.current !== undefined) void readSlices(stop.current);
  }, [changes]);
  if (held?.scope !== scope) return { lines: [], error: undefined, loaded: false };
  return held;
}

/** The lines in a list that draws only those in view and follows the newest at its end. */
export function LogList(props: {
  readonly label: string;
  readonly lines: readonly LogEntry[];
  /** Whether each line names its node: the run's list mixes nodes, a node's list does not. */
  readonly withNode: boolean;
}) {
  const { lines, withNode } = props;
  return (
    <VirtualList
      label={props.label}
      count={lines.length}
      estimate={ROW_ESTIMATE}
      rowKey={(index) => lines[index]?.seq ?? index}
      row={(index) => {
        const line = lines[index];
        return line === undefined ? null : logLineText(line, withNode);
      }}
      className="log-list"
      follow
    />
  );
}
