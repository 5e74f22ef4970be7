import { dataDirOf, databaseUrlOf } from '../config.js';
import { openDataDir } from '../data-dir.js';
import { only, required, text, UsageError, type Io, type Parsed } from '../cli-args.js';
import { AdminInputError, createAdminUsers } from './admin-users.js';
import { createSessions } from './sessions.js';

/** Input the accounts refuse as a usage error (exit 2); a clash with stored state stays a run-time failure (exit 1). */
function asUsage(err: unknown): unknown {
  return err instanceof AdminInputError && !err.conflict ? new UsageError(err.message) : err;
}

/** Opens the data dir's admin accounts and sessions for one command, closing the database afterwards. */
async function withAdmins<T>(parsed: Parsed, fn: (admins: { users: ReturnType<typeof createAdminUsers>; sessions: ReturnType<typeof createSessions> }) => Promise<T>): Promise<T> {
  const dir = await openDataDir(dataDirOf(text(parsed, 'data')), { databaseUrl: databaseUrlOf() });
  try {
    const deps = { db: dir.database.db, now: () => new Date() };
    return await fn({ users: createAdminUsers(deps), sessions: createSessions(deps) });
  } finally {
    await dir.database.close();
  }
}

/** `hearth admin create --email E --password P [--firstname F] [--lastname L] [--data DIR]`: adds an admin account. */
export async function adminCreate(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['email', 'password', 'firstname', 'lastname', 'data']);
  const email = required(parsed, 'email');
  const password = required(parsed, 'password');
  const user = await withAdmins(parsed, ({ users }) =>
    users.create({ email, password, firstname: text(parsed, 'firstname') ?? null, lastname: text(parsed, 'lastname') ?? null }).catch((err: unknown) => Promise.reject(asUsage(err))),
  );
  io.err(`admin ${user.email} created\n`);
  return 0;
}

/** `hearth admin reset-password --email E --password P [--data DIR]`: sets the password and ends that admin's sessions. */
export async function adminResetPassword(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['email', 'password', 'data']);
  const email = required(parsed, 'email');
  const password = required(parsed, 'password');
  const user = await withAdmins(parsed, async ({ users, sessions }) => {
    const updated = await users.setPassword(email, password).catch((err: unknown) => Promise.reject(asUsage(err)));
    if (updated) await sessions.revokeUser(updated.id);
    return updated;
  });
  if (!user) throw new Error(`no admin has the email ${email}`);
  io.err(`password of ${user.email} reset; its sessions are closed\n`);
  return 0;
}
