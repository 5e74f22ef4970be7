import { dataDirOf, databaseUrlOf } from '../config.js';
import { openDataDir } from '../data-dir.js';
import { only, required, text, type Io, type Parsed } from '../cli-args.js';
import { usageError } from '../errors/app-error.js';
import { createAdminUsers, emailProblem } from './admin-users.js';
import { passwordProblem } from './passwords.js';
import { createSessions } from './sessions.js';

/** Input the accounts would refuse is a usage error (exit 2), checked first; a clash with stored state stays a run-time failure (exit 1). */
function checkInput(input: { email?: string; password: string }): void {
  const problem = (input.email === undefined ? null : emailProblem(input.email)) ?? passwordProblem(input.password);
  if (problem !== null) throw usageError(problem);
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
  checkInput({ email, password });
  const user = await withAdmins(parsed, ({ users }) =>
    users.create({ email, password, firstname: text(parsed, 'firstname') ?? null, lastname: text(parsed, 'lastname') ?? null }),
  );
  io.err(`admin ${user.email} created\n`);
  return 0;
}

/** `hearth admin reset-password --email E --password P [--data DIR]`: sets the password and ends that admin's sessions. */
export async function adminResetPassword(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['email', 'password', 'data']);
  const email = required(parsed, 'email');
  const password = required(parsed, 'password');
  checkInput({ password });
  const user = await withAdmins(parsed, async ({ users, sessions }) => {
    const updated = await users.setPassword(email, password);
    if (updated) await sessions.revokeUser(updated.id);
    return updated;
  });
  if (!user) throw new Error(`no admin has the email ${email}`);
  io.err(`password of ${user.email} reset; its sessions are closed\n`);
  return 0;
}
