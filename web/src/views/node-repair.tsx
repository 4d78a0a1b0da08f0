// Repairing a run from one of its nodes (docs/run-repair.md): what the node received, each
// payload editable, and a restart from the node; the nodes before it replay their checkpoints.
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { api, call } from '../api';
import type { ApiSchemas } from '../api';
import { ErrorNote, Section } from '../components';
import { useAction, useRead } from '../hooks';
import { navigate, segment } from '../router';

/** The most received messages offered for editing; the API pages beyond that. */
const SHOWN = 100;

export function NodeRepair(props: {
  readonly executionId: string;
  readonly nodeId: string;
  readonly onClose: () => void;
}) {
  const { executionId: id, nodeId } = props;
  const received = useRead(`received ${id}/${nodeId}`, () =>
    call(
      api.GET('/api/executions/{id}/nodes/{nodeId}/messages', {
        params: { path: { id, nodeId }, query: { direction: 'in', limit: SHOWN } },
      }),
    ),
  );
  // Only the payloads the operator changed are sent: the others replay as recorded.
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const action = useAction();
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    action.run(async () => {
      const inputs: ApiSchemas['InputEditInput'][] = [];
      for (const [messageId, text] of Object.entries(drafts)) {
        try {
          inputs.push({ messageId, payload: JSON.parse(text) as unknown });
        } catch (error) {
          throw new Error(
            `The payload of ${messageId} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        }
      }
      const restarted = await call(
        api.POST('/api/executions/{id}/restart/{nodeId}', {
          params: { path: { id, nodeId } },
          body: inputs.length === 0 ? {} : { inputs },
        }),
      );
      navigate(`/executions/${segment(restarted.executionId)}`);
    });
  };
  const items = received.data?.items ?? [];
  return (
    <Section title={`Restart from ${nodeId}`}>
      <p className="muted">
        The node and every node after it run again on these messages; the nodes before it replay
        what they recorded.
      </p>
      <ErrorNote error={received.error} />
      <form className="repair" onSubmit={submit}>
        {received.data !== undefined && items.length === 0 && (
          <p className="muted">The node received no messages.</p>
        )}
        {items.map((message) => (
          <label key={message.messageId}>
            Payload of message <code>{message.messageId}</code>
            <textarea
              rows={3}
              spellCheck={false}
              value={drafts[message.messageId] ?? JSON.stringify(message.payload, null, 2)}
              onChange={(event) => {
                setDrafts({ ...drafts, [message.messageId]: event.target.value });
              }}
            />
          </label>
        ))}
        {received.data?.nextCursor != null && (
          <p className="muted">Only the first {SHOWN} messages are shown.</p>
        )}
        <div className="controls">
          <button type="submit" disabled={action.busy || received.data === undefined}>
            Restart from {nodeId}
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
      <ErrorNote error={action.error} />
    </Section>
  );
}
