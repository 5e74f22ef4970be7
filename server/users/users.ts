import type { PermissionService } from '../auth/permissions.js';
import type { UsersConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { DocumentService } from '../documents/index.js';
import type { Registry } from '../schema/registry.js';
import type { Logger } from '../logger.js';
import { createAccountService } from './accounts.js';
import { createAdvancedSettings } from './advanced-settings.js';
import { createAuthFlows } from './auth-flows.js';
import { createRoleService } from './roles.js';
import { createSessionFlows } from './session-flows.js';
import { createSessionManager } from './sessions.js';
import { userJwtStrategy } from './strategy.js';
import { createUserTokens } from './tokens.js';
import { createUserAdmin } from './user-admin.js';

/** What users & permissions is built from. */
export interface UsersDeps {
  readonly db: Db;
  readonly config: UsersConfig;
  /** The per-install secret end-user JWTs are signed with (`secrets.json` `jwtSecret`). */
  readonly secret: string;
  readonly permissions: PermissionService;
  readonly registry: () => Registry;
  readonly documents: DocumentService;
  readonly now: () => Date;
  readonly log: Logger;
}

/** Users & permissions, wired: accounts, roles, sessions, the auth operations and the user JWT strategy. */
export function createUsers(deps: UsersDeps) {
  const { db, config, now } = deps;
  const tokens = createUserTokens({ secret: deps.secret, now });
  const lifespans = { access: config.accessTokenLifespan, idle: config.idleRefreshTokenLifespan, max: config.maxRefreshTokenLifespan };
  const sessions = createSessionManager({ db, tokens, now, lifespans });
  const accounts = createAccountService({ db, documents: deps.documents, now });
  const roles = createRoleService({ db, permissions: deps.permissions, now, registry: deps.registry });
  const sessionFlows = createSessionFlows({ config, tokens, sessions, now, log: deps.log });
  const settings = createAdvancedSettings({ db, config, roles });
  const auth = createAuthFlows({ settings, accounts, sessions: sessionFlows });
  const jwt = userJwtStrategy({ config, tokens, sessions, accounts, roles, permissions: deps.permissions });
  const admin = createUserAdmin({ db, accounts, settings, sessions, now, documents: deps.documents });
  return { config, settings, tokens, sessions, accounts, roles, sessionFlows, auth, admin, strategy: jwt.strategy, identify: jwt.identify };
}

/** Users & permissions as the HTTP layer sees it. */
export type Users = ReturnType<typeof createUsers>;
