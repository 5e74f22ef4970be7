import type { PopulateMap, PopulateNode } from '../query/ast.js';
import { plainNode, populateAll } from '../query/populate.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { fixedSql, ident, literal } from './json-select.js';
import { linkOf, type Link } from './links.js';

/**
 * How many entries a populate may print is bounded by the links stored for a page's rows, unless a
 * list is populated below a level whose entries can be reached more than once (a relation, media,
 * localizations or a morph relation: an author under each of 100 books): then each such entry
 * prints its own lists again, and 100 books x an author's 100 books x ... grows by a factor per
 * level from a tiny database. Components and zone entries belong to one parent row: lists below
 * them alone print what is stored. Such populates are counted against MAX_POPULATED_ROWS
 * (documents/populate-budget.ts on the JS path, `populateBound` below in an SQL-built read's
 * statement).
 */

/** The nodes populated under `node` on entries of `target` (a dynamic zone's fragments, a `*`). */
function childMaps(registry: Registry, target: Model | null | undefined, node: PopulateNode, zone: readonly string[] | null): { model: Model | null | undefined; map: PopulateMap }[] {
  if (zone === null) return [{ model: target, map: node.populate }];
  return zone.flatMap((uid) => {
    const component = registry.component(uid);
    if (!component || (node.on && !node.on.has(uid))) return [];
    return [{ model: component, map: node.on?.get(uid)?.populate ?? (node.star ? populateAll(component) : new Map<string, PopulateNode>()) }];
  });
}

/**
 * Whether a populate of `model` has a list (to-many relation, multiple media, repeatable
 * component, dynamic zone, localizations, morph list) below a level whose entries can be shared
 * (`shared`: a relation, media, localizations or morph level above): the populates whose answer
 * can outgrow the data. A morph relation populating further counts (its targets are known only
 * when read).
 */
export function fansOut(registry: Registry, model: Model | null | undefined, populate: PopulateMap, shared = false): boolean {
  if (!model) return false;
  for (const node of populate.values()) {
    const morph = model.morphs?.get(node.attribute);
    if (morph) {
      const list = morph.relation === 'morphToMany' || morph.relation === 'morphMany';
      const further = node.star || node.populate.size > 0 || [...(node.on?.values() ?? [])].some((f) => f.populate.size > 0);
      if ((shared && list) || further) return true;
      continue;
    }
    const attr = model.attributes.get(node.attribute);
    if (!attr || attr.kind === 'scalar') continue;
    const list = attr.kind === 'dynamiczone' || attr.kind === 'localizations' || (attr.kind === 'relation' && attr.toMany) || (attr.kind === 'media' && attr.multiple) || (attr.kind === 'component' && attr.repeatable);
    if (shared && list) return true;
    const below = shared || attr.kind === 'relation' || attr.kind === 'media' || attr.kind === 'localizations';
    const target = attr.kind === 'localizations' ? model : linkOf(registry, model, attr.name)?.target;
    for (const child of childMaps(registry, target, node, attr.kind === 'dynamiczone' ? attr.components : null)) {
      if (fansOut(registry, child.model, child.map, below)) return true;
    }
  }
  return false;
}

/** What the bound depends on besides the populate. */
export interface BoundEnv {
  readonly registry: Registry;
  readonly status: 'draft' | 'published';
  /** Whether the caller may read entries of a content type (relations to others print nothing). */
  readonly canRead: (uid: string) => boolean;
}

interface Walk extends BoundEnv {
  readonly ctes: string[];
  readonly totals: string[];
}

const statusSql = (w: Walk, model: Model, t: string): string =>
  model.modelType === 'contentType' && model.draftAndPublish ? ` AND ${t}."publishedAt" IS ${w.status === 'draft' ? '' : 'NOT '}NULL` : '';

/**
 * A level: the rows of `target` reached from the level `parent` through `link` (`type`: a zone's
 * component), each weighted by how often it is printed at most. CROSS JOIN keeps SQLite's loop
 * order: from the few parent rows through the link's index, never a scan of the whole link table.
 */
