import type { Access } from '../documents/index.js';
import type { Row } from '../db/database.js';
import { applicationError, validationError } from '../errors/app-error.js';
import { plainNode } from '../query/populate.js';
import type { AccountService, UserRow } from './accounts.js';
import type { AdvancedSettingsService } from './advanced-settings.js';
import { checkBody } from './auth-input.js';
import { deviceIdOf, type ClientInfo, type IssuedTokens, type SessionFlows } from './session-flows.js';
import type { UserIdentity } from './strategy.js';
import { PLAIN_USER_QUERY } from './user-query.js';
import { hashPassword } from '../auth/passwords.js';
import { isRecord } from '../errors/is-record.js';

/** What login, register and the password routes answer: tokens and the user as the content API prints it. */
export type AuthAnswer = IssuedTokens & { readonly user: Record<string, unknown> };

/** One auth request: its body, who is calling, what they may read, and the client. */
export interface AuthRequest {
  readonly body: unknown;
  readonly access: Access;
  readonly userAgent?: string;
}

const REGISTER_KEYS = ['username', 'password', 'email'];
const INVALID_LOGIN = 'Invalid identifier or password';
const isBlocked = (row: UserRow) => row.blocked === 1;
const WITH_ROLE = { ...PLAIN_USER_QUERY, populate: new Map([['role', plainNode('role')]]) };

/**
 * The users-permissions auth controller (`controllers/auth.js`), check for check and message for
 * message: local login, registration, password change and reset, and the e-mail routes as far as
 * they go without an e-mail provider (nothing is ever sent).
 */
export function createAuthFlows(deps: { settings: AdvancedSettingsService; accounts: AccountService; sessions: SessionFlows }) {
  const { accounts, sessions } = deps;
  let dummyHash: Promise<string> | null = null;

  async function answer(row: Row, tokens: IssuedTokens, access: Access, withRole = false): Promise<AuthAnswer> {
    return { ...tokens, user: await accounts.present(row, withRole ? WITH_ROLE : PLAIN_USER_QUERY, access) };
  }

  /** Spends the time of a password check when there is no account, so timing tells nothing. */
  async function spendCheckTime(password: string): Promise<void> {
    dummyHash ??= hashPassword('hearth-dummy-password', 'compact');
    await accounts.checkPassword({ password: await dummyHash }, password);
  }

  return {
    /** `POST /api/auth/local`. */
    async login(req: AuthRequest): Promise<AuthAnswer> {
      const { identifier, password } = await checkBody('callback', req.body);
      const row = await accounts.forLogin(identifier);
      if (!row || typeof row.password !== 'string') {
        await spendCheckTime(password);
        throw validationError(INVALID_LOGIN);
      }
      if (!(await accounts.checkPassword(row, password))) throw validationError(INVALID_LOGIN);
      if (isBlocked(row)) throw applicationError('Your account has been blocked by an administrator');
      const client: ClientInfo = { deviceId: deviceIdOf(req.body), userAgent: req.userAgent };
      return answer(row, await sessions.issue(row.id, client), req.access);
    },

    /** `POST /api/auth/local/register`: a confirmed account with the default role (both as the advanced settings say). */
    async register(req: AuthRequest): Promise<AuthAnswer> {
      const settings = await deps.settings.get();
      if (!settings.allowRegister) throw applicationError('Register action is currently disabled');
      const body = isRecord(req.body) ? req.body : {};
      const invalid = Object.keys(body).filter((k) => !REGISTER_KEYS.includes(k));
      if (invalid.length > 0) throw validationError(`Invalid parameters: ${invalid.join(', ')}`);
      const { email, username, password } = await checkBody('register', body);
      const role = await deps.settings.defaultRole().catch(() => Promise.reject(applicationError('Impossible to find the default role')));
      if (await accounts.isTaken(email, username)) throw applicationError('Email or Username are already taken');
      const row = await accounts.create({ email, username, password, roleId: role.id });
      const tokens = await sessions.issue(row.id, { userAgent: req.userAgent });
      return answer(row, tokens, req.access, true);
    },

    /** `POST /api/auth/change-password`: needs the current password; ends every other session. */
    async changePassword(req: AuthRequest & { identity: UserIdentity | undefined }): Promise<AuthAnswer> {
      if (!req.identity) throw applicationError('You must be authenticated to reset your password');
      const { currentPassword, password } = await checkBody('changePassword', req.body);
      const row = await accounts.row(req.identity.userId);
      if (!row || !(await accounts.checkPassword(row, currentPassword))) throw validationError('The provided current password is invalid');
      if (currentPassword === password) throw validationError('Your new password must be different than your current password');
      await accounts.setPassword(row, password);
      return answer(row, await sessions.reissue(row.id, { deviceId: deviceIdOf(req.body), userAgent: req.userAgent }), req.access);
    },

    /** `POST /api/auth/reset-password` with a code issued by `issueResetCode`. */
    async resetPassword(req: AuthRequest): Promise<AuthAnswer> {
      const { password, passwordConfirmation, code } = await checkBody('resetPassword', req.body);
      if (password !== passwordConfirmation) throw validationError('Passwords do not match');
      const row = await accounts.forResetCode(code);
      if (!row) throw validationError('Incorrect code provided');
      await accounts.setPassword(row, password);
      return answer(row, await sessions.reissue(row.id, { userAgent: req.userAgent }), req.access);
    },

    /** `POST /api/auth/forgot-password`: always `{ ok: true }`; Hearth sends no e-mail, so no code is made. */
    async forgotPassword(body: unknown): Promise<{ ok: true }> {
      await checkBody('forgotPassword', body);
      return { ok: true };
    },

    /**
     * `POST /api/auth/send-email-confirmation`: Hearth sends no e-mail, so every valid body gets the
     * answer Strapi gives an unknown address, `{ email, sent: true }`. Strapi's 400 `Already
     * confirmed` for an existing account would tell who has one; no account is even looked up.
     */
    async sendEmailConfirmation(body: unknown): Promise<{ email: string; sent: true }> {
      const { email } = await checkBody('sendEmailConfirmation', body);
      return { email, sent: true };
    },

    /** `GET /api/auth/email-confirmation`: no confirmation code is ever issued, so none is valid. */
    async emailConfirmation(query: unknown): Promise<never> {
      await checkBody('emailConfirmation', query);
      throw validationError('Invalid token');
    },
  };
}

/** The auth operations of users & permissions. */
export type AuthFlows = ReturnType<typeof createAuthFlows>;
