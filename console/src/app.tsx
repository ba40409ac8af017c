/**
 * The console: reads who is signed in, then shows the sign-in page (401) or the app shell. Pages are
 * real paths under /console/ (the server answers index.html for each), switched without a reload.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, callApi, type SessionView } from './api-client';
import { AppShell } from './app-shell';
import { pageAt } from './pages';
import { InvitationSignIn } from './pages/invitation-sign-in';
import { INVITATION_PATH } from './pages/invitation-token';
import { SignInPage } from './sign-in-page';

type SessionState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'signed-out' }
  | { readonly kind: 'signed-in'; readonly session: SessionView }
  | { readonly kind: 'failed'; readonly message: string };

export function App() {
  const [state, setState] = useState<SessionState>({ kind: 'loading' });
  useEffect(() => {
    // The page's chunk loads while the session is read, not after it (one round trip less to the first paint).
    pageAt(location.pathname)
      ?.page.load()
      .catch(() => undefined);
    callApi<SessionView>('/console/auth/session').then(
      (session) => setState({ kind: 'signed-in', session }),
      (err: unknown) => setState(err instanceof ApiError && err.status === 401 ? { kind: 'signed-out' } : { kind: 'failed', message: (err as Error).message }),
    );
  }, []);
  switch (state.kind) {
    case 'loading':
      return (
        <main class="centred">
          <p role="status">Loading…</p>
        </main>
      );
    case 'signed-out':
      return location.pathname === INVITATION_PATH ? <InvitationSignIn /> : <SignInPage />;
    case 'failed':
      return (
        <main class="centred">
          <h1>The console is unavailable</h1>
          <p role="alert">{state.message}</p>
        </main>
      );
    case 'signed-in':
      return <AppShell session={state.session} onSignedOut={() => setState({ kind: 'signed-out' })} />;
  }
}
