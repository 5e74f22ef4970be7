import { useState, type FormEvent } from 'react';
import { dataOf } from '../../api/decode';
import { describeError, fieldErrorMap } from '../../api/errors';
import { userDecoder, type User } from '../../api/types';
import { ErrorNotice, PageHeader } from '../../components/feedback';
import { Field, describedBy } from '../../components/field';
import { useToast } from '../../components/toast';
import { useAction } from '../../components/use-action';
import { useSession } from '../auth/session';

/** One form's state: busy while it saves, and the last refusal. */
function useSubmit(run: () => Promise<void>) {
  const { busy, error, run: runAction } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    return runAction(run);
  };
  return { busy, error, fields: fieldErrorMap(error), submit };
}

/** The signed-in admin's name and email. */
function DetailsForm({ user }: { readonly user: User }) {
  const { client, updateUser } = useSession();
  const { notify } = useToast();
  const [firstname, setFirstname] = useState(user.firstname ?? '');
  const [lastname, setLastname] = useState(user.lastname ?? '');
  const [email, setEmail] = useState(user.email);
  const form = useSubmit(async () => {
    const answer = dataOf(userDecoder)(await client.put('/admin/api/users/me', { firstname: firstname || null, lastname: lastname || null, email }));
    updateUser(answer);
    notify('Profile saved');
  });
  const dirty = firstname !== (user.firstname ?? '') || lastname !== (user.lastname ?? '') || email !== user.email;
  return (
    <form className="card stack" aria-labelledby="profile-details-heading" onSubmit={(e) => void form.submit(e)}>
      <h2 id="profile-details-heading">Your details</h2>
      <Field id="profile-firstname" label="First name" error={form.fields.get('firstname')}>
        <input id="profile-firstname" autoComplete="given-name" value={firstname} onChange={(e) => setFirstname(e.target.value)} />
      </Field>
      <Field id="profile-lastname" label="Last name" error={form.fields.get('lastname')}>
        <input id="profile-lastname" autoComplete="family-name" value={lastname} onChange={(e) => setLastname(e.target.value)} />
      </Field>
      <Field id="profile-email" label="Email" required error={form.fields.get('email')}>
        <input
          id="profile-email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={form.fields.has('email')}
          aria-describedby={describedBy('profile-email', false, form.fields.get('email'))}
        />
      </Field>
      {form.error && form.fields.size === 0 ? <ErrorNotice message={describeError(form.error)} /> : null}
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={form.busy || !dirty}>
          {form.busy ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  );
}

/** A new password for the signed-in admin; the current one is asked for, and other sessions end. */
function PasswordForm() {
  const { client, updateUser } = useSession();
  const { notify } = useToast();
  const [currentPassword, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const form = useSubmit(async () => {
    if (password !== confirmation) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    const answer = dataOf(userDecoder)(await client.put('/admin/api/users/me', { currentPassword, password }));
    updateUser(answer);
    setCurrent('');
    setPassword('');
    setConfirmation('');
    notify('Password changed; your other sessions were signed out');
  });
  const confirmError = mismatch ? 'The two passwords differ' : undefined;
  return (
    <form className="card stack" aria-labelledby="profile-password-heading" onSubmit={(e) => void form.submit(e)}>
      <h2 id="profile-password-heading">Change password</h2>
      <Field id="profile-current-password" label="Current password" error={form.fields.get('currentPassword')}>
        <input id="profile-current-password" type="password" autoComplete="current-password" value={currentPassword} onChange={(e) => setCurrent(e.target.value)} aria-invalid={form.fields.has('currentPassword')} />
      </Field>
      <Field id="profile-new-password" label="New password" required hint="8 characters or more, with a lowercase letter, an uppercase letter and a digit." error={form.fields.get('password')}>
        <input
          id="profile-new-password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={form.fields.has('password')}
          aria-describedby={describedBy('profile-new-password', true, form.fields.get('password'))}
        />
      </Field>
      <Field id="profile-confirm-password" label="Confirm new password" required error={confirmError}>
        <input id="profile-confirm-password" type="password" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} aria-invalid={mismatch} aria-describedby={describedBy('profile-confirm-password', false, confirmError)} />
      </Field>
      {form.error && form.fields.size === 0 ? <ErrorNotice message={describeError(form.error)} /> : null}
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={form.busy || password === ''}>
          {form.busy ? 'Saving…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

/** The signed-in admin's profile: name, email and password. */
export function ProfileScreen() {
  const { state } = useSession();
  if (state.phase !== 'ready') return null;
  return (
    <div className="screen">
      <PageHeader title="Profile" subtitle="Your admin account: how Hearth names you, the email you log in with, and your password." />
      <DetailsForm user={state.user} />
      <PasswordForm />
    </div>
  );
}
