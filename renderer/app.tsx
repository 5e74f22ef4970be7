import { createBrowserRouter, Navigate, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { Loading, EmptyState } from './components/feedback';
import { Layout } from './components/layout';
import { ToastProvider } from './components/toast';
import { LoginScreen, SetupScreen, StartFailedScreen } from './features/auth/auth-screens';
import { SessionProvider, useSession } from './features/auth/session';
import { BuilderHome } from './features/content-types/builder-home';
import { ComponentEditor } from './features/content-types/component-editor';
import { TypeEditor } from './features/content-types/type-editor';
import { SchemasProvider } from './features/content-types/schemas-context';
import { LiveEventsProvider } from './features/live/live-events';
import { ContentHome } from './features/content/content-home';
import { ContentList } from './features/content/content-list';
import { EditScreen } from './features/content/edit-screen';
import { MediaLibrary } from './features/media/media-library';
import { SettingsScreen } from './features/settings/settings-screen';
import { AssistantScreen } from './features/assistant/assistant-screen';
import { PlaygroundScreen } from './features/playground/playground-screen';
import { TokenEditor } from './features/tokens/token-editor';
import { TokensScreen } from './features/tokens/tokens-screen';
import { ProfileScreen } from './features/profile/profile-screen';
import { RoleEditor } from './features/users/role-editor';
import { RolesScreen } from './features/users/roles-screen';
import { UsersScreen } from './features/users/users-screen';
import { UsersSettingsScreen } from './features/users/users-settings-screen';
import { WebhookEditor } from './features/webhooks/webhook-editor';
import { WebhooksScreen } from './features/webhooks/webhooks-screen';

/** The screens under /admin, children of the session gate (a data router, so screens can block leaving). */
const SCREENS: RouteObject[] = [
  { index: true, element: <Navigate to="/content" replace /> },
  { path: 'content', element: <ContentHome /> },
  { path: 'content/:uid', element: <ContentList /> },
  { path: 'content/:uid/new', element: <EditScreen /> },
  { path: 'content/:uid/:documentId', element: <EditScreen /> },
  { path: 'builder', element: <BuilderHome /> },
  { path: 'builder/types/new', element: <TypeEditor /> },
  { path: 'builder/types/:uid', element: <TypeEditor /> },
  { path: 'builder/components/new', element: <ComponentEditor /> },
  { path: 'builder/components/:uid', element: <ComponentEditor /> },
  { path: 'media', element: <MediaLibrary /> },
  { path: 'tokens', element: <TokensScreen /> },
  { path: 'tokens/new', element: <TokenEditor /> },
  { path: 'tokens/:id', element: <TokenEditor /> },
  { path: 'users', element: <UsersScreen /> },
  { path: 'users/roles', element: <RolesScreen /> },
  { path: 'users/roles/new', element: <RoleEditor /> },
  { path: 'users/roles/:id', element: <RoleEditor /> },
  { path: 'users/settings', element: <UsersSettingsScreen /> },
  { path: 'playground', element: <PlaygroundScreen /> },
  { path: 'settings', element: <SettingsScreen /> },
  { path: 'settings/ai-assistant', element: <AssistantScreen /> },
  { path: 'settings/webhooks', element: <WebhooksScreen /> },
  { path: 'settings/webhooks/new', element: <WebhookEditor /> },
  { path: 'settings/webhooks/:id', element: <WebhookEditor /> },
  { path: 'profile', element: <ProfileScreen /> },
  { path: '*', element: <EmptyState title="Page not found">This address does not lead to a screen of Hearth.</EmptyState> },
];

function Gate() {
  const { state, signOut, retry } = useSession();
  switch (state.phase) {
    case 'starting':
      return (
        <main className="auth-screen">
          <Loading label="Starting Hearth…" />
        </main>
      );
    case 'setup':
      return <SetupScreen />;
    case 'login':
      return <LoginScreen notice={state.notice} />;
    case 'failed':
      return <StartFailedScreen message={state.message} onRetry={retry} />;
    case 'ready':
      return (
        <LiveEventsProvider>
          <SchemasProvider>
            <Layout user={state.user} desktop={state.desktop} onLogout={() => void signOut()}>
              <Outlet />
            </Layout>
          </SchemasProvider>
        </LiveEventsProvider>
      );
  }
}

/** The app's shell around every screen: notifications, the session, then the gate. */
function Shell() {
  return (
    <ToastProvider>
      <SessionProvider>
        <Gate />
      </SessionProvider>
    </ToastProvider>
  );
}

/** Creates the admin app's router: every screen under /admin, behind the session gate. */
export function createAdminRouter() {
  return createBrowserRouter([{ path: '/', element: <Shell />, children: SCREENS }], { basename: '/admin' });
}

/** The admin app: session gate, then the screens under /admin. */
export function App({ router }: { readonly router: ReturnType<typeof createAdminRouter> }) {
  return <RouterProvider router={router} />;
}
