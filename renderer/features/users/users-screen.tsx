import { useEffect, useState } from 'react';
import { describeError } from '../../api/errors';
import { useLoad } from '../../api/use-load';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { Pager } from '../../components/pagination';
import { TableHead } from '../../components/table-head';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { deleteUser, listUsers, roleSummariesDecoder, updateUser, type EndUser, type RoleSummary } from './users-api';
import { UsersNav } from './users-nav';

const PAGE_SIZE = 10;
/** How long the search box waits after the last key before it asks the server. */
const SEARCH_DELAY_MS = 300;

/** A user's state in words, as a badge. */
function StateBadge({ user }: { readonly user: EndUser }) {
  if (user.blocked) return <span className="badge badge-draft">Blocked</span>;
  if (!user.confirmed) return <span className="badge badge-modified">Unconfirmed</span>;
  return <span className="badge badge-published">Active</span>;
}

/** One row: the user, a role picker, and confirm / block / delete. */
function UserRow(props: { readonly user: EndUser; readonly roles: readonly RoleSummary[]; readonly onChange: (changes: { blocked?: boolean; confirmed?: boolean; role?: number }, done: string) => void; readonly onDelete: () => void }) {
  const { user, roles, onChange, onDelete } = props;
  return (
    <tr data-testid={`user-row-${user.username}`}>
      <th scope="row">{user.username}</th>
      <td>{user.email}</td>
      <td>
        <label className="visually-hidden" htmlFor={`user-role-${user.id}`}>
          Role of {user.username}
        </label>
        <select
          id={`user-role-${user.id}`}
          value={user.role?.id ?? ''}
          onChange={(e) => onChange({ role: Number(e.target.value) }, `${user.username} is now ${roles.find((r) => r.id === Number(e.target.value))?.name ?? 'in another role'}`)}
        >
          {user.role === null ? <option value="">No role</option> : null}
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </td>
      <td>
        <StateBadge user={user} />
      </td>
      <td className="row-actions">
        {user.confirmed ? null : (
          <button type="button" className="btn btn-small" aria-label={`Confirm ${user.username}`} onClick={() => onChange({ confirmed: true }, `${user.username} confirmed`)}>
            Confirm
          </button>
        )}
        <button
          type="button"
          className="btn btn-small"
          aria-label={`${user.blocked ? 'Unblock' : 'Block'} ${user.username}`}
          onClick={() => onChange({ blocked: !user.blocked }, `${user.username} ${user.blocked ? 'unblocked' : 'blocked'}`)}
        >
          {user.blocked ? 'Unblock' : 'Block'}
        </button>
        <button type="button" className="btn btn-small btn-danger-ghost" aria-label={`Delete ${user.username}`} onClick={onDelete}>
          Delete
        </button>
      </td>
    </tr>
  );
}

/** Users & permissions: the content API's end users, searched, paged, blocked, confirmed, moved between roles, deleted. */
export function UsersScreen() {
  const client = useClient();
  const { notify } = useToast();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<EndUser | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const users = useLoad(() => listUsers(client, { q, page, pageSize: PAGE_SIZE }), `users:${q}:${page}`);
  const roles = useLoad(async () => roleSummariesDecoder(await client.get('/admin/api/roles')), 'roles');

  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (search === q) return;
      setQ(search);
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search, q]);

  const change = async (user: EndUser, changes: { blocked?: boolean; confirmed?: boolean; role?: number }, done: string) => {
    setActionError(null);
    try {
      await updateUser(client, user.id, changes);
      notify(done);
      users.reload();
    } catch (e) {
      setActionError(e);
    }
  };

  const list = users.data?.users ?? [];
  const total = users.data?.total ?? 0;
  const error = users.error ?? roles.error;
  return (
    <div className="screen">
      <PageHeader title="Users & permissions" subtitle="The accounts of your site's visitors (the content API's end users), their roles and registration." />
      <UsersNav />
      <div className="toolbar">
        <div className="toolbar-item">
          <label htmlFor="users-search">Search users</label>
          <input id="users-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Username or email…" />
        </div>
      </div>
      {error ? <ErrorNotice message={describeError(error)} onRetry={() => { users.reload(); roles.reload(); }} /> : null}
      {actionError ? <ErrorNotice message={describeError(actionError)} /> : null}
      {users.loading && !users.data ? <Loading label="Loading users…" /> : null}
      {users.data && list.length === 0 ? (
        q === '' ? (
          <EmptyState title="No end users yet">Visitors appear here once they register through the content API (POST /api/auth/local/register) or are created with POST /api/users.</EmptyState>
        ) : (
          <EmptyState title="No users match">Try another username or email.</EmptyState>
        )
      ) : null}
      {list.length > 0 ? (
        <table className="table" aria-label="End users" aria-busy={users.loading}>
          <TableHead columns={['Username', 'Email', 'Role', 'State']} actions />
          <tbody>
            {list.map((u) => (
              <UserRow key={u.id} user={u} roles={roles.data ?? []} onChange={(changes, done) => void change(u, changes, done)} onDelete={() => setDeleting(u)} />
            ))}
          </tbody>
        </table>
      ) : null}
      {users.data && total > 0 ? <Pager page={page} pageCount={Math.max(1, Math.ceil(total / PAGE_SIZE))} total={total} onPage={setPage} label="Users pages" /> : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.username}”?`}
          confirmLabel="Delete user"
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await deleteUser(client, deleting.id);
            notify(`${deleting.username} deleted`);
            if (list.length === 1 && page > 1) setPage(page - 1);
            else users.reload();
          }}
        >
          <p>The account and its sessions are deleted; the user can no longer log in. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
