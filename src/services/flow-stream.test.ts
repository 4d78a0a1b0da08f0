// The flow events of a progress stream (docs/ui.md "Live run view"): unnumbered, a rate per
// edge from the change of its taken count, and none once the run has ended.
import { describe, expect, it } from 'vitest';
import type { RunFlow } from '../engine/index.js';
import { ExecutionEntry } from '../executions/index.js';
import { followFlow } from './flow-stream.js';
import type { EdgeFlowView } from './flow-stream.js';
import type { EventSink } from './execution-streams.js';

interface Sent {
  readonly id: number | null;
  readonly event: string;
  readonly data: { readonly flow: { readonly edges: readonly EdgeFlowView[] } };
}

function recordingSink(): { sink: EventSink; sent: Sent[]; close(): void } {
  const sent: Sent[] = [];
  const closers: (() => void)[] = [];
  const close = (): void => {
    for (const closer of closers.splice(0)) closer();
  };
  const sink: EventSink = {
    send: (id, event, data) => sent.push({ id, event, data: data as Sent['data'] }),
    sendEvent: () => undefined,
    follow: () => undefined,
    onClose: (callback) => closers.push(callback),
    close,
  };
  return { sink, sent, close };
}

function runningEntry(): ExecutionEntry {
  const entry = new ExecutionEntry({
    executionId: 'e1',
    sessionId: 's',
    workflowId: 'w',
    workflowVersion: 1,
    priority: 0,
    createdAt: 0,
    parentExecutionId: null,
    depth: 0,
  });
  entry.transition('RUNNING');
  return entry;
}

/**
 * A run whose one edge gains `perRead` taken messages, and one second, at every read; its
 * timer ticks when the test says so, and says whether it is still set.
 */
function steadyRun(perRead: number) {
  let reads = 0;
  let tick: (() => void) | undefined;
  return {
    tick: () => tick?.(),
    get ticking() {
      return tick !== undefined;
    },
    every: (_ms: number, next: () => void) => {
      tick = next;
      return () => {
        tick = undefined;
      };
    },
    flowOf: (): RunFlow => {
      reads++;
      return {
        heldBackBy: null,
        nodes: [],
        edges: [
          {
            source: 'a',
            target: 'b',
            queued: 3,
            capacity: 8,
            taken: reads * perRead,
            sourceWaiting: false,
          },
        ],
      };
    },
    now: () => reads * 1000,
  };
}

describe('followFlow (live run view)', () => {
  it('sends unnumbered flow events whose edges carry messages per second from the second on', () => {
    const recording = recordingSink();
    const { sink, sent } = recording;
    const run = steadyRun(5);
    followFlow(run, runningEntry(), sink, 1000);
    run.tick();
    run.tick();
    expect(sent.every((event) => event.id === null && event.event === 'flow')).toBe(true);
    expect(sent.map((event) => event.data.flow.edges[0]?.perSecond)).toEqual([null, 5, 5]);
    // A closed stream lets its timer go.
    recording.close();
    expect(run.ticking).toBe(false);
  });

  it('stops once the run has ended', () => {
    const { sink, sent } = recordingSink();
    const entry = runningEntry();
    const run = steadyRun(1);
    followFlow(run, entry, sink, 1000);
    expect(sent).toHaveLength(1);
    entry.transition('COMPLETED');
    run.tick();
    expect(sent).toHaveLength(1);
    expect(run.ticking).toBe(false);
  });
});
