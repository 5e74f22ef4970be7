import type { Db, Row } from '../db/database.js';
import { installYupLocale, yup, type Access, type DocumentService } from '../documents/index.js';
import { AppError, applicationError, notFound, validationError } from '../errors/app-error.js';
import { yupDetails } from '../errors/yup-details.js';
import { plainNode } from '../query/populate.js';
import type { AccountService } from './accounts.js';
import type { AdvancedSettingsService } from './advanced-settings.js';
import { ROLES_TABLE, USER_ROLE_LINK_TABLE, USERS_TABLE, userModel } from './models.js';
import { withoutPasswordValues } from './redact.js';
import type { SessionManager } from './sessions.js';
import { deleteUserChildren, prepareExtras } from './user-extras.js';
import { PLAIN_USER_QUERY } from './user-query.js';
import { isRecord } from '../errors/is-record.js';

installYupLocale();

/**
 * `POST /api/users`, `PUT /api/users/:id` and `DELETE /api/users/:id`, as the users-permissions
 * user controller answers them: Strapi's yup body schemas (every error at once), `Email already
 * taken` / `Username already taken`, 404 `User not found`, the user answered with its role
 * (where the caller may read roles). Only the account's own attributes are written: private ones
 * (reset and confirmation codes, the provider) are never taken from a request body. Attributes a
 * project's extension adds are written as given (user-extras.ts).
 */

const WRITABLE = ['username', 'email', 'password', 'confirmed', 'blocked'] as const;
const WITH_ROLE = { ...PLAIN_USER_QUERY, populate: new Map([['role', plainNode('role')]]) };

const id = () => yup.mixed().test('strapi-id', '${path} must be a valid id', (v: unknown) => v === undefined || (typeof v === 'number' && Number.isInteger(v) && v > 0) || (typeof v === 'string' && v !== ''));
const roleEntry = () =>
  yup
    .object({ id: id(), documentId: id() })
    .test('id-or-documentId', 'Relation entry must include an id or documentId', (e: { id?: unknown; documentId?: unknown } | undefined) => !!e && (e.id != null || e.documentId != null));

const CREATE = yup.object({
  email: yup.string().email().required(),
  username: yup.string().min(1).required(),
  password: yup.string().min(1).required(),
  role: yup.lazy((value: unknown) =>
    isRecord(value) ? yup.object({ connect: yup.array().of(roleEntry()).min(1, 'Users must have a role').required() }).required() : id().required(),
  ),
});

const UPDATE = yup.object({
  email: yup.string().email().min(1),
  username: yup.string().min(1),
  password: yup.mixed().test('password-validation', 'Password must be at least 1 character', (v: unknown) => v === undefined || v === null || v === '' || (typeof v === 'string' && v.length >= 1)),
  role: yup.lazy((value: unknown) =>
    isRecord(value)
      ? yup.object({
          connect: yup.array().of(roleEntry()),
          disconnect: yup
            .array()
            .of(roleEntry())
            .test('CheckDisconnect', 'Cannot remove role', (disconnect: unknown[] | undefined) => !((Array.isArray(value.connect) ? value.connect.length : 0) === 0 && (disconnect ?? []).length > 0)),
        })
      : id(),
  ),
});

async function check(schema: yup.AnySchema, body: unknown): Promise<Record<string, unknown>> {
  const value = isRecord(body) ? body : {};
  try {
    await schema.validate(value, { strict: true, abortEarly: false });
  } catch (err) {
    if (err instanceof yup.ValidationError) {
      const { message, details } = yupDetails(err);
      throw withoutPasswordValues(new AppError('ValidationError', message, details));
    }
    throw err;
  }
  return value;
}

