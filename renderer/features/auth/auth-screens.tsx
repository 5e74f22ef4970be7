import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { describeError, fieldErrorMap } from '../../api/errors';
import { sessionDecoder } from '../../api/types';
import { describedBy, Field } from '../../components/field';
import { ErrorNotice } from '../../components/feedback';
import { useSession } from './session';

const PASSWORD_HINT = 'At least 8 characters, with a lowercase letter, an uppercase letter and a digit.';

/** Checks the password rule locally so the person hears about it before the server does. */
export function passwordProblem(password: string): string | null {
  if (password.length < 8) return 'The password needs at least 8 characters.';
  if (!/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/\d/.test(password)) return 'The password needs a lowercase letter, an uppercase letter and a digit.';
  return null;
}

function AuthFrame({ title, intro, children }: { readonly title: string; readonly intro: string; readonly children: ReactNode }) {
  return (
    <main className="auth-screen">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          <span className="brand-mark" /> Hearth
        </p>
        <h1>{title}</h1>
        <p className="auth-intro">{intro}</p>
        {children}
      </div>
    </main>
  );
}

/** First run: creates the owner account and signs in. */
export function SetupScreen() {
  const { client, signIn } = useSession();
  const [form, setForm] = useState({ firstname: '', lastname: '', email: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (e: ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = new Map<string, string>();
    if (!form.email.includes('@')) local.set('email', 'Enter an email address.');
    const problem = passwordProblem(form.password);
    if (problem) local.set('password', problem);
    if (form.password !== form.confirm) local.set('confirm', 'The passwords do not match.');
    setErrors(local);
    if (local.size > 0) return;
    setBusy(true);
    setError(null);
    try {
      const body = { email: form.email, password: form.password, firstname: form.firstname || undefined, lastname: form.lastname || undefined };
      signIn(sessionDecoder(await client.post('/admin/api/register-admin', body)));
    } catch (e) {
      setErrors(fieldErrorMap(e));
      setError(describeError(e));
      setBusy(false);
    }
  };

  return (
    <AuthFrame title="Welcome to Hearth" intro="Create the owner account for this Hearth. It stays on this computer.">
      <form onSubmit={submit} noValidate className="stack">
        <div className="row-2">
          <Field id="setup-first" label="First name">
            <input id="setup-first" autoComplete="given-name" value={form.firstname} onChange={set('firstname')} />
          </Field>
          <Field id="setup-last" label="Last name">
            <input id="setup-last" autoComplete="family-name" value={form.lastname} onChange={set('lastname')} />
          </Field>
        </div>
        <Field id="setup-email" label="Email" required error={errors.get('email')}>
          <input id="setup-email" type="email" autoComplete="email" required value={form.email} onChange={set('email')} aria-invalid={errors.has('email')} aria-describedby={describedBy('setup-email', null, errors.get('email'))} />
        </Field>
        <Field id="setup-password" label="Password" required hint={PASSWORD_HINT} error={errors.get('password')}>
          <input id="setup-password" type="password" autoComplete="new-password" required value={form.password} onChange={set('password')} aria-invalid={errors.has('password')} aria-describedby={describedBy('setup-password', PASSWORD_HINT, errors.get('password'))} />
        </Field>
        <Field id="setup-confirm" label="Confirm password" required error={errors.get('confirm')}>
          <input id="setup-confirm" type="password" autoComplete="new-password" required value={form.confirm} onChange={set('confirm')} aria-invalid={errors.has('confirm')} aria-describedby={describedBy('setup-confirm', null, errors.get('confirm'))} />
        </Field>
        {error ? <ErrorNotice message={error} /> : null}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
    </AuthFrame>
  );
}

/** Email and password login. */
export function LoginScreen({ notice }: { readonly notice?: string | undefined }) {
  const { client, signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signIn(sessionDecoder(await client.post('/admin/api/login', { email, password })));
    } catch (e) {
      const message = describeError(e);
      setError(message === 'Invalid credentials' ? 'That email and password do not match an account.' : message);
      setBusy(false);
    }
  };

  return (
    <AuthFrame title="Log in" intro="Sign in to manage this Hearth's content.">
      {notice ? (
        <p className="notice notice-info" role="status">
          {notice}
        </p>
      ) : null}
      <form onSubmit={submit} className="stack">
        <Field id="login-email" label="Email">
          <input id="login-email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id="login-password" label="Password">
          <input id="login-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        {error ? <ErrorNotice message={error} /> : null}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </AuthFrame>
  );
}

/** The server could not be reached or the desktop session failed. */
export function StartFailedScreen({ message, onRetry }: { readonly message: string; readonly onRetry: () => void }) {
  return (
    <AuthFrame title="Hearth could not start the session" intro="The admin screens need the Hearth server.">
      <ErrorNotice message={message} onRetry={onRetry} />
    </AuthFrame>
  );
}
