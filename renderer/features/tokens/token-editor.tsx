import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { dataOf } from '../../api/decode';
import { describeError, fieldErrorMap } from '../../api/errors';
import { actionGroupsDecoder, tokenDecoder, type TokenType } from '../../api/types';
import { useLoad } from '../../api/use-load';
import { describedBy, Field } from '../../components/field';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { PermissionsPicker } from './permissions-picker';
import { createApiToken, TOKEN_DURATIONS, TOKEN_TYPES } from './token-api';
import { TokenReveal } from './token-reveal';
import { when } from './tokens-screen';

interface TokenForm {
  readonly name: string;
  readonly description: string;
  readonly type: TokenType;
  readonly duration: string;
  readonly permissions: ReadonlySet<string>;
}

/** Creates a token (showing its plaintext once) or edits one's name, description, type and permissions. */
export function TokenEditor() {
  const { id } = useParams();
  const client = useClient();
  const { notify } = useToast();
  const existing = useLoad(async () => (id ? dataOf(tokenDecoder)(await client.get(`/admin/api/api-tokens/${id}`)) : null), `token:${id ?? 'new'}`);
  const groups = useLoad(async () => actionGroupsDecoder(await client.get('/admin/api/permissions/actions')), 'actions');
  const [form, setForm] = useState<TokenForm>({ name: '', description: '', type: 'read-only', duration: '30', permissions: new Set() });
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const token = existing.data;
  useEffect(() => {
    if (token) setForm({ name: token.name, description: token.description ?? '', type: token.type, duration: '', permissions: new Set(token.permissions) });
  }, [token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (form.name.trim() === '') {
      setErrors(new Map([['name', 'Give the token a name.']]));
      return;
    }
    setBusy(true);
    setError(null);
    setErrors(new Map());
    const body = { name: form.name.trim(), description: form.description, type: form.type, permissions: form.type === 'custom' ? [...form.permissions] : [] };
    try {
      if (token) {
        await client.put(`/admin/api/api-tokens/${token.id}`, body);
        notify('Token saved');
        existing.reload();
      } else {
        const answer = await createApiToken({ client, token: form });
        setCreated(answer.accessKey);
        notify('Token created');
      }
    } catch (e) {
      setErrors(fieldErrorMap(e));
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  if (id && existing.loading && !token) return <Loading />;
  if (id && existing.error) return <ErrorNotice message={describeError(existing.error)} onRetry={existing.reload} />;
  if (id && !token) return <EmptyState title="Token not found" action={<Link to="/tokens">Back to tokens</Link>} />;
  const back = <Link to="/tokens" className="back-link">← API tokens</Link>;
  if (created) {
    return (
      <div className="screen">
        <PageHeader title={`Token “${form.name}” created`} back={back} />
        <section className="card stack">
          <TokenReveal accessKey={created} />
          <p>
            Send it as <code>Authorization: Bearer &lt;token&gt;</code> with each request to <code>/api</code>.
          </p>
          <div>
            <Link to="/tokens" className="btn">
              Back to tokens
            </Link>
          </div>
        </section>
      </div>
    );
  }
  const nameError = errors.get('name');
  return (
    <div className="screen">
      <PageHeader title={token ? token.name : 'New API token'} subtitle={token ? `Expires: ${when(token.expiresAt, 'never')}` : undefined} back={back} />
      <form className="card stack" onSubmit={submit} noValidate aria-label="Token settings">
        <div className="row-2">
          <Field id="token-name" label="Name" required error={nameError}>
            <input id="token-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} aria-invalid={nameError !== undefined} aria-describedby={describedBy('token-name', null, nameError)} autoComplete="off" />
          </Field>
          <Field id="token-duration" label="Duration" hint={token ? 'Fixed when the token was created.' : undefined}>
            <select id="token-duration" value={form.duration} disabled={token !== null && token !== undefined} onChange={(e) => setForm({ ...form, duration: e.target.value })}>
              {TOKEN_DURATIONS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field id="token-description" label="Description">
          <textarea id="token-description" rows={2} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </Field>
        <fieldset className="checks">
          <legend className="field-label">Token type</legend>
          {TOKEN_TYPES.map((t) => (
            <div className="check" key={t.value}>
              <input id={`token-type-${t.value}`} type="radio" name="token-type" checked={form.type === t.value} onChange={() => setForm({ ...form, type: t.value })} aria-describedby={`token-type-${t.value}-hint`} />
              <label htmlFor={`token-type-${t.value}`}>{t.label}</label>
              <span id={`token-type-${t.value}-hint`} className="field-hint inline">
                {t.hint}
              </span>
            </div>
          ))}
        </fieldset>
        {form.type === 'custom' ? (
          <section aria-label="Permissions">
            <h2 className="section-title">Permissions</h2>
            {groups.error ? <ErrorNotice message={describeError(groups.error)} onRetry={groups.reload} /> : null}
            {groups.loading && !groups.data ? <Loading label="Loading actions…" /> : null}
            {groups.data ? <PermissionsPicker groups={groups.data} value={form.permissions} onChange={(permissions) => setForm({ ...form, permissions })} idPrefix="token-perm" /> : null}
          </section>
        ) : null}
        {error ? <ErrorNotice message={describeError(error)} /> : null}
        <div className="button-row">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : token ? 'Save' : 'Create token'}
          </button>
        </div>
      </form>
    </div>
  );
}