function linkLevel(w: Walk, parent: string, link: Link, target: Model, type: string | null): string {
  const name = `c${w.ctes.length + 1}`;
  const typed = type === null || link.type === null ? '' : ` AND l.${ident(link.type)} = ${literal(type)}`;
  w.ctes.push(
    `${name}("id", "w") AS (SELECT l.${ident(link.other)}, sum(p."w") FROM ${parent} p CROSS JOIN ${ident(link.table)} l ON l.${ident(link.self)} = p."id"${fixedSql(link, 'l')}${typed} JOIN ${ident(target.table)} t ON t."id" = l.${ident(link.other)}${statusSql(w, target, 't')} GROUP BY l.${ident(link.other)})`,
  );
  w.totals.push(`coalesce((SELECT sum("w") FROM ${name}), 0)`);
  return name;
}

/** The other locales of each entry of the level `parent`, as json-select.ts reads them. */
function localeLevel(w: Walk, parent: string, model: Model): string {
  const name = `c${w.ctes.length + 1}`;
  const status = model.modelType === 'contentType' && model.draftAndPublish && w.status === 'draft' ? 'IS NULL' : 'IS NOT NULL';
  const table = ident(model.table);
  w.ctes.push(
    `${name}("id", "w") AS (SELECT t."id", sum(p."w") FROM ${parent} p CROSS JOIN ${table} o ON o."id" = p."id" CROSS JOIN ${table} t ON t."documentId" = o."documentId" AND t."publishedAt" ${status} AND t."locale" IS NOT o."locale" GROUP BY t."id")`,
  );
  w.totals.push(`coalesce((SELECT sum("w") FROM ${name}), 0)`);
  return name;
}

/** Adds the levels of `populate` on entries of `model` (the level `parent`); false when a node is not bounded here (a morph). */
function levels(w: Walk, model: Model, parent: string, populate: PopulateMap): boolean {
  for (const node of populate.values()) {
    if (model.morphs?.get(node.attribute)) return false;
    const attr = model.attributes.get(node.attribute);
    if (!attr || attr.kind === 'scalar' || node.count) continue;
    if (attr.kind === 'localizations') {
      if (model.modelType === 'contentType' && !levels(w, model, localeLevel(w, parent, model), node.populate)) return false;
      continue;
    }
    const link = linkOf(w.registry, model, attr.name);
    if (!link) continue;
    if (attr.kind === 'dynamiczone') {
      for (const uid of attr.components) {
        const component = w.registry.component(uid);
        if (!component || (node.on && !node.on.has(uid))) continue;
        const fragment = node.on?.get(uid) ?? { ...plainNode(uid), populate: node.star ? populateAll(component) : new Map<string, PopulateNode>() };
        if (!levels(w, component, linkLevel(w, parent, link, component, uid), fragment.populate)) return false;
      }
      continue;
    }
    const target = link.target;
    if (!target || (attr.kind === 'relation' && !w.canRead(target.uid))) continue;
    if (!levels(w, target, linkLevel(w, parent, link, target, null), node.populate)) return false;
  }
  return true;
}

/** The levels of a bound (`c1 AS (...), c2 ...`, from the roots `c0("id", "w")` the statement defines) and their sum. */
export interface PopulateBound {
  readonly levels: string;
  readonly total: string;
}

/**
 * What counts at least as many entries as populating `populate` prints, from the root rows `c0`:
 * per level, each row reached is weighted by how many times its parents are printed (so 100 books
 * x an author x 100 books is three small GROUP BYs, not a million rows). Every link counts (a
 * to-one prints its first), so it may count more than is printed, never fewer. Null when
 * `populate` cannot outgrow the data (fansOut) or has a level not counted here. SQLite, as the
 * SQL-built reads it guards (json-page.ts).
 */
export function populateBound(env: BoundEnv, model: Model, populate: PopulateMap): PopulateBound | null {
  if (!fansOut(env.registry, model, populate)) return null;
  const w: Walk = { ...env, ctes: [], totals: [] };
  if (!levels(w, model, 'c0', populate) || w.totals.length === 0) return null;
  return { levels: w.ctes.join(', '), total: w.totals.join(' + ') };
}
