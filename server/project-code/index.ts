import { baseName, readModule, sourcesIn } from './files.js';
import { applySteps, readMiddleware, type QueryStep } from './middleware.js';
import { scanProjectWide } from './project-wide.js';
import type { ActionConfig } from './routes.js';
import { scanApis, type ApiScan, type FoundRouter } from './scan-apis.js';
import type { ProjectCodeItem } from './types.js';

export type { ProjectCodeItem } from './types.js';

/** The actions of Strapi's core routes. */
const CORE_ACTIONS = new Set(['find', 'findOne', 'create', 'update', 'delete']);

/** What Hearth read of a project's code: the query defaults of its core routes, and the list of the rest. */
export interface ProjectCode {
  /** Every item, sorted by file, each once. */
  readonly items: readonly ProjectCodeItem[];
  /** The query a route's proved middlewares leave for the controller (the client's query when there are none). */
  routeQuery(uid: string, action: string, query: Record<string, unknown>): Record<string, unknown>;
  /** The items that belong to a content type: its own, and those of its API folder that name no type. */
  itemsFor(uid: string): ProjectCodeItem[];
}

/** One line of the start-up listing. */
export const describeItem = (i: ProjectCodeItem): string => `project code: ${i.file}: ${i.message}`;

type Middlewares = ApiScan['middlewares'];

/** The uid a route names a middleware by: `api::`, `global::` and `plugin::` as they are, a bare name in the route's own API. */
const middlewareUid = (name: string, api: string): string => (name.includes('::') ? name : `api::${api}.${name}`);

function readAction(router: FoundRouter, action: string, config: ActionConfig, middlewares: Middlewares, used: Set<string>) {
  const { uid } = router.reading;
  const items: (ProjectCodeItem & { action: string })[] = [];
  const steps: QueryStep[] = [];
  const at = (file: string, status: ProjectCodeItem['status'], message: string, api: string | null = router.api) => items.push({ file, uid, api, status, message, action });
  if (!CORE_ACTIONS.has(action)) at(router.file, 'not-applied', `config of "${action}", not a core route of ${uid}`);
  for (const ref of config.middlewares) {
    if (ref.kind === 'inline') {
      at(router.file, 'not-run', `line ${ref.line}: inline middleware of ${uid} {actions}, not run`);
      continue;
    }
    const name = middlewareUid(ref.name, router.api);
    const found = middlewares.get(name);
    if (!found) {
      at(router.file, 'not-run', `middleware ${ref.name} of ${uid} {actions} is not a project file, not run`);
      continue;
    }
    used.add(name);
    if (found.reading.ok) {
      steps.push(...found.reading.steps);
      at(found.file, 'applied', `applied to ${uid} {actions} (sets ${found.reading.keys.join(', ') || 'nothing'})`, found.api);
    } else {
      at(found.file, 'not-applied', `not applied to ${uid} {actions}: ${found.reading.reason}`, found.api);
    }
  }
  for (const policy of config.policies) at(router.file, 'not-run', `policy ${policy} of ${uid} {actions}, not run`);
  if (config.auth !== null) at(router.file, 'not-applied', `auth option of ${uid} {actions} not applied: Hearth checks the caller's permissions`);
  return { items, steps };
}

/** One line per file and message: the same middleware on several actions of a route is one item naming them all. */
function mergeActions(items: readonly (ProjectCodeItem & { action?: string })[]): ProjectCodeItem[] {
  const byKey = new Map<string, { item: ProjectCodeItem; actions: string[] }>();
  for (const { action, ...item } of items) {
    const key = `${item.file}\0${item.uid ?? ''}\0${item.status}\0${item.message}`;
    const seen = byKey.get(key);
    if (seen) {
      if (action !== undefined) seen.actions.push(action);
    } else {
      byKey.set(key, { item, actions: action === undefined ? [] : [action] });
    }
  }
  const out = [...byKey.values()].map(({ item, actions }) => ({ ...item, message: item.message.replace('{actions}', actions.join(', ')) }));
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * Reads a Strapi project's code without running it (issue 21): the core routers' per-action
 * middlewares, applied where they only assign literal query values, and everything else listed.
 */
export async function readProjectCode(root: string): Promise<ProjectCode> {
  const middlewares: Middlewares = new Map();
  for (const file of await sourcesIn(root, 'src/middlewares')) {
    const read = await readModule(root, file);
    middlewares.set(`global::${baseName(file)}`, { file, api: null, reading: read.ok ? readMiddleware(read.scope) : { ok: false, reason: read.reason } });
  }
  const scan = await scanApis(root, middlewares);
  const items: (ProjectCodeItem & { action?: string })[] = [...scan.items, ...(await scanProjectWide(root))];
  const routeSteps = new Map<string, QueryStep[]>();
  const used = new Set<string>();
  for (const router of scan.routers) {
    const { uid, actions, other } = router.reading;
    for (const [action, config] of actions) {
      const read = readAction(router, action, config, middlewares, used);
      items.push(...read.items);
      if (read.steps.length > 0) routeSteps.set(`${uid}#${action}`, [...(routeSteps.get(`${uid}#${action}`) ?? []), ...read.steps]);
    }
    for (const key of other) items.push({ file: router.file, uid, api: router.api, status: 'not-applied', message: `router option "${key}" of ${uid} not applied` });
  }
  for (const [name, m] of middlewares) {
    if (!used.has(name)) items.push({ file: m.file, uid: null, api: m.api, status: 'not-run', message: `middleware ${name}, used by no core route, not run` });
  }
  const merged = mergeActions(items);
  return {
    items: merged,
    routeQuery(uid, action, query) {
      const steps = routeSteps.get(`${uid}#${action}`);
      return steps ? applySteps(steps, query) : query;
    },
    itemsFor(uid) {
      const api = /^api::([^.]+)\./.exec(uid)?.[1] ?? null;
      return merged.filter((i) => i.uid === uid || (i.uid === null && i.api !== null && i.api === api));
    },
  };
}
