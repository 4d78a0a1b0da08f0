// Waiting for a run's answer, as a synchronous hook call does: its first terminal message, or
// its end when it ends without one, or nothing within the wait. The bus is subscribed before
// the execution is read, so an answer that came before the wait began is found, and one that
// comes after is heard.
import { isTerminalExecutionStatus } from '../executions/index.js';
import type { ExecutionEntry, ExecutionRegistry } from '../executions/index.js';
import type { EventBus } from '../events/index.js';

export type FirstResult =
  | { readonly kind: 'result'; readonly payload: unknown }
  | { readonly kind: 'ended'; readonly status: string; readonly error: string | null }
  | { readonly kind: 'timeout' };

export function firstResult(
  bus: EventBus,
  registry: ExecutionRegistry,
  entry: ExecutionEntry,
  timeoutMs: number,
): Promise<FirstResult> {
  return new Promise((resolve) => {
    const { executionId } = entry;
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' });
    }, timeoutMs);
    const settle = (answer: FirstResult): void => {
      subscription.close();
      clearTimeout(timer);
      resolve(answer);
    };
    const check = (): void => {
      const [first] = registry.resultsOf(entry);
      if (first !== undefined) settle({ kind: 'result', payload: first.payload });
      else if (isTerminalExecutionStatus(entry.status)) {
        settle({ kind: 'ended', status: entry.status, error: entry.error });
      }
    };
    const subscription = bus.subscribe(
      (event) => event.executionId === executionId,
      ({ event }) => {
        if (event.kind === 'result') settle({ kind: 'result', payload: event.payload });
        else check();
      },
    );
    check();
  });
}
