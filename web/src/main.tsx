import { render } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import './styles.css';
import { graphql } from './gql';
import { useQuery } from './hooks';
import { interceptLinks, navigate, useLocation } from './router';
import { followSessionAcrossTabs, loadSession, session, setPrivilegeMode, signOut } from './session';
import { useSignal } from './signal';
import { useState } from 'preact/hooks';
import { SignIn } from './pages/SignIn';
import { Find } from './pages/Find';
import { DatasetPage } from './pages/Dataset';
import { SamplePage } from './pages/Sample';
import { ProjectPage } from './pages/Project';
import { InstrumentPage } from './pages/Instrument';
import { DeletionRequests } from './pages/DeletionRequests';
import { ApiKeys } from './pages/ApiKeys';
import { PendingAccounts } from './pages/PendingAccounts';
import { focusMainHeading, useFocusOnNavigation } from './focus';
import { UNREACHABLE } from './network';
import { CreatePage, type CreateKind } from './pages/Create';
import { InstrumentsPage, ProjectsPage, SamplesPage } from './pages/RecordLists';
import { PageTitle } from './components/PageTitle';
import { askGraphEarly } from './pages/graph-data';

// the graph drawing (cytoscape) loads only when a graph is opened: it is not initial JavaScript
// (its data is asked for meanwhile: askGraphEarly)
const GraphPage = lazy(() =>
  import('./pages/Graph').then(
    (m) => ({ default: m.GraphPage }),
    // the service went away since the page loaded: say so rather than draw nothing
    () => ({ default: () => <p role="alert">{UNREACHABLE}</p> }),
  ),
);

// the publication pages carry the service's own metadata rules and the SPDX list: loaded when opened
const failed = () => ({ default: () => <p role="alert">{UNREACHABLE}</p> });
const NewPublicationPage = lazy(() =>
  import('./pages/Publish').then((m) => ({ default: m.NewPublicationPage }), failed),
);
const EditPublicationPage = lazy(() =>
  import('./pages/Publish').then((m) => ({ default: m.EditPublicationPage }), failed),
);
const PublicationManagePage = lazy(() =>
  import('./pages/Publication').then((m) => ({ default: m.PublicationManagePage }), failed),
);
const PublicationsPage = lazy(() =>
  import('./pages/Publication').then((m) => ({ default: m.PublicationsPage }), failed),
);

const Me = graphql(`
  query Me {
    me {
      isPlatformAdmin
      user {
        uniqueId
        username
        firstName
        lastName
      }
    }
  }
`);

function Routes({ isAdmin }: { isAdmin: boolean }) {
  const { path, query } = useLocation();
  useFocusOnNavigation(path);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const [kind, id, sub] = parts;
  if (parts.length === 0 || (kind === 'datasets' && !id)) return <Find />;
  if (kind === 'datasets' && id) return <DatasetPage id={id} />;
  if (kind === 'samples' && !id) return <SamplesPage />;
  if (kind === 'projects' && !id) return <ProjectsPage />;
  if (kind === 'instruments' && !id) return <InstrumentsPage />;
  if (kind === 'new' && id && ['project', 'instrument', 'sample', 'dataset'].includes(id) && !sub)
    return <CreatePage key={id} kind={id as CreateKind} project={query.get('project')} />;
  if (kind === 'samples' && id) return <SamplePage id={id} />;
  if (kind === 'projects' && id && sub === 'graph') {
    askGraphEarly(undefined, id);
    return (
      <Suspense fallback={<p role="status">Loading the graph…</p>}>
        <GraphPage key={`p:${id}`} project={id} />
      </Suspense>
    );
  }
  if (kind === 'projects' && id) return <ProjectPage id={id} />;
  if (kind === 'instruments' && id) return <InstrumentPage id={id} />;
  if (kind === 'graph' && id) {
    askGraphEarly(id, undefined);
    return (
      <Suspense fallback={<p role="status">Loading the graph…</p>}>
        <GraphPage key={id} root={id} />
      </Suspense>
    );
  }
  if (kind === 'publish' || (kind === 'publications' && !id)) {
    const loading = <p role="status">Loading…</p>;
    const datasets = (query.get('datasets') ?? '').split(',').filter(Boolean);
    if (kind === 'publications') return <Suspense fallback={loading}>{<PublicationsPage />}</Suspense>;
    if (!id)
      return (
        <Suspense fallback={loading}>
          {<NewPublicationPage key={datasets.join(',')} datasets={datasets} />}
        </Suspense>
      );
    if (!sub) return <Suspense fallback={loading}>{<PublicationManagePage key={id} id={id} />}</Suspense>;
    if (sub === 'edit')
      return <Suspense fallback={loading}>{<EditPublicationPage key={id} id={id} />}</Suspense>;
  }
  if (kind === 'deletion-requests') return <DeletionRequests isAdmin={isAdmin} />;
  if (kind === 'pending-accounts' && !id) return <PendingAccounts isAdmin={isAdmin} />;
  if (kind === 'keys' && !id) return <ApiKeys />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no page at <code>{path}</code>. <a href="/">Find datasets</a>
      </p>
    </section>
  );
}

