import type { ApiClient } from '../../api/client';
import { array, bool, dataOf, nullable, num, object, optional, record, str, type Decoder } from '../../api/decode';
import type { QueryValue } from '../../api/query';

/** An end user of the content API (`plugin::users-permissions.user`), as the users screen shows it. */
export interface EndUser {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly provider: string | null;
  readonly confirmed: boolean;
  readonly blocked: boolean;
  readonly createdAt: string;
  readonly role: { readonly id: number; readonly name: string } | null;
}

const roleRef = nullable(object({ id: num, name: str }));
/** Decodes one user of `/api/users?populate=role` (a bare object, as users-permissions answers). */
const endUserDecoder: Decoder<EndUser> = (v, p = '') => {
  const u = object({ id: num, username: str, email: str, provider: nullable(str), confirmed: nullable(bool), blocked: nullable(bool), createdAt: str })(v, p);
  return { ...u, confirmed: u.confirmed === true, blocked: u.blocked === true, role: roleRef(record(v, p).role, `${p}.role`) };
};

/** A role in the roles list, with how many users have it. */
export interface RoleSummary {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly type: string;
  readonly nbUsers: number;
}
/** Decodes `GET /admin/api/roles`. */
export const roleSummariesDecoder = dataOf(
  array<RoleSummary>((v, p) => {
    const r = object({ id: num, name: str, description: nullable(str), type: str, nb_users: optional(num) })(v, p);
    return { id: r.id, name: r.name, description: r.description, type: r.type, nbUsers: r.nb_users ?? 0 };
  }),
);

/** One page of end users and how many match in all. */
export interface UsersPage {
  readonly users: readonly EndUser[];
  readonly total: number;
}

/** Whether a user is a built-in role that cannot be deleted. */
export const isBuiltInRole = (type: string): boolean => type === 'public' || type === 'authenticated';

/** The filters of a search across username and email (case-insensitive, as the list's search box). */
function searchFilters(q: string): Record<string, QueryValue> {
  const text = q.trim();
  return text === '' ? {} : { filters: { $or: [{ username: { $containsi: text } }, { email: { $containsi: text } }] } };
}

/**
 * One page of end users through the content API, as any client reads them: `/api/users` with
 * `start`/`limit`, and `/api/users/count` with the same filters for the pager.
 */
export async function listUsers(client: ApiClient, args: { q: string; page: number; pageSize: number }): Promise<UsersPage> {
  const filters = searchFilters(args.q);
  const [list, count] = await Promise.all([
    client.get('/api/users', { ...filters, populate: 'role', sort: 'username:asc', start: (args.page - 1) * args.pageSize, limit: args.pageSize }),
    client.get('/api/users/count', filters),
  ]);
  return { users: array(endUserDecoder)(list), total: num(count) };
}

/** Changes a user's blocked or confirmed state or role (`PUT /api/users/:id`). */
export async function updateUser(client: ApiClient, id: number, changes: { blocked?: boolean; confirmed?: boolean; role?: number }): Promise<void> {
  await client.put(`/api/users/${id}`, changes);
}

/** Deletes a user (`DELETE /api/users/:id`). */
export async function deleteUser(client: ApiClient, id: number): Promise<void> {
  await client.del(`/api/users/${id}`);
}

/** A role with its whole permission set (`GET /admin/api/roles/:id`). */
export interface RoleDetail {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly type: string;
  readonly permissions: readonly string[];
}
/** Decodes one role as the admin API answers it. */
export const roleDetailDecoder = dataOf<RoleDetail>((v, p) => {
  const r = object({ id: num, name: str, description: nullable(str), type: str, permissions: array(str) })(v, p);
  return { ...r, description: r.description ?? '' };
});
