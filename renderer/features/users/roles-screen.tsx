import { useState } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../api/errors';
import { useLoad } from '../../api/use-load';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { TableHead } from '../../components/table-head';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { isBuiltInRole, roleSummariesDecoder, type RoleSummary } from './users-api';
import { UsersNav } from './users-nav';

/** The roles of the content API: public, authenticated and custom ones; each opens its permissions. */
export function RolesScreen() {
  const client = useClient();
  const { notify } = useToast();
  const roles = useLoad(async () => roleSummariesDecoder(await client.get('/admin/api/roles')), 'roles');
  const [deleting, setDeleting] = useState<RoleSummary | null>(null);
  const list = roles.data ?? [];
  return (
    <div className="screen">
      <PageHeader
        title="Users & permissions"
        subtitle="Roles decide what each caller of the content API may do: public for requests without credentials, authenticated for signed-in users, and your own."
        actions={
          <Link to="/users/roles/new" className="btn btn-primary">
            Create new role
          </Link>
        }
      />
      <UsersNav />
      {roles.error ? <ErrorNotice message={describeError(roles.error)} onRetry={roles.reload} /> : null}
      {roles.loading && !roles.data ? <Loading label="Loading roles…" /> : null}
      {list.length > 0 ? (
        <table className="table" aria-label="Roles">
          <TableHead columns={['Name', 'Description', 'Users']} actions />
          <tbody>
            {list.map((r) => (
              <tr key={r.id} data-testid={`role-row-${r.type}`}>
                <th scope="row">
                  <Link to={`/users/roles/${r.id}`}>{r.name}</Link>
                </th>
                <td>{r.description}</td>
                <td>{r.nbUsers === 1 ? '1 user' : `${r.nbUsers} users`}</td>
                <td className="row-actions">
                  {isBuiltInRole(r.type) ? null : (
                    <button type="button" className="btn btn-small btn-danger-ghost" aria-label={`Delete ${r.name}`} onClick={() => setDeleting(r)}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete role"
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await client.del(`/admin/api/roles/${deleting.id}`);
            notify(`${deleting.name} deleted`);
            roles.reload();
          }}
        >
          <p>
            {deleting.nbUsers === 0
              ? 'No user has this role.'
              : `Its ${deleting.nbUsers === 1 ? 'user moves' : `${deleting.nbUsers} users move`} to the Public role, as in Strapi.`}{' '}
            Its permissions are deleted with it.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
