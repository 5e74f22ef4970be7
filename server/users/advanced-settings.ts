import type { UsersConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { getMeta, setMeta } from '../db/migrations.js';
import { AppError } from '../errors/app-error.js';
import { invalidFields } from './role-input.js';
import type { Role, RoleService } from './roles.js';
import { isRecord } from '../errors/is-record.js';

/** Where the admin's choices are kept: one JSON value of the internal key/value table. */
const META_KEY = 'users-permissions.advanced';
/** Strapi's `advanced.default_role` when nobody chose another. */
const DEFAULT_ROLE_TYPE = 'authenticated';

/** What the admin stored (each key only once chosen). */
interface Stored {
  readonly allowRegister?: boolean;
  readonly defaultRole?: string;
}

/** The users-permissions settings in force, and where registration's value comes from. */
export interface AdvancedSettings {
  /** `POST /api/auth/local/register` is open. */
  readonly allowRegister: boolean;
  /** `env`: UP_REGISTER_ENABLED is set and wins; `settings`: the admin's choice; `default`: open, as Strapi's. */
  readonly allowRegisterSource: 'env' | 'settings' | 'default';
  /** The type of the role new users get (register, and POST /api/users without a role). */
  readonly defaultRole: string;
}


function parseStored(text: string | undefined): Stored {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value)) return {};
    return {
      ...(typeof value.allowRegister === 'boolean' ? { allowRegister: value.allowRegister } : {}),
      ...(typeof value.defaultRole === 'string' ? { defaultRole: value.defaultRole } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * Strapi's users-permissions "advanced settings" that Hearth honours: registration open or closed,
 * and the default role of new users. The admin's choice is stored in the database; an
 * UP_REGISTER_ENABLED environment variable, when set, wins over it.
 */
export function createAdvancedSettings(deps: { db: Db; config: UsersConfig; roles: RoleService }) {
  const { db, config, roles } = deps;
  const stored = async (): Promise<Stored> => parseStored(await getMeta(db, META_KEY));
  /** The stored default role, if one was chosen and still exists. */
  const chosenRole = async (s: Stored): Promise<Role | undefined> => (s.defaultRole !== undefined ? roles.byType(s.defaultRole) : undefined);

  const service = {
    /** The settings in force. A stored default role that was deleted since falls back to `authenticated`. */
    async get(): Promise<AdvancedSettings> {
      const s = await stored();
      const allowRegisterSource = config.registerEnabled !== null ? 'env' : s.allowRegister !== undefined ? 'settings' : 'default';
      const allowRegister = config.registerEnabled ?? s.allowRegister ?? true;
      const chosen = await chosenRole(s);
      return { allowRegister, allowRegisterSource, defaultRole: chosen?.type ?? DEFAULT_ROLE_TYPE };
    },

    /** The role new users get (the chosen one, else `authenticated`), looked up once. */
    async defaultRole(): Promise<Role> {
      const role = (await chosenRole(await stored())) ?? (await roles.byType(DEFAULT_ROLE_TYPE));
      if (!role) throw new AppError('InternalServerError', 'the default role is missing');
      return role;
    },

    /** Stores the admin's choices (`{ allowRegister?, defaultRole? }`); the public role cannot be the default. */
    async update(body: unknown): Promise<AdvancedSettings> {
      if (!isRecord(body)) throw invalidFields([{ path: [], message: 'The body must be a JSON object', name: 'ValidationError' }]);
      const next: { allowRegister?: boolean; defaultRole?: string } = { ...(await stored()) };
      const { allowRegister, defaultRole } = body;
      if (allowRegister !== undefined) {
        if (typeof allowRegister !== 'boolean') throw invalidFields([{ path: ['allowRegister'], message: 'allowRegister must be a `boolean` type', name: 'ValidationError' }]);
        next.allowRegister = allowRegister;
      }
      if (defaultRole !== undefined) {
        const role = typeof defaultRole === 'string' ? await roles.byType(defaultRole) : undefined;
        if (!role || role.type === 'public') {
          throw invalidFields([{ path: ['defaultRole'], message: 'defaultRole must be the type of a role other than public', name: 'ValidationError' }]);
        }
        next.defaultRole = role.type;
      }
      await setMeta(db, META_KEY, JSON.stringify(next));
      return service.get();
    },
  };
  return service;
}

/** The users-permissions settings service. */
export type AdvancedSettingsService = ReturnType<typeof createAdvancedSettings>;
