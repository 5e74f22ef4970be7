import { useEffect, useState } from 'react';
import { describeError } from '../../api/errors';
import { actionGroupsDecoder, roleDecoder, rolesDecoder } from '../../api/types';
import { useLoad } from '../../api/use-load';
import { ErrorNotice, Loading } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { PermissionsPicker } from '../tokens/permissions-picker';

/** What a role (by default the public one: requests without a token) may do through the content API. */
export function RolePermissionsSection() {
  const client = useClient();
  const { notify } = useToast();
  const roles = useLoad(async () => rolesDecoder(await client.get('/admin/api/roles')), 'roles');
  const groups = useLoad(async () => actionGroupsDecoder(await client.get('/admin/api/permissions/actions')), 'actions');
  const [roleId, setRoleId] = useState<number | null>(null);
  const role = useLoad(async () => (roleId === null ? null : roleDecoder(await client.get(`/admin/api/roles/${roleId}`))), `role:${roleId ?? ''}`);
  const [value, setValue] = useState<Set<string>>(new Set());
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (roleId === null && roles.data) setRoleId(roles.data.find((r) => r.type === 'public')?.id ?? roles.data[0]?.id ?? null);
  }, [roles.data, roleId]);
  useEffect(() => {
    if (role.data) {
      setValue(new Set(role.data.permissions));
      setDirty(false);
    }
  }, [role.data]);

  const save = async () => {
    if (roleId === null) return;
    setBusy(true);
    setError(null);
    try {
      await client.put(`/admin/api/roles/${roleId}`, { permissions: [...value] });
      notify('Permissions saved');
      setDirty(false);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const loadError = roles.error ?? groups.error ?? role.error;

  return (
    <section className="card" aria-labelledby="roles-heading">
      <header className="card-header">
        <h2 id="roles-heading">Role permissions</h2>
        <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={busy || !dirty}>
          {busy ? 'Saving…' : 'Save permissions'}
        </button>
      </header>
      <p className="muted">The public role applies to requests without an Authorization header. Give it only what your public site needs to read.</p>
      {loadError ? <ErrorNotice message={describeError(loadError)} onRetry={() => { roles.reload(); groups.reload(); role.reload(); }} /> : null}
      {roles.data && roles.data.length > 1 ? (
        <div className="toolbar">
          <div className="toolbar-item">
            <label htmlFor="role-select">Role</label>
            <select id="role-select" value={roleId ?? ''} onChange={(e) => setRoleId(Number(e.target.value))}>
              {roles.data.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </div>
        </div>
      ) : null}
      {(roles.loading || groups.loading || role.loading) && !loadError ? <Loading label="Loading permissions…" /> : null}
      {groups.data && role.data ? (
        <PermissionsPicker
          groups={groups.data}
          value={value}
          idPrefix="role-perm"
          onChange={(next) => {
            setValue(next);
            setDirty(true);
          }}
        />
      ) : null}
      {error ? <ErrorNotice message={describeError(error)} /> : null}
    </section>
  );
}
