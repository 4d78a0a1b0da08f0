// The operator UI: the key field, navigation, and the view the address names.
import { Suspense, lazy, useState } from 'react';
import { KeyField } from './components';
import { KeyVersion } from './hooks';
import { Link, matchRoute, useLocation } from './router';
import type { Route } from './router';
import { AuditView } from './views/audit';
import { DeadLettersView } from './views/dead-letters';
import { ExecutionView } from './views/execution';
import { ExecutionsView } from './views/executions';
import { QueueView } from './views/queue';
import { SessionDetailView, SessionsView } from './views/sessions';
import { WorkflowView } from './views/workflow';

// The editor and its graph libraries load only when an editor page is opened.
const EditorView = lazy(async () => ({ default: (await import('./views/editor')).EditorView }));
const VersionsView = lazy(async () => ({
  default: (await import('./views/versions')).VersionsView,
}));

function View(props: { readonly route: Route }) {
  const { route } = props;
  switch (route.view) {
    case 'sessions':
      return <SessionsView />;
    case 'session':
      return <SessionDetailView key={route.sessionId} sessionId={route.sessionId} />;
    case 'workflow':
      return (
        <WorkflowView
          key={`${route.sessionId}/${route.workflowId}`}
          sessionId={route.sessionId}
          workflowId={route.workflowId}
        />
      );
    case 'editor':
      return (
        <Suspense fallback={<p className="muted">Loading the editor…</p>}>
          <EditorView
            key={`${route.sessionId}/${route.workflowId}`}
            sessionId={route.sessionId}
            workflowId={route.workflowId}
          />
        </Suspense>
      );
    case 'versions':
      return (
        <Suspense fallback={<p className="muted">Loading the versions…</p>}>
          <VersionsView
            key={`${route.sessionId}/${route.workflowId}`}
            sessionId={route.sessionId}
            workflowId={route.workflowId}
          />
        </Suspense>
      );
    case 'executions':
      return <ExecutionsView />;
    case 'execution':
      return <ExecutionView key={route.executionId} executionId={route.executionId} />;
    case 'dead-letters':
      return <DeadLettersView />;
    case 'queue':
      return <QueueView />;
    case 'audit':
      return <AuditView />;
    case 'not-found':
      return (
        <section>
          <h2>Not found</h2>
          <p>
            Nothing is shown at <code>{route.path}</code>. <Link to="/">Go to the sessions</Link>.
          </p>
        </section>
      );
  }
}

export function App() {
  const [keyVersion, setKeyVersion] = useState(0);
  const location = useLocation();
  return (
    <KeyVersion.Provider value={keyVersion}>
      <header>
        <h1>
          <Link to="/">Workflow Execution Service</Link>
        </h1>
        <nav>
          <Link to="/">Sessions</Link>
          <Link to="/executions">Executions</Link>
          <Link to="/queue">Queue</Link>
          <Link to="/dead-letters">Dead letters</Link>
          <Link to="/audit">Audit</Link>
        </nav>
        <KeyField
          onChange={() => {
            setKeyVersion((value) => value + 1);
          }}
        />
      </header>
      <main>
        <View route={matchRoute(location.pathname)} />
      </main>
    </KeyVersion.Provider>
  );
}
