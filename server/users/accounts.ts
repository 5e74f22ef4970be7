import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db, Row } from '../db/database.js';
import type { UserTable } from '../db/system-tables.js';
import { newDocumentId, validateEntity, type Access, type DocumentService } from '../documents/index.js';
import { AppError } from '../errors/app-error.js';
import { UP_RESET_CODE_BYTES } from '../limits.js';
import type { DocumentQuery, Pagination } from '../query/ast.js';
import { USER_MODEL, USER_ROLE_LINK_TABLE, userModel, USERS_TABLE } from './models.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { withoutPasswordValues } from './redact.js';
import { userDefaults } from './user-extras.js';
import { byUserId } from './user-query.js';

/** A stored user: its built-in columns typed (a project's extension columns are there too, untyped). */
export type UserRow = Selectable<UserTable>;

/** What a new account is made of (already checked by the register validation). */
export interface NewAccount {
  readonly username: string;
  readonly email: string;
  readonly password: string;
  readonly roleId: number;
  /** Defaults: confirmed, not blocked (register confirms at once: no e-mail is sent). */
  readonly confirmed?: boolean;
  readonly blocked?: boolean;
  /** Attributes a project's extension adds: their columns, and a write of the rest once the row exists (defaults fill the scalars left out). */
  readonly extras?: { readonly columns: Record<string, unknown>; write(trx: Db, userId: number): Promise<void> };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * End-user accounts in `up_users`: creation through Strapi's entity validation (so messages such
 * as `password must be at least 6 characters` are Strapi's), lookups for login, password changes
 * and reset codes, and reads through the document reader (so responses never hold private fields).
 */
export function createAccountService(deps: { db: Db; documents: DocumentService; now: () => Date }) {
  const { db, now } = deps;

  async function validate(data: Record<string, unknown>, mode: 'creation' | 'update', entity: Row | null): Promise<void> {
    try {
      await validateEntity(USER_MODEL, data, deps.documents.registry(), {
        mode,
        isDraft: false,
        locale: null,
        entity,
        checkRelations: async () => null,
        isUnique: async ({ attribute, value, excludeId }) => {
          // A column named by the model at run time: the table is addressed as any content table.
          let q = db.selectFrom<string>(USERS_TABLE).select('id').where(attribute.name, '=', String(value));
          if (excludeId !== null) q = q.where('id', '<>', excludeId);
          return (await q.executeTakeFirst()) === undefined;
        },
      });
    } catch (err) {
      throw err instanceof AppError ? withoutPasswordValues(err) : err;
    }
  }

  const service = {
    /** The stored row of a user (with its password hash: never answer it as is). */
    async row(id: number): Promise<UserRow | undefined> {
      if (!Number.isSafeInteger(id)) return undefined;
      return db.selectFrom(USERS_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The local account an identifier names: its email (any case) or its exact username. */
    async forLogin(identifier: string): Promise<UserRow | undefined> {
      return db
        .selectFrom(USERS_TABLE)
        .selectAll()
        .where('provider', '=', 'local')
        .where((eb) => eb.or([eb('email', '=', identifier.toLowerCase()), eb('username', '=', identifier)]))
        .orderBy('id')
        .executeTakeFirst();
    },

    /** Whether an email or username is taken, as Strapi's register checks it (emails case-insensitively). */
    async isTaken(email: string, username: string): Promise<boolean> {
      const lower = email.toLowerCase();
      const row = await db
        .selectFrom(USERS_TABLE)
        .select('id')
        .where((eb) =>
          eb.or([eb('email', '=', lower), eb('username', '=', lower), eb('username', '=', username), eb('email', '=', username)]),
        )
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Creates a confirmed local account with its role; entity validation first. */
    async create(input: NewAccount): Promise<UserRow> {
      const email = input.email.toLowerCase();
      const confirmed = input.confirmed ?? true;
      const blocked = input.blocked ?? false;
      await validate({ username: input.username, email, provider: 'local', password: input.password, confirmed, blocked }, 'creation', null);
      const password = await hashPassword(input.password, 'compact');
      const at = now().toISOString();
      const defaults = await userDefaults(deps.documents.registry());
      // Strapi's register and POST /api/users raise entry.create (the user with its role), recorded with the insert.
      return deps.documents.eventTransaction(async (trx, raise) => {
        const row = await trx
          .insertInto(USERS_TABLE)
          .values({ ...defaults, ...input.extras?.columns, documentId: newDocumentId(), username: input.username, email, provider: 'local', password, resetPasswordToken: null, confirmationToken: null, confirmed: confirmed ? 1 : 0, blocked: blocked ? 1 : 0, createdAt: at, updatedAt: at, publishedAt: at, locale: null })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.insertInto(USER_ROLE_LINK_TABLE).values({ entity_id: row.id, target_id: input.roleId, ord: 1, inv_ord: null }).execute();
        await input.extras?.write(trx, row.id);
        raise('entry.create', userModel(deps.documents.registry()), row.id);
        return row;
      });
    },

    /** Whether a password is the user's. */
    checkPassword: (row: Pick<UserRow, 'password'>, plain: string): Promise<boolean> => verifyPassword(plain, row.password),

    /** Sets a new password (Strapi's length rule applies) and forgets any reset code. */
    async setPassword(row: UserRow, plain: string): Promise<void> {
      await validate({ password: plain }, 'update', row);
      const password = await hashPassword(plain, 'compact');
      await db.updateTable(USERS_TABLE).set({ password, resetPasswordToken: null, updatedAt: now().toISOString() }).where('id', '=', row.id).execute();
    },

    /** A new password reset code for a user: returned once, stored only as its SHA-256. */
    async issueResetCode(id: number): Promise<string> {
      const code = randomBytes(UP_RESET_CODE_BYTES).toString('hex');
      await db.updateTable(USERS_TABLE).set({ resetPasswordToken: sha256(code) }).where('id', '=', id).execute();
      return code;
    },

    /** The account a reset code belongs to; the stored digests are compared in constant time. */
    async forResetCode(code: string): Promise<UserRow | undefined> {
      const digest = sha256(code);
      const row = await db.selectFrom(USERS_TABLE).selectAll().where('resetPasswordToken', '=', digest).executeTakeFirst();
      if (!row || typeof row.resetPasswordToken !== 'string') return undefined;
      const stored = Buffer.from(row.resetPasswordToken, 'hex');
      const given = Buffer.from(digest, 'hex');
      return stored.length === given.length && timingSafeEqual(stored, given) ? row : undefined;
    },

    /** Users as the content API prints them (private fields never included), populated as asked. */
    async list(query: DocumentQuery, pagination: Pagination, access: Access): Promise<Record<string, unknown>[]> {
      const { documents } = deps;
      return (await documents.findMany({ model: userModel(documents.registry()), query, pagination, access })).data;
    },

    /** One user by id as the content API prints it, or null. */
    async one(id: number, query: DocumentQuery, access: Access): Promise<Record<string, unknown> | null> {
      if (!Number.isSafeInteger(id)) return null;
      const [user] = await service.list(byUserId(query, id), { mode: 'offset', start: 0, limit: 1, withCount: false }, access);
      return user ?? null;
    },

    /** A stored row as the content API prints it. */
    async present(row: Row, query: DocumentQuery, access: Access): Promise<Record<string, unknown>> {
      const { documents } = deps;
      const [user] = await documents.present({ model: userModel(documents.registry()), rows: [row], query, access });
      return user ?? {};
    },

    /** How many users match a filter (`GET /api/users/count`). */
    async count(query: DocumentQuery): Promise<number> {
      const { documents } = deps;
      return documents.count({ model: userModel(documents.registry()), query });
    },
  };
  return service;
}

/** End-user accounts. */
export type AccountService = ReturnType<typeof createAccountService>;
