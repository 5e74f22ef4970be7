import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { ADMIN_USERS_TABLE, type AdminUserTable } from '../db/system-tables.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { applicationError, fieldError } from '../errors/app-error.js';
import { passwordProblem } from './passwords.js';

/** An admin account as the admin API shows it: never with its password hash. */
export interface AdminUser {
  readonly id: number;
  readonly email: string;
  readonly firstname: string | null;
  readonly lastname: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The email of the owner the desktop app creates on first launch (password login stays closed until reset). */
export const LOCAL_OWNER_EMAIL = 'owner@hearth.localhost';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Trimmed and lower-cased, so emails compare case-insensitively. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Why an email cannot be an admin's, or null when it can (the CLI checks it before opening the data dir). */
export function emailProblem(email: string): string | null {
  const normalised = normaliseEmail(email);
  return !EMAIL.test(normalised) || normalised.length > 254 ? 'email must be a valid email' : null;
}

/** The normalised email, or a 400 naming the `email` field. */
function checkEmail(email: string): string {
  const problem = emailProblem(email);
  if (problem !== null) throw fieldError(['email'], problem);
  return normaliseEmail(email);
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem !== null) throw fieldError(['password'], problem);
}

/** A stored admin account. */
type AdminUserRow = Selectable<AdminUserTable>;

const toUser = (row: AdminUserRow): AdminUser => ({
  id: row.id,
  email: row.email,
  firstname: row.firstname,
  lastname: row.lastname,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** What a new account is made of; a null password makes an account that cannot log in with one. */
export interface NewAdmin {
  readonly email: string;
  readonly password: string | null;
  readonly firstname?: string | null;
  readonly lastname?: string | null;
}

/** Admin accounts: owner registration, password checks, profile and password changes. */
export function createAdminUsers(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps;

  async function byEmail(email: string, on: Db = db): Promise<AdminUserRow | undefined> {
    return on.selectFrom(ADMIN_USERS_TABLE).selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
  }

  async function insert(on: Db, input: NewAdmin): Promise<AdminUser> {
    const email = checkEmail(input.email);
    if (input.password !== null) checkPassword(input.password);
    if (await byEmail(email, on)) throw fieldError(['email'], 'Email already taken');
    const at = now().toISOString();
    const row = await on
      .insertInto(ADMIN_USERS_TABLE)
      .values({
        email,
        firstname: input.firstname ?? null,
        lastname: input.lastname ?? null,
        password_hash: input.password === null ? null : await hashPassword(input.password),
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUser(row);
  }

  const users = {
    async hasAdmin(): Promise<boolean> {
      return (await db.selectFrom(ADMIN_USERS_TABLE).select('id').limit(1).executeTakeFirst()) !== undefined;
    },

    async get(id: number): Promise<AdminUser | undefined> {
      const row = await db.selectFrom(ADMIN_USERS_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toUser(row) : undefined;
    },

    /** Adds an admin (the CLI may add several); a taken email is a conflict. */
    create(input: NewAdmin): Promise<AdminUser> {
      return db.transaction().execute((trx) => insert(trx, input));
    },

    /** First-run registration: only while no admin exists, checked in the same transaction as the insert. */
    registerOwner(input: NewAdmin): Promise<AdminUser> {
      return db.transaction().execute(async (trx) => {
        if (await trx.selectFrom(ADMIN_USERS_TABLE).select('id').limit(1).executeTakeFirst()) {
          throw applicationError('You cannot register a new super admin');
        }
        return insert(trx, input);
      });
    },

    /** The account behind an email and password, or null; unknown emails cost as much time as wrong passwords. */
    async authenticate(email: string, password: string): Promise<AdminUser | null> {
      const row = await byEmail(email);
      const stored = row && typeof row.password_hash === 'string' ? row.password_hash : null;
      const ok = await verifyPassword(password, stored, { decoy: true });
      return ok && row ? toUser(row) : null;
    },

    /** The first admin, created as the password-less local owner when none exists (desktop sessions). */
    localOwner(): Promise<AdminUser> {
      return db.transaction().execute(async (trx) => {
        const first = await trx.selectFrom(ADMIN_USERS_TABLE).selectAll().orderBy('id').limit(1).executeTakeFirst();
        if (first) return toUser(first);
        return insert(trx, { email: LOCAL_OWNER_EMAIL, password: null, firstname: 'Local', lastname: null });
      });
    },

    /** Sets the password of the account with this email; undefined when there is none. */
    async setPassword(email: string, password: string): Promise<AdminUser | undefined> {
      checkPassword(password);
      const row = await byEmail(email);
      if (!row) return undefined;
      await db
        .updateTable(ADMIN_USERS_TABLE)
        .set({ password_hash: await hashPassword(password), updated_at: now().toISOString() })
        .where('id', '=', row.id)
        .execute();
      return users.get(row.id);
    },

    /** Profile changes; a new password needs the current one, unless the account has none yet (the local owner). */
    async update(
      id: number,
      changes: { firstname?: string | null; lastname?: string | null; email?: string; currentPassword?: string; password?: string },
    ): Promise<{ user: AdminUser; passwordChanged: boolean } | undefined> {
      const row = await db.selectFrom(ADMIN_USERS_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const set: Record<string, unknown> = { updated_at: now().toISOString() };
      if (changes.firstname !== undefined) set.firstname = changes.firstname;
      if (changes.lastname !== undefined) set.lastname = changes.lastname;
      if (changes.email !== undefined) {
        const email = checkEmail(changes.email);
        const other = await byEmail(email);
        if (other && other.id !== id) throw fieldError(['email'], 'Email already taken');
        set.email = email;
      }
      if (changes.password !== undefined) {
        checkPassword(changes.password);
        const stored = typeof row.password_hash === 'string' ? row.password_hash : null;
        if (stored !== null && !(await verifyPassword(changes.currentPassword ?? '', stored))) {
          throw fieldError(['currentPassword'], 'Current password is invalid');
        }
        set.password_hash = await hashPassword(changes.password);
      }
      await db.updateTable(ADMIN_USERS_TABLE).set(set).where('id', '=', id).execute();
      const user = await users.get(id);
      return user ? { user, passwordChanged: changes.password !== undefined } : undefined;
    },
  };
  return users;
}

/** Admin accounts. */
export type AdminUsers = ReturnType<typeof createAdminUsers>;
