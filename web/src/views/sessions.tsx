// Sessions and the workflows and pending approvals of one session.
import { ErrorNote, Section, Time } from '../components';
import { api, call } from '../api';
import { useAction, useRead } from '../hooks';
import { Link, segment } from '../router';
import { NewSessionForm, NewWorkflowForm } from './create-forms';

export function SessionsView() {
  const sessions = useRead('sessions', () => call(api.GET('/api/sessions')));
  return (
    <Section title="Sessions" aside={sessions.loading ? 'loading…' : undefined}>
      <ErrorNote error={sessions.error} />
      <NewSessionForm />
      {sessions.data?.length === 0 && <p className="muted">No sessions yet.</p>}
      {sessions.data !== undefined && sessions.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Session</th>
              <th>Name</th>
              <th>Initiator</th>
              <th>Workflows</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.map((session) => (
              <tr key={session.sessionId}>
                <td>
                  <Link to={`/sessions/${segment(session.sessionId)}`}>{session.sessionId}</Link>
                </td>
                <td>
                  {session.name}
                  {session.description !== '' && <div className="muted">{session.description}</div>}
                </td>
                <td>{session.initiator}</td>
                <td>
                  {session.workflows.map((workflowId) => (
                    <Link
                      key={workflowId}
                      className="chip"
                      to={`/sessions/${segment(session.sessionId)}/workflows/${segment(workflowId)}`}
                    >
                      {workflowId}
                    </Link>
                  ))}
                </td>
                <td>
                  <Time value={session.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export function SessionDetailView(props: { readonly sessionId: string }) {
  const { sessionId } = props;
  const path = { params: { path: { sessionId } } };
  const session = useRead(`session ${sessionId}`, () =>
    call(api.GET('/api/sessions/{sessionId}', path)),
  );
  const workflows = useRead(`workflows ${sessionId}`, () =>
    call(api.GET('/api/sessions/{sessionId}/workflows', path)),
  );
  const approvals = useRead(`approvals ${sessionId}`, () =>
    call(api.GET('/api/sessions/{sessionId}/approvals', path)),
  );
  return (
    <>
      <Section title={`Session ${props.sessionId}`}>
        <ErrorNote error={session.error} />
        {session.data !== undefined && (
          <p>
            {session.data.name} · started by {session.data.initiator}
            {session.data.description !== '' && ` · ${session.data.description}`} ·{' '}
            <Link to={`/executions?sessionId=${encodeURIComponent(props.sessionId)}`}>
              its executions
            </Link>
          </p>
        )}
      </Section>
      <Section title="Workflows">
        <ErrorNote error={workflows.error} />
        <NewWorkflowForm sessionId={sessionId} />
        {workflows.data?.length === 0 && <p className="muted">No workflows in this session.</p>}
        {workflows.data !== undefined && workflows.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th>Workflow</th>
                <th>Description</th>
                <th>Version</th>
                <th>Nodes</th>
                <th>Edges</th>
                <th>Saved</th>
                <th>Always on</th>
              </tr>
            </thead>
            <tbody>
              {workflows.data.map((workflow) => (
                <tr key={workflow.workflowId}>
                  <td>
                    <Link
                      to={`/sessions/${segment(props.sessionId)}/workflows/${segment(workflow.workflowId)}`}
                    >
                      {workflow.workflowId}
                    </Link>
                  </td>
                  <td>{workflow.description}</td>
                  <td>{workflow.version}</td>
                  <td>{workflow.nodes}</td>
                  <td>{workflow.edges}</td>
                  <td>
                    <Time value={workflow.updatedAt} />
                  </td>
                  <td>
                    <AlwaysOnToggle
                      sessionId={sessionId}
                      workflowId={workflow.workflowId}
                      active={workflow.active}
                      onChange={() => {
                        workflows.reload();
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title="Pending approvals">
        <ErrorNote error={approvals.error} />
        {approvals.data?.length === 0 && <p className="muted">Nothing waits for an answer.</p>}
        {approvals.data !== undefined && approvals.data.length > 0 && (
          <ul>
            {approvals.data.map((approval) => (
              <li key={`${approval.executionId}:${approval.messageId}`}>
                <Link to={`/executions/${segment(approval.executionId)}`}>
                  {approval.executionId}
                </Link>{' '}
                · node <code>{approval.nodeId}</code>
                {approval.prompt !== null && ` · ${approval.prompt}`}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

/** docs/always-on.md: the state in words, and the button that changes it. */
function AlwaysOnToggle(props: {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly active: boolean;
  readonly onChange: () => void;
}) {
  const { sessionId, workflowId, active } = props;
  const action = useAction(props.onChange);
  const change = () => {
    action.run(() => {
      const path = { params: { path: { sessionId, workflowId } } };
      return call(
        active
          ? api.POST('/api/sessions/{sessionId}/workflows/{workflowId}/deactivate', path)
          : api.POST('/api/sessions/{sessionId}/workflows/{workflowId}/activate', path),
      );
    });
  };
  return (
    <>
      {active ? 'on' : 'off'}{' '}
      <button
        type="button"
        disabled={action.busy}
        aria-label={`${active ? 'Deactivate' : 'Activate'} ${workflowId}`}
        onClick={change}
      >
        {active ? 'Deactivate' : 'Activate'}
      </button>
      <ErrorNote error={action.error} />
    </>
  );
}
