import type { Registry } from '../schema/registry.js';

/** A group of content-API actions, as the admin lists them (`GET /admin/api/permissions/actions`). */
export interface ActionGroup {
  /** `api::article.article`, `plugin::upload.content-api`, `plugin::users-permissions.auth`, ... */
  readonly uid: string;
  readonly displayName: string;
  readonly kind: 'collectionType' | 'singleType' | 'plugin';
  /** Full action names (`api::article.article.find`). */
  readonly actions: readonly string[];
}

const UP = 'plugin::users-permissions';
const named = (uid: string, names: readonly string[]) => names.map((n) => `${uid}.${n}`);

/** The actions of users & permissions' content-API controllers. */
export const USERS_PERMISSIONS_GROUPS: readonly ActionGroup[] = [
  {
    uid: `${UP}.auth`,
    displayName: 'Auth',
    kind: 'plugin',
    actions: named(`${UP}.auth`, [
      'callback',
      'connect',
      'register',
      'forgotPassword',
      'resetPassword',
      'emailConfirmation',
      'sendEmailConfirmation',
      'changePassword',
      'refresh',
      'logout',
      'getSessions',
      'revokeSession',
    ]),
  },
  { uid: `${UP}.user`, displayName: 'User', kind: 'plugin', actions: named(`${UP}.user`, ['find', 'findOne', 'count', 'me', 'create', 'update', 'destroy']) },
  { uid: `${UP}.role`, displayName: 'Role', kind: 'plugin', actions: named(`${UP}.role`, ['find', 'findOne', 'createRole', 'updateRole', 'deleteRole']) },
  { uid: `${UP}.permissions`, displayName: 'Permissions', kind: 'plugin', actions: named(`${UP}.permissions`, ['getPermissions']) },
];

/** The upload plugin's content-API actions. */
const UPLOAD_GROUP: ActionGroup = {
  uid: 'plugin::upload.content-api',
  displayName: 'Upload',
  kind: 'plugin',
  actions: named('plugin::upload.content-api', ['find', 'findOne', 'upload', 'destroy']),
};

/** Strapi's defaults: what the public and authenticated roles may do in a new project. */
export const DEFAULT_ROLE_ACTIONS: Readonly<Record<'public' | 'authenticated', readonly string[]>> = {
  public: named(`${UP}.auth`, ['callback', 'connect', 'register', 'forgotPassword', 'resetPassword', 'emailConfirmation', 'sendEmailConfirmation', 'refresh']),
  authenticated: [...named(`${UP}.auth`, ['changePassword', 'logout', 'getSessions', 'revokeSession']), `${UP}.user.me`],
};

/** Every action that exists: the content types' (in uid order), then upload's, then users & permissions'. */
export function actionGroups(registry: Registry): ActionGroup[] {
  const types = registry.contentTypes.map(
    (ct): ActionGroup => ({
      uid: ct.uid,
      displayName: ct.displayName,
      kind: ct.kind,
      actions: named(ct.uid, ct.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete']),
    }),
  );
  return [...types, UPLOAD_GROUP, ...USERS_PERMISSIONS_GROUPS];
}

/** The names among `actions` that no group knows, in the order given. */
export function unknownActions(registry: Registry, actions: readonly string[]): string[] {
  const known = new Set(actionGroups(registry).flatMap((g) => g.actions));
  return actions.filter((a) => !known.has(a));
}

/** One action in Strapi's nested permissions map. */
export interface ActionFlag {
  readonly enabled: boolean;
  readonly policy: string;
}
/** Strapi's permissions map: `{ 'api::article': { controllers: { article: { find: { enabled, policy } } } } }`. */
export type ActionsMap = Record<string, { controllers: Record<string, Record<string, ActionFlag>> }>;

/** Every action as Strapi's `getActions` nests them, enabled where `granted` holds it. */
export function actionsMap(registry: Registry, granted: ReadonlySet<string>): ActionsMap {
  const map: ActionsMap = {};
  for (const action of actionGroups(registry).flatMap((g) => g.actions)) {
    const [type = '', controller = '', name = ''] = action.split('.');
    const group = (map[type] ??= { controllers: {} });
    const actions = (group.controllers[controller] ??= {});
    actions[name] = { enabled: granted.has(action), policy: '' };
  }
  return map;
}

/** Action names from Strapi's nested map (`enabled: true` entries) or from a plain list. */
export function actionsFromInput(value: unknown): unknown {
  if (Array.isArray(value) || typeof value !== 'object' || value === null) return value;
  const names: string[] = [];
  for (const [type, group] of Object.entries(value)) {
    const controllers: unknown = typeof group === 'object' && group !== null ? (group as Record<string, unknown>).controllers : undefined;
    if (typeof controllers !== 'object' || controllers === null) continue;
    for (const [controller, actions] of Object.entries(controllers)) {
      if (typeof actions !== 'object' || actions === null) continue;
      for (const [name, flag] of Object.entries(actions)) {
        if (typeof flag === 'object' && flag !== null && (flag as Record<string, unknown>).enabled === true) names.push(`${type}.${controller}.${name}`);
      }
    }
  }
  return names;
}
