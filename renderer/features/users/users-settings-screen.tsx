import { useEffect, useState } from 'react';
import { bool, dataOf, object, oneOf, str } from '../../api/decode';
import { describeError, fieldErrorMap } from '../../api/errors';
import { useLoad } from '../../api/use-load';
import { ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { Field } from '../../components/field';
import { useToast } from '../../components/toast';
import { useAction } from '../../components/use-action';
import { useClient } from '../auth/session';
import { roleSummariesDecoder } from './users-api';
import { UsersNav } from './users-nav';

const settingsDecoder = dataOf(object({ allowRegister: bool, allowRegisterSource: oneOf(['env', 'settings', 'default'] as const), defaultRole: str }));

/** Registration: open or closed (unless UP_REGISTER_ENABLED decides), and the role new users get. */
export function UsersSettingsScreen() {
  const client = useClient();
  const { notify } = useToast();
  const settings = useLoad(async () => settingsDecoder(await client.get('/admin/api/users-permissions/settings')), 'up-settings');
  const roles = useLoad(async () => roleSummariesDecoder(await client.get('/admin/api/roles')), 'roles');
  const [allowRegister, setAllowRegister] = useState(true);
  const [defaultRole, setDefaultRole] = useState('authenticated');
  const { busy, error, run } = useAction();

  useEffect(() => {
    if (!settings.data) return;
    setAllowRegister(settings.data.allowRegister);
    setDefaultRole(settings.data.defaultRole);
  }, [settings.data]);

  const fromEnv = settings.data?.allowRegisterSource === 'env';
  const dirty = settings.data !== undefined && ((!fromEnv && allowRegister !== settings.data.allowRegister) || defaultRole !== settings.data.defaultRole);
  const save = () =>
    run(async () => {
      await client.put('/admin/api/users-permissions/settings', fromEnv ? { defaultRole } : { allowRegister, defaultRole });
      notify('Settings saved');
      settings.reload();
    });
  const fields = fieldErrorMap(error);
  const loadError = settings.error ?? roles.error;
  return (
    <div className="screen">
      <PageHeader title="Users & permissions" subtitle="How visitors become end users of the content API." />
      <UsersNav />
      {loadError ? <ErrorNotice message={describeError(loadError)} onRetry={() => { settings.reload(); roles.reload(); }} /> : null}
      {(settings.loading || roles.loading) && !settings.data ? <Loading label="Loading settings…" /> : null}
      {settings.data && roles.data ? (
        <form
          className="card stack"
          aria-labelledby="up-settings-heading"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <h2 id="up-settings-heading">Registration</h2>
          <div className="check">
            <input id="up-allow-register" type="checkbox" checked={allowRegister} disabled={fromEnv} onChange={(e) => setAllowRegister(e.target.checked)} aria-describedby="up-allow-register-hint" />
            <label htmlFor="up-allow-register">Anyone may register (POST /api/auth/local/register)</label>
          </div>
          <p id="up-allow-register-hint" className="field-hint" data-testid="register-source">
            {fromEnv
              ? `Set by the UP_REGISTER_ENABLED environment variable (${allowRegister ? 'open' : 'closed'}), which wins over this setting. Unset it to choose here.`
              : 'Stored with your data. An UP_REGISTER_ENABLED environment variable, when set, wins over it.'}
          </p>
          <Field id="up-default-role" label="Default role of new users" hint="Given on registration and to users created without a role." error={fields.get('defaultRole')}>
            <select id="up-default-role" value={defaultRole} onChange={(e) => setDefaultRole(e.target.value)}>
              {roles.data
                .filter((r) => r.type !== 'public')
                .map((r) => (
                  <option key={r.id} value={r.type}>
                    {r.name}
                  </option>
                ))}
            </select>
          </Field>
          {error && fields.size === 0 ? <ErrorNotice message={describeError(error)} /> : null}
          <div className="button-row">
            <button type="submit" className="btn btn-primary" disabled={busy || !dirty}>
              {busy ? 'Saving…' : 'Save settings'}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