/**
 * The privilege mode, always in view for those who may elevate: a badge (Member view or
 * Administrator) and the button that switches it. The mode is the session's, so the whole page
 * is drawn again (and asks again) after a switch.
 */
function ModeSwitch() {
  const current = useSignal(session);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!current?.can_elevate) return null;
  const elevated = current.privilege_mode === 'elevated';
  const toggle = () => {
    setPending(true);
    setError(null);
    setPrivilegeMode(elevated ? 'normal' : 'elevated').then(
      () => setPending(false),
      (e: unknown) => {
        setPending(false);
        setError(e instanceof Error ? e.message : String(e));
      },
    );
  };
  return (
    <span class="mode">
      <span class={`mode-badge ${elevated ? 'elevated' : 'normal'}`} data-testid="privilege-mode">
        {elevated ? 'Administrator' : 'Member view'}
      </span>
      <button type="button" disabled={pending} onClick={toggle}>
        {elevated ? 'Return to member view' : 'Elevate to administrator'}
      </button>
      {error && (
        <span role="alert" class="error">
          {error}
        </span>
      )}
    </span>
  );
}

function Shell() {
  const me = useQuery(Me, {});
  const user = me.data?.me.user;
  const name = user
    ? [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username || user.uniqueId
    : '';
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          focusMainHeading();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          Data catalog
        </a>
        <nav aria-label="Main">
          <a href="/">Datasets</a>
          <a href="/samples">Samples</a>
          <a href="/projects">Projects</a>
          <a href="/instruments">Instruments</a>
          <a href="/publications">Publications</a>
          <a href="/new/dataset">New dataset</a>
          <a href="/keys">API keys</a>
          {me.data?.me.isPlatformAdmin && (
            <>
              <a href="/deletion-requests">Deletion requests</a>
              <a href="/pending-accounts">Pending accounts</a>
            </>
          )}
        </nav>
        <ModeSwitch />
        <span class="who">
          {name && (
            <>
              Signed in as <strong>{name}</strong>
            </>
          )}
        </span>
        <button
          type="button"
          onClick={() => {
            void signOut().then(() => {
              navigate('/');
            });
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {me.error ? (
          <p role="alert">{me.error}</p>
        ) : (
          <Routes isAdmin={me.data?.me.isPlatformAdmin ?? false} />
        )}
      </main>
      <PageTitle />
      <footer class="foot">
        <a href="/api/v3/docs">API documentation</a> · <a href="/graphql">GraphQL explorer</a>
      </footer>
    </>
  );
}

function App() {
  const current = useSignal(session);
  if (current === undefined) return <p role="status">Loading…</p>;
  // a new session or a switched mode draws the page anew: everything shown is asked again
  return current.signed_in && current.session_id ? (
    <Shell key={`${current.session_id}:${current.privilege_mode ?? 'normal'}`} />
  ) : (
    <SignIn />
  );
}

document.addEventListener('click', interceptLinks);
const root = document.getElementById('app');
if (!root) throw new Error('index.html has no #app element');
render(<App />, root);
void loadSession();
followSessionAcrossTabs();
