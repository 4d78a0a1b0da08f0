// A run as people read it: its status and a table of its nodes with their counts, shown once
// or followed live until the run ends (redrawn in place on a terminal, a line per change
// elsewhere, so a CI log stays readable).
import { dataOf, isTerminalStatus } from '../client/index.js';
import type { ApiSchemas } from '../client/index.js';
import type { CommandContext } from './command-context.js';
import type { Colour } from './output.js';

type Execution = ApiSchemas['Execution'];

/** How often a follow reads again: often enough to feel live, rarely enough to cost nothing. */
export const FOLLOW_INTERVAL_MS = 250;

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const STATUS_COLOURS: Partial<Record<string, Colour>> = {
  COMPLETED: 'green',
  FAILED: 'red',
  TIMED_OUT: 'red',
  ABORTED: 'red',
  STOPPED: 'yellow',
  PAUSED: 'yellow',
};

export function printRun(context: CommandContext, run: Execution): void {
  const output = context.output;
  if (output.json) {
    output.value(run);
    return;
  }
  for (const line of runLines(context, run)) output.line(line);
}

function runLines(context: CommandContext, run: Execution): string[] {
  const output = context.output;
  const status = output.paint(STATUS_COLOURS[run.status] ?? 'bold', run.status);
  const lines = [
    `${run.executionId}  ${run.sessionId}/${run.workflowId} v${String(run.workflowVersion)}  ${status}`,
  ];
  if (run.error !== null) lines.push(`error: ${run.error}`);
  const nodes = Object.entries(run.nodes);
  if (nodes.length === 0) return lines;
  const width = Math.max(4, ...nodes.map(([nodeId]) => nodeId.length));
  lines.push(output.paint('bold', `${'NODE'.padEnd(width)}  STATUS     IN      OUT     RETRIES`));
  for (const [nodeId, node] of nodes) {
    lines.push(
      [
        nodeId.padEnd(width),
        output.paint(STATUS_COLOURS[node.status] ?? 'dim', node.status.padEnd(9)),
        String(node.messagesIn).padEnd(7),
        String(node.messagesOut).padEnd(7),
        String(node.retries),
      ].join('  ') + (node.error === null ? '' : `  ${node.error}`),
    );
  }
  return lines;
}

/** Reads the run until it ends, showing each change; answers the ended run. */
export async function followRun(context: CommandContext, id: string): Promise<Execution> {
  const { api } = context.connection();
  const output = context.output;
  let shown: string[] = [];
  const seen = new Map<string, string>();
  for (;;) {
    const run = await dataOf(api.GET('/api/executions/{id}', { params: { path: { id } } }));
    if (output.interactive) {
      const lines = runLines(context, run);
      if (shown.length > 0) output.raw(`\u001b[${String(shown.length)}F\u001b[0J`);
      for (const line of lines) output.line(line);
      shown = lines;
    } else if (!output.json) {
      for (const [nodeId, node] of Object.entries(run.nodes)) {
        const text = `${node.status} in=${String(node.messagesIn)} out=${String(node.messagesOut)}`;
        if (seen.get(nodeId) !== text) output.line(`${nodeId}: ${text}`);
        seen.set(nodeId, text);
      }
    }
    if (isTerminalStatus(run.status)) {
      if (output.json) output.value(run);
      else if (!output.interactive) {
        output.line(
          `${run.executionId} ${run.status}${run.error === null ? '' : `: ${run.error}`}`,
        );
      }
      return run;
    }
    await pause(FOLLOW_INTERVAL_MS);
  }
}
