// The editor page of a workflow (`/sessions/{sid}/workflows/{wid}/edit`): a workflow the
// session does not have yet starts as an empty canvas, and its first save creates it.
import '@xyflow/react/dist/style.css';
import '../editor/editor.css';
import { ApiError, api, call } from '../api';
import { ErrorNote, Section } from '../components';
import { Editor } from '../editor/editor';
import { emptyDraft } from '../editor/model';
import { useRead } from '../hooks';
import { Link, segment } from '../router';

export function EditorView(props: { readonly sessionId: string; readonly workflowId: string }) {
  const { sessionId, workflowId } = props;
  const plugins = useRead('plugins', () => call(api.GET('/api/plugins')));
  const saved = useRead(`definition ${sessionId}/${workflowId}`, async () => {
    try {
      return await call(
        api.GET('/api/sessions/{sessionId}/workflows/{workflowId}', {
          params: { path: { sessionId, workflowId } },
        }),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  });
  // Where the nodes were left; a workflow without a saved layout (or not saved yet) has none.
  const layout = useRead(`layout ${sessionId}/${workflowId}`, async () => {
    try {
      const answer = await call(
        api.GET('/api/sessions/{sessionId}/workflows/{workflowId}/layout', {
          params: { path: { sessionId, workflowId } },
        }),
      );
      return answer.positions;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return {};
      throw error;
    }
  });
  const title = `Edit ${workflowId}`;
  const ready = plugins.data !== undefined && saved.data !== undefined && layout.data !== undefined;
  return (
    <Section
      title={title}
      aside={
        <Link to={`/sessions/${segment(sessionId)}/workflows/${segment(workflowId)}`}>
          back to {workflowId}
        </Link>
      }
    >
      <ErrorNote error={plugins.error ?? saved.error ?? layout.error} />
      {ready && saved.data === null && (
        <p className="muted">A new workflow: its first save creates it in session {sessionId}.</p>
      )}
      {ready && (
        <Editor
          sessionId={sessionId}
          plugins={plugins.data}
          isNew={saved.data === null}
          initial={
            saved.data === null
              ? emptyDraft(workflowId)
              : { definition: saved.data, positions: layout.data }
          }
        />
      )}
    </Section>
  );
}
