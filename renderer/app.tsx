import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { Loading, EmptyState } from './components/feedback';
import { Layout } from './components/layout';
import { ToastProvider } from './components/toast';
import { LoginScreen, SetupScreen, StartFailedScreen } from './features/auth/auth-screens';
import { SessionProvider, useSession } from './features/auth/session';
import { BuilderHome } from './features/content-types/builder-home';
import { ComponentEditor } from './features/content-types/component-editor';
import { TypeEditor } from './features/content-types/type-editor';
import { SchemasProvider } from './features/content-types/schemas-context';
import { ContentHome } from './features/content/content-home';
import { ContentList } from './features/content/content-list';
import { EditScreen } from './features/content/edit-screen';
import { MediaLibrary } from './features/media/media-library';
import { SettingsScreen } from './features/settings/settings-screen';
import { TokenEditor } from './features/tokens/token-editor';
import { TokensScreen } from './features/tokens/tokens-screen';

function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/content" replace />} />
      <Route path="/content" element={<ContentHome />} />
      <Route path="/content/:uid" element={<ContentList />} />
      <Route path="/content/:uid/new" element={<EditScreen />} />
      <Route path="/content/:uid/:documentId" element={<EditScreen />} />
      <Route path="/builder" element={<BuilderHome />} />
      <Route path="/builder/types/new" element={<TypeEditor />} />
      <Route path="/builder/types/:uid" element={<TypeEditor />} />
      <Route path="/builder/components/new" element={<ComponentEditor />} />
      <Route path="/builder/components/:uid" element={<ComponentEditor />} />
      <Route path="/media" element={<MediaLibrary />} />
      <Route path="/tokens" element={<TokensScreen />} />
      <Route path="/tokens/new" element={<TokenEditor />} />
      <Route path="/tokens/:id" element={<TokenEditor />} />
      <Route path="/settings" element={<SettingsScreen />} />
      <Route path="*" element={<EmptyState title="Page not found">This address does not lead to a screen of Hearth.</EmptyState>} />
    </Routes>
  );
}

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
        <SchemasProvider>
          <Layout user={state.user} desktop={state.desktop} onLogout={() => void signOut()}>
            <AppRoutes />
          </Layout>
        </SchemasProvider>
      );
  }
}

/** The admin app: session gate, then the screens under /admin. */
export function App() {
  return (
    <BrowserRouter basename="/admin">
      <ToastProvider>
        <SessionProvider>
          <Gate />
        </SessionProvider>
      </ToastProvider>
    </BrowserRouter>
  );
}
