import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { describeError, fieldErrorMap } from '../../api/errors';
import { actionGroupsDecoder } from '../../api/types';
import { useLoad } from '../../api/use-load';
import { ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { Field, describedBy } from '../../components/field';
import { useLeaveGuard } from '../../components/leave-guard';
import { useToast } from '../../components/toast';
import { useAction } from '../../components/use-action';
import { useClient } from '../auth/session';
import { PermissionsPicker } from '../tokens/permissions-picker';
import { roleDetailDecoder } from './users-api';
import { UsersNav } from './users-nav';

interface RoleForm {
  readonly name: string;
  readonly description: string;
  readonly permissions: ReadonlySet<string>;
}

const EMPTY: RoleForm = { name: '', description: '', permissions: new Set() };
const same = (a: RoleForm, b: RoleForm) =>
  a.name === b.name && a.description === b.description && a.permissions.size === b.permissions.size && [...a.permissions].every((p) => b.permissions.has(p));

/** Creates a role or edits one: its name, description and every content API action it may perform. */
export function RoleEditor() {
  const { id } = useParams();
  const creating = id === undefined;
  const client = useClient();
  const navigate = useNavigate();
  const { notify } = useToast();
  const groups = useLoad(async () => actionGroupsDecoder(await client.get('/admin/api/permissions/actions')), 'actions');
  const role = useLoad(async () => (creating ? null : roleDetailDecoder(await client.get(`/admin/api/roles/${id}`))), `role:${id ?? 'new'}`);
  const [saved, setSaved] = useState<RoleForm | null>(creating ? EMPTY : null);
  const [form, setForm] = useState<RoleForm>(EMPTY);
  const { busy, error, run } = useAction();
  const guard = useLeaveGuard(saved !== null && !same(form, saved));

  useEffect(() => {
    if (!role.data) return;
    const loaded = { name: role.data.name, description: role.data.description, permissions: new Set(role.data.permissions) };
    setSaved(loaded);
    setForm(loaded);
  }, [role.data]);
  const save = () =>
    run(async () => {
      const body = { name: form.name, description: form.description, permissions: [...form.permissions] };
      if (creating) {
        const answer = roleDetailDecoder(await client.post('/admin/api/roles', body));
        setSaved(form);
        notify(`${answer.name} created`);
        guard.leave(() => navigate(`/users/roles/${answer.id}`, { replace: true }));
      } else {
        await client.put(`/admin/api/roles/${id}`, body);
        setSaved(form);
        notify('Role saved');
      }
    });

  const fields = fieldErrorMap(error);
  const loadError = groups.error ?? role.error;
  const title = creating ? 'New role' : (role.data?.name ?? 'Role');
  return (
    <div className="screen">
      <PageHeader
        title={title}
        back={
          <Link to="/users/roles" className="back-link">
            ← Roles
          </Link>
        }
        actions={
          <button type="submit" form="role-form" className="btn btn-primary" disabled={busy || (saved !== null && same(form, saved))}>
            {busy ? 'Saving…' : creating ? 'Create role' : 'Save role'}
          </button>
        }
      />
      <UsersNav />
      {loadError ? <ErrorNotice message={describeError(loadError)} onRetry={() => { groups.reload(); role.reload(); }} /> : null}
      {(groups.loading || role.loading) && !loadError ? <Loading label="Loading role…" /> : null}
      {saved !== null && groups.data ? (
        <form
          id="role-form"
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <section className="card stack">
            <Field id="role-name" label="Name" required error={fields.get('name')}>
              <input id="role-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} aria-describedby={describedBy('role-name', false, fields.get('name'))} aria-invalid={fields.has('name')} />
            </Field>
            <Field id="role-description" label="Description" error={fields.get('description')}>
              <input id="role-description" value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
            </Field>
          </section>
          <section className="card" aria-labelledby="role-permissions-heading">
            <h2 id="role-permissions-heading">Permissions</h2>
            <p className="muted">What callers with this role may do through the content API.</p>
            <PermissionsPicker groups={groups.data} value={form.permissions} idPrefix="role-edit" onChange={(next) => setForm({ ...form, permissions: next })} />
          </section>
          {error && fields.size === 0 ? <ErrorNotice message={describeError(error)} /> : null}
        </form>
      ) : null}
      {guard.dialog}
    </div>
  );
}
