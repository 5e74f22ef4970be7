import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import type { PopulateMap, PopulateNode } from './ast.js';
import { ROOT, type CanRead, type Parsed } from './check.js';
import { openMap } from './populate-nodes.js';
import { checkDotPaths } from './populate-paths.js';
import { walkPopulate, type PopulateWalk } from './populate-walk.js';

export { populateAll } from './populate-nodes.js';
export { plainNode } from './populate-paths.js';

/** What parsing a populate needs: the model it starts at, the registry, and (for the caller's pass) what the caller may find. */
export interface PopulateScope {
  readonly model: Model;
  readonly registry: Registry;
  readonly canRead?: CanRead;
}

/**
 * How a populate is parsed: `strict` checks Strapi's three validator passes; `lenient` is the
 * populate of a query Strapi does not validate (single-type writes): only the caller's pass is
 * checked (what it reaches is still the caller's to read), and what does not apply is left out.
 */
export type PopulateMode = 'strict' | 'lenient';

/**
 * `populate` parsed in one walk (populate-walk.ts) into its typed entries. A failure of Strapi's
 * passes is thrown (the dotted paths' and the structure pass's at once, then the private pass's,
 * then the caller's: Strapi validates before it converts); a conversion error (nesting depth,
 * pagination, fragments) is returned, to be thrown once every parameter is validated.
 */
export function parsePopulate(raw: unknown, scope: PopulateScope, mode: PopulateMode = 'strict'): Parsed<PopulateMap> {
  const { model, registry, canRead } = scope;
  const strict = mode === 'strict';
  const walk: PopulateWalk = { registry, canRead, strict };
  const into = new Map<string, PopulateNode>();
  // Strapi does not validate an empty populate, nor `*` at the root.
  const checked = raw !== undefined && raw !== null && raw !== '' && raw !== '*';
  const dotted = typeof raw === 'string' || (Array.isArray(raw) && raw.length > 0 && raw.every((p) => typeof p === 'string'));
  if (checked && dotted && strict) checkDotPaths(Array.isArray(raw) ? (raw as string[]) : [raw as string], model, registry);
  const build = openMap(walk, raw, model, 0, into, false);
  if (checked) {
    const passes = { structure: strict && !dotted, hidden: strict, access: canRead !== undefined };
    walkPopulate(walk, raw, model, ROOT, true, { passes, build });
  }
  if (walk.hidden) throw walk.hidden.error;
  if (walk.access) throw walk.access.error;
  return walk.failed ? { ok: false, error: walk.failed.error } : { ok: true, value: into };
}
