import { readModule, sourcesIn, dirsIn, baseName } from './files.js';
import { readMiddleware, type MiddlewareReading } from './middleware.js';
import { factoryCall, readRoutes, type RoutesReading } from './routes.js';
import type { ProjectCodeItem } from './types.js';

/** A core router found in a project, with the file it is in. */
export interface FoundRouter {
  readonly file: string;
  readonly api: string;
  readonly reading: Extract<RoutesReading, { kind: 'core' }>;
}

/** What the `src/api/` folders hold: core routers, middlewares by uid, and the items listed as they are. */
export interface ApiScan {
  readonly routers: FoundRouter[];
  /** Middleware files by uid (`api::<api>.<name>`, `global::<name>`), read. */
  readonly middlewares: Map<string, { readonly file: string; readonly api: string | null; readonly reading: MiddlewareReading }>;
  readonly items: ProjectCodeItem[];
}

const KIND_FACTORIES: Record<string, { factory: string; what: string }> = {
  controllers: { factory: 'createCoreController', what: 'custom controller' },
  services: { factory: 'createCoreService', what: 'custom service' },
};

/** Controllers and services: the plain `createCoreX('<uid>')` Strapi generates does nothing Hearth lacks; anything else is listed. */
async function scanFactories(root: string, api: string, folder: string, items: ProjectCodeItem[]): Promise<void> {
  const kind = KIND_FACTORIES[folder];
  if (!kind) return;
  for (const file of await sourcesIn(root, `src/api/${api}/${folder}`)) {
    const read = await readModule(root, file);
    const call = read.ok ? factoryCall(read.scope.exported, kind.factory) : null;
    if (call && call.rest.length === 0) continue;
    const uid = call?.uid ?? `api::${api}.${baseName(file)}`;
    items.push({ file, uid, api, status: 'not-run', message: `${kind.what} of ${uid}, not run` });
  }
}

/** Reads every `src/api/<api>/` folder: routes, middlewares, controllers, services, policies, lifecycles. */
export async function scanApis(root: string, middlewares: ApiScan['middlewares']): Promise<ApiScan> {
  const routers: FoundRouter[] = [];
  const items: ProjectCodeItem[] = [];
  for (const api of await dirsIn(`${root}/src/api`)) {
    for (const file of await sourcesIn(root, `src/api/${api}/routes`)) {
      const read = await readModule(root, file);
      const reading: RoutesReading = read.ok ? readRoutes(read.scope) : { kind: 'unknown', reason: read.reason };
      if (reading.kind === 'core') routers.push({ file, api, reading });
      else if (reading.kind === 'custom') items.push({ file, uid: null, api, status: 'not-run', message: `custom routes, not served: ${reading.routes.join(', ') || 'none'}` });
      else items.push({ file, uid: null, api, status: 'not-run', message: `routes file not read: ${reading.reason}` });
    }
    for (const file of await sourcesIn(root, `src/api/${api}/middlewares`)) {
      const read = await readModule(root, file);
      middlewares.set(`api::${api}.${baseName(file)}`, { file, api, reading: read.ok ? readMiddleware(read.scope) : { ok: false, reason: read.reason } });
    }
    await scanFactories(root, api, 'controllers', items);
    await scanFactories(root, api, 'services', items);
    for (const file of await sourcesIn(root, `src/api/${api}/policies`)) {
      items.push({ file, uid: null, api, status: 'not-run', message: `policy api::${api}.${baseName(file)}, not run` });
    }
    for (const type of await dirsIn(`${root}/src/api/${api}/content-types`)) {
      for (const file of await sourcesIn(root, `src/api/${api}/content-types/${type}`)) {
        if (baseName(file) !== 'lifecycles') continue;
        items.push({ file, uid: `api::${api}.${type}`, api, status: 'not-run', message: `lifecycle hooks of api::${api}.${type}, not run` });
      }
    }
  }
  return { routers, middlewares, items };
}
