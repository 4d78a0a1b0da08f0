// The editor's tool bar: undo and redo, copy and paste, layout, whether the draft is valid (in
// words, with an icon), the description, and saving a new version with a note.
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { api, call } from '../api';
import { ErrorNote } from '../components';
import { useAction } from '../hooks';
import { Link, segment } from '../router';
import type { WorkflowDefinition } from '../types';
import type { Problems } from './validation';

function Verdict(props: { readonly problems: Problems }) {
  const { problems } = props;
  const count =
    [...problems.byNode.values(), ...problems.byEdge.values()].reduce(
      (sum, list) => sum + list.length,
      0,
    ) + problems.general.length;
  let text: string;
  if (problems.checking) text = '… checking';
  else if (problems.valid === true) text = '✓ valid';
  else text = `⚠ ${count === 1 ? '1 problem' : `${count} problems`}`;
  return (
    <span
      className={`verdict${problems.valid === false ? ' invalid' : ''}`}
      role="status"
      aria-label="Validation"
    >
      {text}
    </span>
  );
}

export function SaveBar(props: {
  readonly sessionId: string;
  readonly definition: WorkflowDefinition;
  readonly isNew: boolean;
  readonly problems: Problems;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly canCopy: boolean;
  readonly canPaste: boolean;
  readonly onUndo: () => void;
  readonly onRedo: () => void;
  readonly onCopy: () => void;
  readonly onPaste: () => void;
  readonly onArrange: () => void;
  readonly onDescription: (description: string) => void;
}) {
  const { sessionId, definition } = props;
  const { workflowId } = definition;
  const [note, setNote] = useState('');
  const [saved, setSaved] = useState<{ version: number; definition: WorkflowDefinition }>();
  const action = useAction();
  const save = (event: SubmitEvent) => {
    event.preventDefault();
    action.run(async () => {
      const answer = await call(
        api.PUT('/api/sessions/{sessionId}/workflows/{workflowId}', {
          params: {
            path: { sessionId, workflowId },
            query: note.trim() === '' ? {} : { note: note.trim() },
          },
          body: definition,
        }),
      );
      setSaved({ version: answer.version, definition });
      setNote('');
    });
  };
  const unsaved = saved === undefined ? props.isNew || undefined : saved.definition !== definition;
  const tools: readonly (readonly [string, boolean, () => void])[] = [
    ['Undo', props.canUndo, props.onUndo],
    ['Redo', props.canRedo, props.onRedo],
    ['Copy', props.canCopy, props.onCopy],
    ['Paste', props.canPaste, props.onPaste],
    ['Arrange', true, props.onArrange],
  ];
  const workflowPath = `/sessions/${segment(sessionId)}/workflows/${segment(workflowId)}`;
  return (
    <div className="save-bar">
      <div className="tools" role="toolbar" aria-label="Editing">
        {tools.map(([label, enabled, act]) => (
          <button key={label} type="button" disabled={!enabled} onClick={act}>
            {label}
          </button>
        ))}
        <Verdict problems={props.problems} />
      </div>
      <form className="save" onSubmit={save}>
        <label>
          Description{' '}
          <input
            type="text"
            value={definition.description}
            onChange={(event) => {
              props.onDescription(event.target.value);
            }}
          />
        </label>
        <label>
          Version note{' '}
          <input
            type="text"
            maxLength={1024}
            value={note}
            onChange={(event) => {
              setNote(event.target.value);
            }}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Save version
        </button>
        <span role="status" aria-label="Save status">
          {saved !== undefined && `Saved version ${saved.version}. `}
          {unsaved === true && 'Unsaved changes.'}
        </span>
        {saved !== undefined && <Link to={workflowPath}>Open {workflowId} to run it</Link>}
      </form>
      <ErrorNote error={action.error} />
    </div>
  );
}
