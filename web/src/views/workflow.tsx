// One workflow: its graph, its saved versions, a start with a JSON payload, its recent runs.
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { api, call } from '../api';
import { ErrorNote, Json, Section } from '../components';
import { GraphView } from '../graph';
import { useAction, useRead } from '../hooks';
import { Link, navigate, segment } from '../router';
import { ExecutionTable } from './executions';
import { VersionTable } from './version-table';

export function WorkflowView(props: { readonly sessionId: string; readonly workflowId: string }) {
  const { sessionId, workflowId } = props;
  const workflow = { params: { path: { sessionId, workflowId } } };
  const graph = useRead(`graph ${sessionId}/${workflowId}`, () =>
    call(api.GET('/api/sessions/{sessionId}/workflows/{workflowId}/graph', workflow)),
  );
  const recent = useRead(`recent ${sessionId}/${workflowId}`, () =>
    call(api.GET('/api/executions', { params: { query: { sessionId, workflowId, limit: 10 } } })),
  );
  return (
    <>
      <Section
        title={`Workflow ${workflowId}`}
        aside={
          <>
            {graph.data !== undefined && `version ${graph.data.version} · `}
            <Link to={`/sessions/${segment(sessionId)}/workflows/${segment(workflowId)}/edit`}>
              Edit {workflowId}
            </Link>{' '}
            ·{' '}
            <Link to={`/sessions/${segment(sessionId)}/workflows/${segment(workflowId)}/versions`}>
              Compare versions
            </Link>
          </>
        }
      >
        <ErrorNote error={graph.error} />
        {graph.data !== undefined && <GraphView graph={graph.data} />}
      </Section>
      <StartForm sessionId={sessionId} workflowId={workflowId} />
      <Section title="Recent executions">
        <ErrorNote error={recent.error} />
        {recent.data !== undefined && <ExecutionTable items={recent.data.items} />}
      </Section>
      <Versions sessionId={sessionId} workflowId={workflowId} />
    </>
  );
}

function StartForm(props: { readonly sessionId: string; readonly workflowId: string }) {
  const [payload, setPayload] = useState('{}');
  const [priority, setPriority] = useState('');
  const action = useAction();
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    action.run(async () => {
      let parsed: unknown;
      try {
        parsed = payload.trim() === '' ? undefined : JSON.parse(payload);
      } catch (error) {
        throw new Error(
          `The payload is not JSON: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      const started = await call(
        api.POST('/api/workflow/{sessionId}/start', {
          params: { path: { sessionId: props.sessionId } },
          body: {
            workflowId: props.workflowId,
            ...(parsed === undefined ? {} : { payload: parsed }),
            ...(priority.trim() === '' ? {} : { priority: Number(priority) }),
          },
        }),
      );
      navigate(`/executions/${segment(started.executionId)}`);
    });
  };
  return (
    <Section title="Start an execution">
      <form className="start" onSubmit={submit}>
        <label>
          Payload (JSON)
          <textarea
            rows={5}
            spellCheck={false}
            value={payload}
            onChange={(event) => {
              setPayload(event.target.value);
            }}
          />
        </label>
        <label>
          Priority
          <input
            inputMode="numeric"
            value={priority}
            placeholder="default"
            onChange={(event) => {
              setPriority(event.target.value);
            }}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Start
        </button>
      </form>
      <ErrorNote error={action.error} />
    </Section>
  );
}

function Versions(props: { readonly sessionId: string; readonly workflowId: string }) {
  const { sessionId, workflowId } = props;
  const versions = useRead(`versions ${sessionId}/${workflowId}`, () =>
    call(
      api.GET('/api/sessions/{sessionId}/workflows/{workflowId}/versions', {
        params: { path: { sessionId, workflowId } },
      }),
    ),
  );
  const [shown, setShown] = useState<number | null>(null);
  const definition = useRead(
    shown === null ? null : `version ${sessionId}/${workflowId}/${String(shown)}`,
    () =>
      call(
        api.GET('/api/sessions/{sessionId}/workflows/{workflowId}/versions/{version}', {
          params: { path: { sessionId, workflowId, version: String(shown) } },
        }),
      ),
  );
  return (
    <Section title="Versions">
      <ErrorNote error={versions.error} />
      {versions.data !== undefined && (
        <VersionTable
          versions={versions.data}
          extra={{
            header: 'Definition',
            cell: (version) => (
              <button
                type="button"
                onClick={() => {
                  setShown(shown === version.version ? null : version.version);
                }}
              >
                {shown === version.version ? 'Hide' : 'Show'}
              </button>
            ),
          }}
        />
      )}
      <ErrorNote error={definition.error} />
      {shown !== null && definition.data !== undefined && <Json value={definition.data} />}
    </Section>
  );
}
