// Approvals waiting for an answer (SPEC Events 9): each with its message, a comment field and
// Approve / Reject, for the whole run or for one node in its inspector.
import { useState } from 'react';
import { api, call } from '../api';
import { ErrorNote, Json, Section, Time } from '../components';
import { useRead } from '../hooks';
import type { Action } from '../hooks';
import type { Approval } from '../types';

/** The run's pending approvals, read again whenever `changes` moves. */
export function usePendingApprovals(executionId: string, changes: number) {
  return useRead(
    `approvals ${executionId}`,
    () =>
      call(api.GET('/api/executions/{id}/approvals', { params: { path: { id: executionId } } })),
    changes,
  );
}

export function Approvals(props: {
  readonly executionId: string;
  readonly changes: number;
  readonly action: Action;
  readonly ended: boolean;
}) {
  const approvals = usePendingApprovals(props.executionId, props.changes);
  return (
    <Section title="Pending approvals">
      <ErrorNote error={approvals.error} />
      {approvals.data?.length === 0 && <p className="muted">Nothing waits for an answer.</p>}
      {approvals.data?.map((approval) => (
        <ApprovalCard
          key={approval.messageId}
          executionId={props.executionId}
          approval={approval}
          action={props.action}
          ended={props.ended}
        />
      ))}
    </Section>
  );
}

export function ApprovalCard(props: {
  readonly executionId: string;
  readonly approval: Approval;
  readonly action: Action;
  readonly ended: boolean;
}) {
  const { approval, action } = props;
  const [comment, setComment] = useState('');
  const answer = (approved: boolean) => {
    const text = comment.trim();
    action.run(() =>
      call(
        api.POST('/api/executions/{id}/nodes/{nodeId}/signal', {
          params: { path: { id: props.executionId, nodeId: approval.nodeId } },
          body: {
            approved,
            messageId: approval.messageId,
            ...(text === '' ? {} : { comment: text }),
          },
        }),
      ),
    );
  };
  return (
    <div className="approval">
      <p>
        Node <code>{approval.nodeId}</code> asks since <Time value={approval.requestedAt} />
        {approval.prompt !== null && <>: {approval.prompt}</>}
      </p>
      <Json value={approval.payload} />
      <input
        placeholder="comment (optional)"
        aria-label={`Comment for ${approval.nodeId}`}
        value={comment}
        onChange={(event) => {
          setComment(event.target.value);
        }}
      />{' '}
      <button
        type="button"
        disabled={action.busy || props.ended}
        onClick={() => {
          answer(true);
        }}
      >
        Approve
      </button>{' '}
      <button
        type="button"
        disabled={action.busy || props.ended}
        onClick={() => {
          answer(false);
        }}
      >
        Reject
      </button>
    </div>
  );
}