export function createUserAdmin(deps: { db: Db; accounts: AccountService; settings: AdvancedSettingsService; sessions: SessionManager; now: () => Date; documents: DocumentService }) {
  const { db, accounts } = deps;

  /** The role id a body names (a numeric id or documentId, or the first `connect` entry), checked to exist. */
  async function roleIdOf(input: unknown): Promise<number | null> {
    const entry = isRecord(input) ? (Array.isArray(input.connect) ? (input.connect[0] as Record<string, unknown> | undefined) : undefined) : { id: input };
    if (entry === undefined) return null;
    const key = entry.id ?? entry.documentId;
    const id = typeof key === 'number' || (typeof key === 'string' && /^\d+$/.test(key)) ? Number(key) : null;
    const role = await db
      .selectFrom(ROLES_TABLE)
      .select('id')
      .where((eb) => (id !== null && Number.isSafeInteger(id) ? eb('id', '=', id) : eb('documentId', '=', String(key))))
      .executeTakeFirst();
    if (!role) throw validationError(`Role with id "${String(key)}" not found`, { key: 'role' });
    return Number(role.id);
  }

  async function taken(field: 'email' | 'username', value: string, exceptId: number | null): Promise<boolean> {
    let q = db.selectFrom(USERS_TABLE).select('id').where(field, '=', field === 'email' ? value.toLowerCase() : value);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  const writable = (body: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const key of WRITABLE) if (body[key] !== undefined) out[key] = body[key];
    if (typeof out.email === 'string') out.email = out.email.toLowerCase();
    return out;
  };

  return {
    /** `POST /api/users`: a local account, confirmed unless the body says otherwise, with the given (or default) role. */
    async create(body: unknown, access: Access): Promise<Record<string, unknown>> {
      const input = await check(CREATE, body);
      const email = String(input.email);
      if (await taken('username', String(input.username), null)) throw applicationError('Username already taken');
      if (await taken('email', email, null)) throw applicationError('Email already taken');
      // The role a user created without one gets: Strapi's `advanced.default_role`.
      const roleId = (await roleIdOf(input.role)) ?? (await deps.settings.defaultRole()).id;
      const fields = writable(input);
      const extras = await prepareExtras({ documents: deps.documents, body: input });
      const row = await accounts.create({
        username: String(input.username),
        email,
        password: String(input.password),
        roleId,
        ...(fields.confirmed === undefined ? {} : { confirmed: Boolean(fields.confirmed) }),
        ...(fields.blocked === undefined ? {} : { blocked: Boolean(fields.blocked) }),
        extras,
      });
      return accounts.present(row, WITH_ROLE, access);
    },

    /** `PUT /api/users/:id`: changes the given attributes; a new password ends the user's sessions. */
    async update(userId: number, body: unknown, access: Access): Promise<Record<string, unknown>> {
      const row = await accounts.row(userId);
      if (!row) throw notFound('User not found');
      const input = await check(UPDATE, body);
      if ('password' in input && row.provider === 'local' && !input.password) throw validationError('password.notNull');
      if (typeof input.username === 'string' && (await taken('username', input.username, userId))) throw applicationError('Username already taken');
      if (typeof input.email === 'string' && (await taken('email', input.email, userId))) throw applicationError('Email already taken');
      const fields = writable(input);
      const extras = await prepareExtras({ documents: deps.documents, body: input });
      const changes: Record<string, unknown> = { ...extras.columns, updatedAt: deps.now().toISOString() };
      if (typeof fields.username === 'string') changes.username = fields.username;
      if (typeof fields.email === 'string') changes.email = fields.email;
      if (fields.confirmed !== undefined) changes.confirmed = fields.confirmed ? 1 : 0;
      if (fields.blocked !== undefined) changes.blocked = fields.blocked ? 1 : 0;
      const roleId = input.role === undefined || input.role === null ? null : await roleIdOf(input.role);
      if (typeof fields.password === 'string' && fields.password !== '') {
        await accounts.setPassword(row, fields.password);
        await deps.sessions.revokeAll(userId);
      }
      // Strapi raises entry.update (the user with its role) for PUT /api/users/:id; DELETE raises none.
      await deps.documents.eventTransaction(async (trx, raise) => {
        raise('entry.update', userModel(deps.documents.registry()), userId);
        await trx.updateTable(USERS_TABLE).set(changes).where('id', '=', userId).execute();
        await extras.write(trx, userId);
        if (roleId !== null) {
          await trx.deleteFrom(USER_ROLE_LINK_TABLE).where('entity_id', '=', userId).execute();
          await trx.insertInto(USER_ROLE_LINK_TABLE).values({ entity_id: userId, target_id: roleId, ord: 1, inv_ord: null }).execute();
        }
      });
      return accounts.present((await accounts.row(userId)) as Row, WITH_ROLE, access);
    },

    /** `DELETE /api/users/:id`: the deleted user, or null when there was none (Strapi then answers 204). */
    async remove(userId: number, access: Access): Promise<Record<string, unknown> | null> {
      const row = await accounts.row(userId);
      if (!row) return null;
      const shown = await accounts.present(row, PLAIN_USER_QUERY, access);
      const defaultLocale = await deps.documents.defaultLocale();
      await db.transaction().execute(async (trx) => {
        await deleteUserChildren({ documents: deps.documents, trx, defaultLocale, userIds: [userId] });
        await trx.deleteFrom(USERS_TABLE).where('id', '=', userId).execute();
      });
      return shown;
    },
  };
}

/** Account management on the content API. */
export type UserAdmin = ReturnType<typeof createUserAdmin>;
