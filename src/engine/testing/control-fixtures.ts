// Plugins and helpers the control tests share: processors that hold messages, a source the
// test feeds, and the refusal a control answers with.
import { AppError } from '../../core/index.js';
import type { Message } from '../../plugin-api/index.js';
import type { TestPluginType } from './test-catalog.js';
import { waitFor } from '../../core/testing/index.js';
import { chainOf, createTestRun, processorOf, sourceOf } from './test-run.js';
import type { TestRun, TestRunOptions } from './test-run.js';
import type { WorkflowRun } from '../runtime/workflow-run.js';

export const pass = processorOf((message) => ({ payload: message.payload }));
export const hang = processorOf(() => new Promise<undefined>(() => undefined));

/** A processor that keeps each message inside the plugin call until released. */
export function holdingProcessor(): {
  type: TestPluginType;
  held: (() => void)[];
  release(): void;
} {
  const held: (() => void)[] = [];
  let holding = true;
  return {
    held,
    type: processorOf((message: Message) =>
      holding
        ? new Promise((resolve) =>
            held.push(() => {
              resolve({ payload: message.payload });
            }),
          )
        : { payload: message.payload },
    ),
    release() {
      holding = false;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

/** A trigger that emits what the test pushes, with a header, until closed. */
export function pushSource(): {
  type: TestPluginType;
  push(payload: unknown): void;
  close(): void;
} {
  const queue: unknown[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  return {
    type: {
      kind: 'trigger',
      runtime: () => ({
        async *run() {
          for (let index = 0; ; index++) {
            while (queue.length === 0 && !closed) await new Promise<void>((r) => (wake = r));
            if (queue.length === 0) return;
            yield { payload: queue.shift(), headers: { trace: `t${index}` } };
          }
        },
      }),
    },
    push(payload) {
      queue.push(payload);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
  };
}

export type NodeControl =
  'pauseNode' | 'resumeNode' | 'stepNode' | 'stopNode' | 'skipNode' | 'unskipNode';
export type Control = NodeControl | 'pause' | 'resume' | 'step' | 'setBreakpoints';

/** The error a control throws; fails the test when it does not throw one. */
export function refusal<K extends Control>(
  run: WorkflowRun,
  control: K,
  ...args: Parameters<WorkflowRun[K]>
): AppError {
  try {
    (run[control] as (...values: unknown[]) => unknown).apply(run, args);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`${control} was not refused`);
}

/** Counters of every node, to prove that nothing moved. */
export const counters = (h: TestRun): string =>
  JSON.stringify(h.run.nodes.map((n) => [n.nodeId, n.status, n.messagesIn, n.messagesOut]));

/** src -> hold -> end, paused while `hold` has its first message inside the plugin call. */
export async function pausedMidFlow(): Promise<{
  h: TestRun;
  hold: ReturnType<typeof holdingProcessor>;
}> {
  const hold = holdingProcessor();
  const h = createTestRun(
    { SRC: sourceOf([1, 2, 3, 4, 5, 6]), HOLD: hold.type },
    [
      { nodeId: 'src', type: 'SRC' },
      { nodeId: 'hold', type: 'HOLD' },
      { nodeId: 'end', type: 'SINK' },
    ],
    chainOf('src', 'hold', 'end'),
    { capacity: 2 },
  );
  h.run.start();
  await waitFor(() => hold.held.length === 1, 'the first message inside the plugin');
  h.run.pause();
  return { h, hold };
}

/** src -> pass -> end: a source of `payloads`, a processor passing each on, and a terminal. */
export function passChain(payloads: readonly unknown[], options?: TestRunOptions): TestRun {
  return createTestRun(
    { SRC: sourceOf(payloads), PASS: pass },
    [
      { nodeId: 'src', type: 'SRC' },
      { nodeId: 'pass', type: 'PASS' },
      { nodeId: 'end', type: 'SINK' },
    ],
    chainOf('src', 'pass', 'end'),
    options,
  );
}
