// The editor's tool bar: undo and redo, copy and paste, layout, whether the draft is valid (in
// words, with an icon), the description, and saving: a new version with a note, then the
// layout; only the layout when the definition is what was saved.
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { api, call } from '../api';
import { ErrorNote } from '../components';
import { useAction } from '../hooks';
import { Link, segment } from '../router';
import { layoutOf, sameDefinition, samePositions } from './model';
import type { Draft } from './model';
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

/** What the server holds as far as the page knows: what was opened or last saved. */
interface Saved {
  readonly draft: Draft;
  /** Set once this page has saved: the current version, and whether the save made it. */
  readonly version?: number;
  /** What the last save wrote. */
  readonly wrote?: 'both' | 'layout' | 'version';
}

function savedText(saved: Saved): string {
  const { version, wrote } = saved;
  if (version === undefined || wrote === undefined) return '';
  switch (wrote) {
    case 'layout':
      return 'Saved the layout: the definition is unchanged, so no new version was made. ';
    case 'version':
      return `Saved version ${version}; its layout is not saved yet. `;
    case 'both':
      return `Saved version ${version} and its layout. `;
  }
}

export function SaveBar(props: {
  readonly sessionId: string;
  readonly draft: Draft;
  /** The draft as opened, with the places the first layout gave to nodes that had none. */
  readonly opened: Draft;
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
  const { sessionId, draft } = props;
  const { definition } = draft;
  const { workflowId } = definition;
  const [note, setNote] = useState('');
  const [saved, setSaved] = useState<Saved>();
  const held = saved ?? { draft: props.opened };
  const action = useAction();
  const definitionChanged =
    (props.isNew && saved === undefined) || !sameDefinition(held.draft.definition, definition);
  const layoutChanged = !samePositions(layoutOf(held.draft), layoutOf(draft));
  const save = (event: SubmitEvent) => {
    event.preventDefault();
    const positions = layoutOf(draft);
    const path = { sessionId, workflowId };
    // Moving nodes changes no definition, so it is no reason for a new version; a save with
    // nothing changed still makes one, for the note it may carry.
    const layoutOnly = !definitionChanged && layoutChanged;
    action.run(async () => {
      let version = held.version;
      if (!layoutOnly) {
        const answer = await call(
          api.PUT('/api/sessions/{sessionId}/workflows/{workflowId}', {
            params: { path, query: note.trim() === '' ? {} : { note: note.trim() } },
            body: definition,
          }),
        );
        version = answer.version;
        setNote('');
        // Held before the layout is written: should that fail, saving again writes only it.
        setSaved({
          draft: { definition, positions: held.draft.positions },
          version,
          wrote: 'version',
        });
      }
      const layout = await call(
        api.PUT('/api/sessions/{sessionId}/workflows/{workflowId}/layout', {
          params: { path },
          body: { positions },
        }),
      );
      setSaved({
        draft,
        version: version ?? layout.version,
        wrote: layoutOnly ? 'layout' : 'both',
      });
    });
  };
  const unsaved = definitionChanged || layoutChanged;
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
          {saved !== undefined && savedText(saved)}
          {unsaved && 'Unsaved changes.'}
        </span>
        {saved !== undefined && <Link to={workflowPath}>Open {workflowId} to run it</Link>}
      </form>
      <ErrorNote error={action.error} />
    </div>
  );
}
