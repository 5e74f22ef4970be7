import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { describeError, fieldErrorMap } from '../../api/errors';
import { actionGroupsDecoder, informationDecoder, type TokenType } from '../../api/types';
import { useLoad } from '../../api/use-load';
import { describedBy, Field } from '../../components/field';
import { ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { SettingsNav } from '../settings/settings-nav';
import { PermissionsPicker } from '../tokens/permissions-picker';
import { createApiToken, TOKEN_DURATIONS, TOKEN_TYPES, type NewToken } from '../tokens/token-api';
import { TokenReveal } from '../tokens/token-reveal';
import { AssistantSnippets } from './assistant-snippets';
import '../../styles/assistant.css';

/** What the assistant may do with each token type, for the warning shown beside the token. */
const GRANTS: Record<TokenType, string> = {
  'read-only': 'read every content type and file',
  'full-access': 'read, create, change, publish and delete all your content and files',
  custom: 'do the actions you ticked',
};

/** Settings → Connect an AI assistant: makes an API token for an MCP client and shows its configuration. */
export function AssistantScreen() {
  const client = useClient();
  const { notify } = useToast();
  const info = useLoad(async () => informationDecoder(await client.get('/admin/api/information')), 'information');
  const groups = useLoad(async () => actionGroupsDecoder(await client.get('/admin/api/permissions/actions')), 'actions');
  const [form, setForm] = useState<NewToken>({
    name: 'AI assistant',
    description: 'Used by an AI assistant through MCP',
    type: 'read-only',
    duration: '30',
    permissions: new Set(),
  });
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ accessKey: string; name: string; type: TokenType } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (form.name.trim() === '') {
      setErrors(new Map([['name', 'Give the token a name.']]));
      return;
    }
    setBusy(true);
    setError(null);
    setErrors(new Map());
    try {
      const answer = await createApiToken({ client, token: form });
      setCreated({ accessKey: answer.accessKey, name: answer.token.name, type: answer.token.type });
      notify('Token created');
    } catch (e) {
      setErrors(fieldErrorMap(e));
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const header = (
    <PageHeader
      title="Connect an AI assistant"
      subtitle="Claude Desktop, Cursor and VS Code reach your content through MCP with an API token of the access you choose."
    />
  );
  if (created) {
    return (
      <div className="screen">
        {header}
        <SettingsNav />
        <section className="card stack" aria-label="Assistant token">
          <TokenReveal accessKey={created.accessKey} />
          <p className="notice notice-warning" data-testid="assistant-grant">
            <span>
              Anyone with this configuration can {GRANTS[created.type]} through token “{created.name}”. Revoke it in <Link to="/tokens">API tokens</Link> when
              the assistant no longer needs it.
            </span>
          </p>
          {info.error ? <ErrorNotice message={describeError(info.error)} onRetry={info.reload} /> : null}
          {info.data ? <AssistantSnippets place={info.data} token={created.accessKey} /> : <Loading />}
          <div>
            <button type="button" className="btn" onClick={() => setCreated(null)}>
              Create another token
            </button>
          </div>
        </section>
      </div>
    );
  }
  const nameError = errors.get('name');
  return (
    <div className="screen">
      {header}
      <SettingsNav />
      <form className="card stack" onSubmit={submit} noValidate aria-label="Assistant token">
        <p>Hearth creates an API token for the assistant, then shows the configuration to paste. The assistant acts with exactly the token's access.</p>
        <div className="row-2">
          <Field id="assistant-token-name" label="Token name" required error={nameError}>
            <input
              id="assistant-token-name"
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              aria-invalid={nameError !== undefined}
              aria-describedby={describedBy('assistant-token-name', null, nameError)}
              autoComplete="off"
            />
          </Field>
          <Field id="assistant-token-duration" label="Duration">
            <select id="assistant-token-duration" value={form.duration} onChange={(e) => setForm({ ...form, duration: e.target.value })}>
              {TOKEN_DURATIONS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <fieldset className="checks">
          <legend className="field-label">Access</legend>
          {TOKEN_TYPES.map((t) => (
            <div className="check" key={t.value}>
              <input
                id={`assistant-type-${t.value}`}
                type="radio"
                name="assistant-type"
                checked={form.type === t.value}
                onChange={() => setForm({ ...form, type: t.value })}
                aria-describedby={`assistant-type-${t.value}-hint`}
              />
              <label htmlFor={`assistant-type-${t.value}`}>{t.label}</label>
              <span id={`assistant-type-${t.value}-hint`} className="field-hint inline">
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
            {groups.data ? (
              <PermissionsPicker
                groups={groups.data}
                value={form.permissions}
                onChange={(permissions) => setForm({ ...form, permissions })}
                idPrefix="assistant-perm"
              />
            ) : null}
          </section>
        ) : null}
        {error ? <ErrorNotice message={describeError(error)} /> : null}
        <div className="button-row">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create token and show configuration'}
          </button>
        </div>
      </form>
    </div>
  );
}
