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

/**
 * The log lines of the execution (of one node when `nodeId` is given), read again whenever
 * `changes` moves: each read asks only for the lines after the newest one held, so a long
 * run is not sent again as it grows.
 */
export function useLogLines(
  executionId: string,
  nodeId: string | undefined,
  changes: number,
): LogLines {
  const keyVersion = useContext(KeyVersion);
  const scope = `${executionId}/${nodeId ?? ''}/${String(keyVersion)}`;
  const [held, setHeld] = useState<Held>();
  const newest = useRef<{ scope: string; seq: number | undefined }>({ scope, seq: undefined });
  const read = useEffectEvent(async (): Promise<void> => {
    const after = newest.current.scope === scope ? newest.current.seq : undefined;
    try {
      const lines = await call(
        api.GET('/api/executions/{id}/logs', {
          params: {
            path: { id: executionId },
            query: {
              ...(nodeId === undefined ? {} : { nodeId }),
              ...(after === undefined ? {} : { after }),
            },
          },
        }),
      );
      setHeld((previous) => {
        const kept = previous?.scope === scope ? previous.lines : [];
        // Reads may overlap: a line already held is not added twice.
        const last = kept.at(-1)?.seq ?? -1;
        const fresh = lines.filter((line) => line.seq > last);
        const all = fresh.length === 0 ? kept : [...kept, ...fresh];
        newest.current = { scope, seq: all.at(-1)?.seq };
        return { scope, lines: all, error: undefined, loaded: true };
      });
    } catch (error) {
      setHeld((previous) => ({
        scope,
        lines: previous?.scope === scope ? previous.lines : [],
        error: asError(error),
        loaded: true,
      }));
    }
  });
  useEffect(() => {
    void read();
  }, [scope, changes]);
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
