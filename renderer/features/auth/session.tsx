import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createClient, type ApiClient } from '../../api/client';
import { dataOf } from '../../api/decode';
import { desktopBridge } from '../../api/desktop';
import { describeError } from '../../api/errors';
import { initDecoder, sessionDecoder, userDecoder, type SessionAnswer, type User } from '../../api/types';

const STORAGE_KEY = 'hearth.session';

/** Where the app stands with its admin session. */
export type SessionState =
  | { readonly phase: 'starting' }
  | { readonly phase: 'setup' }
  | { readonly phase: 'login'; readonly notice?: string }
  | { readonly phase: 'failed'; readonly message: string }
  | { readonly phase: 'ready'; readonly user: User; readonly desktop: boolean };

/** The session, its client, and the ways to enter and leave it. */
export interface Session {
  readonly state: SessionState;
  readonly client: ApiClient;
  signIn(answer: SessionAnswer): void;
  /** Shows the signed-in admin's changed profile (name, email) everywhere at once. */
  updateUser(user: User): void;
  signOut(): Promise<void>;
  retry(): void;
}

const SessionContext = createContext<Session | null>(null);

function storedToken(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeToken(token: string | null): void {
  try {
    if (token) window.sessionStorage.setItem(STORAGE_KEY, token);
    else window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be unavailable (privacy settings): the session then lasts until reload.
  }
}

/** Starts the session: the desktop's per-launch secret, else a stored session, else login or first-run setup. */
export function SessionProvider({ children }: { readonly children: ReactNode }) {
  const token = useRef<string | null>(storedToken());
  const [state, setState] = useState<SessionState>({ phase: 'starting' });
  const [attempt, setAttempt] = useState(0);
  const client = useMemo(
    () =>
      createClient({
        getToken: () => token.current,
        onUnauthorized: () => {
          token.current = null;
          storeToken(null);
          setState({ phase: 'login', notice: 'Your session has ended. Please log in again.' });
        },
      }),
    [],
  );

  const signIn = useCallback((answer: SessionAnswer) => {
    token.current = answer.token;
    storeToken(answer.token);
    setState({ phase: 'ready', user: answer.user, desktop: desktopBridge() !== null });
  }, []);

  useEffect(() => {
    let live = true;
    const settle = (next: SessionState) => live && setState(next);
    const start = async () => {
      const bridge = desktopBridge();
      if (bridge) {
        const secret = await bridge.getLaunchSecret();
        const answer = sessionDecoder(await client.post('/admin/api/desktop-session', { secret }));
        if (live) signIn(answer);
        return;
      }
      if (token.current) {
        try {
          const user = dataOf(userDecoder)(await client.get('/admin/api/users/me'));
          settle({ phase: 'ready', user, desktop: false });
          return;
        } catch {
          token.current = null;
          storeToken(null);
        }
      }
      const init = initDecoder(await client.get('/admin/api/init'));
      settle(init.hasAdmin ? { phase: 'login' } : { phase: 'setup' });
    };
    start().catch((error: unknown) => settle({ phase: 'failed', message: describeError(error) }));
    return () => {
      live = false;
    };
  }, [client, signIn, attempt]);

  const signOut = useCallback(async () => {
    try {
      await client.post('/admin/api/logout');
    } finally {
      token.current = null;
      storeToken(null);
      setState({ phase: 'login', notice: 'You have logged out.' });
    }
  }, [client]);

  const retry = useCallback(() => {
    setState({ phase: 'starting' });
    setAttempt((a) => a + 1);
  }, []);

  const updateUser = useCallback((user: User) => setState((s) => (s.phase === 'ready' ? { ...s, user } : s)), []);

  const value = useMemo(() => ({ state, client, signIn, updateUser, signOut, retry }), [state, client, signIn, updateUser, signOut, retry]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The current session (inside SessionProvider). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside SessionProvider');
  return session;
}

/** The API client of the current session. */
export function useClient(): ApiClient {
  return useSession().client;
}
