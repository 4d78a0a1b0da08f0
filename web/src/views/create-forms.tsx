// Forms that make something new: a session (POST /api/sessions), and a workflow, which opens
// the editor on an empty canvas (its first save creates it).
import { useId, useState } from 'react';
import type { SubmitEvent } from 'react';
import { api, call } from '../api';
import { ErrorNote } from '../components';
import { useAction } from '../hooks';
import { navigate, segment } from '../router';

export function NewSessionForm() {
  const id = useId();
  const [fields, setFields] = useState({ sessionId: '', name: '', initiator: '' });
  const action = useAction();
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    action.run(async () => {
      const { sessionId, name, initiator } = fields;
      const session = await call(
        api.POST('/api/sessions', {
          body: { name, initiator, ...(sessionId.trim() === '' ? {} : { sessionId }) },
        }),
      );
      navigate(`/sessions/${segment(session.sessionId)}`);
    });
  };
  const field = (key: keyof typeof fields, label: string) => (
    <>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type="text"
        value={fields[key]}
        onChange={(event) => {
          setFields({ ...fields, [key]: event.target.value });
        }}
      />
    </>
  );
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New session">
      {field('sessionId', 'Session id (optional)')}
      {field('name', 'Name')}
      {field('initiator', 'Initiator')}
      <button type="submit" disabled={action.busy}>
        Create session
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

export function NewWorkflowForm(props: { readonly sessionId: string }) {
  const id = useId();
  const [workflowId, setWorkflowId] = useState('');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (workflowId.trim() === '') return;
    navigate(`/sessions/${segment(props.sessionId)}/workflows/${segment(workflowId.trim())}/edit`);
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New workflow">
      <label htmlFor={id}>New workflow id</label>
      <input
        id={id}
        type="text"
        value={workflowId}
        onChange={(event) => {
          setWorkflowId(event.target.value);
        }}
      />
      <button type="submit" disabled={workflowId.trim() === ''}>
        New workflow
      </button>
    </form>
  );
}
