// Restart from a node with edited input (docs/run-repair.md): the messages the node received
// are its parents' recorded output on the edges into it; an edit replaces one of them, or adds
// one, in the output its parent replays, so the node and everything after it run on them.
import { AppError } from '../core/index.js';
import { childMessageId, isNodeEnded, plainLineage, sourceMessageId } from '../engine/index.js';
import type { NodeState, RecordedMessage, WorkflowPlan } from '../engine/index.js';

/** One edit of a restart: a received message's new payload, or (no id) an added message. */
export interface InputEdit {
  readonly messageId?: string | undefined;
  readonly payload: unknown;
}

/** A message a node received, with the parent that sent it. */
export interface ReceivedMessage {
  readonly from: string;
  readonly message: RecordedMessage;
}

/**
 * What `nodeId` received: its parents' output on the edges into it, parent by parent in the
 * order of the edges, only the messages of the edge's port where it names one.
 */
export async function receivedMessages(
  plan: WorkflowPlan,
  nodeId: string,
  outputOf: (parent: string) => Promise<readonly RecordedMessage[]>,
): Promise<ReceivedMessage[]> {
  const received: ReceivedMessage[] = [];
  for (const edge of plan.definition.edges.filter((candidate) => candidate.target === nodeId)) {
    for (const message of await outputOf(edge.source)) {
      if (edge.sourcePort === undefined || edge.sourcePort === message.port) {
        received.push({ from: edge.source, message });
      }
    }
  }
  return received;
}

/**
 * The node whose recorded output a read of `nodeId`'s messages needs and that has not ended:
 * it has recorded only part of its output, which is not "not kept" but "not yet".
 */
export function stillProducing(
  plan: WorkflowPlan,
  states: readonly NodeState[],
  nodeId: string,
  direction: 'in' | 'out',
): string | undefined {
  const producers =
    direction === 'out'
      ? [nodeId]
      : (plan.byId.get(nodeId)?.parents ?? []).map((index) => plan.nodes[index]?.nodeId);
  return producers.find((producer) => {
    const state = states.find((node) => node.nodeId === producer);
    return state !== undefined && !isNodeEnded(state);
  });
}

/** What an edit made of the replayed output, for the audit. */
export function describeEdits(edits: readonly InputEdit[]): string {
  const edited = edits.flatMap((edit) => (edit.messageId === undefined ? [] : [edit.messageId]));
  const added = edits.length - edited.length;
  const parts = edited.length === 0 ? [] : [`payload of ${edited.join(', ')} edited`];
  if (added > 0) parts.push(`${String(added)} message${added === 1 ? '' : 's'} added`);
  return parts.join('; ');
}

/**
 * The parents' replayed output with the edits applied. An edited message gets a new id (the
 * old one with `.edit`), and so do the messages derived from it: a receiver that dedupes on
 * message ids must not take a changed payload for one it has seen. Added messages leave the
 * parent of the first edge into the node, on that edge's port, after its recorded output.
 */
export async function applyInputEdits(
  plan: WorkflowPlan,
  nodeId: string,
  outputs: Map<string, readonly RecordedMessage[]>,
  edits: readonly InputEdit[],
  context: { readonly executionId: string; readonly lineage: string; readonly only?: boolean },
): Promise<void> {
  const { executionId } = context;
  const received = await receivedMessages(plan, nodeId, (parent) =>
    Promise.resolve(outputs.get(parent) ?? []),
  );
  const byId = new Map(received.map((entry) => [entry.message.id, entry]));
  const replaced = new Map<string, Map<string, unknown>>();
  const added: unknown[] = [];
  for (const edit of edits) {
    if (edit.messageId === undefined) {
      added.push(edit.payload);
      continue;
    }
    const entry = byId.get(edit.messageId);
    if (entry === undefined) {
      throw new AppError('INPUT_MESSAGE_NOT_FOUND', {
        params: { executionId, nodeId, messageId: edit.messageId },
      });
    }
    const payloads = replaced.get(entry.from) ?? new Map<string, unknown>();
    payloads.set(edit.messageId, edit.payload);
    replaced.set(entry.from, payloads);
  }
  for (const [parent, payloads] of replaced) {
    outputs.set(
      parent,
      (outputs.get(parent) ?? []).map((message) =>
        payloads.has(message.id)
          ? {
              ...message,
              id: childMessageId(message.id, 'edit', 0),
              payload: payloads.get(message.id),
            }
          : message,
      ),
    );
  }
  if (added.length > 0) addMessages(plan, nodeId, outputs, added, context);
  if (context.only === true) keepEditedOnly(plan, nodeId, outputs, replaced);
}

/**
 * A redrive (docs/dead-letters.md) runs the node on its one message: the parents of the edges
 * into it replay the edited messages alone, so what follows sees only what comes of them.
 */
function keepEditedOnly(
  plan: WorkflowPlan,
  nodeId: string,
  outputs: Map<string, readonly RecordedMessage[]>,
  replaced: ReadonlyMap<string, ReadonlyMap<string, unknown>>,
): void {
  const kept = new Set(
    [...replaced.values()].flatMap((payloads) =>
      [...payloads.keys()].map((id) => childMessageId(id, 'edit', 0)),
    ),
  );
  for (const edge of plan.definition.edges.filter((candidate) => candidate.target === nodeId)) {
    outputs.set(
      edge.source,
      (outputs.get(edge.source) ?? []).filter((message) => kept.has(message.id)),
    );
  }
}

function addMessages(
  plan: WorkflowPlan,
  nodeId: string,
  outputs: Map<string, readonly RecordedMessage[]>,
  payloads: readonly unknown[],
  { executionId, lineage }: { readonly executionId: string; readonly lineage: string },
): void {
  const edge = plan.definition.edges.find((candidate) => candidate.target === nodeId);
  if (edge === undefined) {
    throw new AppError('RESTART_REFUSED', {
      params: {
        executionId,
        detail: `node '${nodeId}' has no parent to send it an added message`,
      },
    });
  }
  const recorded = outputs.get(edge.source) ?? [];
  const port = edge.sourcePort ?? recorded[0]?.port ?? 'out';
  // Numbered after what the parent recorded: a restart of this restart adds after these.
  const extra = payloads.map((payload, index): RecordedMessage => ({
    id: sourceMessageId(plainLineage(lineage), '_added', recorded.length + index),
    port,
    payload,
    headers: { attempt: 1 },
  }));
  outputs.set(edge.source, [...recorded, ...extra]);
}
