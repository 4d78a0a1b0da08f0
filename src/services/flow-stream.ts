// The live flow of a run on its progress stream, when the client asks for it (`flow=true`):
// about once a second an unnumbered `flow` event with every node's counts and, per edge, the
// messages queued in the child's input, its capacity and messages per second, and the node
// that holds the others back. Rates are worked out per client, from the engine's running
// counts, so a run nobody watches pays nothing for them.
import type { EdgeFlow, RunFlow } from '../engine/index.js';
import type { ExecutionEntry } from '../executions/index.js';
import { isTerminalExecutionStatus } from '../executions/index.js';
import type { EventSink } from './execution-streams.js';

/** How often a client is sent the flow of a run. */
export const FLOW_INTERVAL_MS = 1_000;

/** An edge as a flow event shows it: the engine's counts and the rate since the last event. */
export interface EdgeFlowView extends EdgeFlow {
  /** Messages per second the child took from this edge; null on the first event. */
  readonly perSecond: number | null;
}

export interface FlowView extends Omit<RunFlow, 'edges'> {
  readonly intervalMs: number;
  readonly edges: readonly EdgeFlowView[];
}

export interface FlowSource {
  /** The run's flow now; undefined while the execution has no run going. */
  flowOf(executionId: string): RunFlow | undefined;
  readonly now: () => number;
  /** Calls `tick` every `ms` until the answer is called; real timers when absent. */
  readonly every?: ((ms: number, tick: () => void) => () => void) | undefined;
}

function everyInterval(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  // A stream left open must not keep the process alive at shutdown.
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}

/** Sends the run's flow into `sink` until it closes or the run ends. */
export function followFlow(
  source: FlowSource,
  entry: ExecutionEntry,
  sink: EventSink,
  intervalMs = FLOW_INTERVAL_MS,
): void {
  let previous: { readonly at: number; readonly taken: Map<string, number> } | undefined;
  const sendFlow = (): void => {
    if (isTerminalExecutionStatus(entry.status)) {
      stop();
      return;
    }
    const flow = source.flowOf(entry.executionId);
    if (flow === undefined) return;
    const at = source.now();
    const seconds = previous === undefined ? 0 : (at - previous.at) / 1000;
    const taken = new Map<string, number>();
    const edges = flow.edges.map((edge): EdgeFlowView => {
      const key = `${edge.source}\u0000${edge.target}`;
      taken.set(key, edge.taken);
      const before = previous?.taken.get(key);
      const perSecond =
        before === undefined || seconds <= 0
          ? null
          : Math.round((10 * (edge.taken - before)) / seconds) / 10;
      return { ...edge, perSecond };
    });
    previous = { at, taken };
    const view: FlowView = { ...flow, intervalMs, edges };
    sink.send(null, 'flow', {
      kind: 'flow',
      timestamp: new Date(at).toISOString(),
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      flow: view,
    });
  };
  const stop = (source.every ?? everyInterval)(intervalMs, sendFlow);
  sink.onClose(stop);
  sendFlow();
}
