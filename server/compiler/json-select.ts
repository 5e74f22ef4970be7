import type { PopulateMap, PopulateNode } from '../query/ast.js';
import { plainNode, populateAll } from '../query/populate.js';
import { lookupField } from '../schema/fields.js';
import type { Registry } from '../schema/registry.js';
import type { Model, ScalarType } from '../schema/types.js';
import { linkOf, type Link } from './links.js';
import { VALUE_FUNCTION } from './sql-functions.js';

/**
 * SQLite builds a read's answer itself: one expression per root row that is the row's JSON text,
 * with the key order and value formatting the JS path (serializeRow + populateItems +
 * JSON.stringify) prints. Every populate level is a correlated subquery joined through linkOf,
 * filtered and ordered as populate-select.ts reads it. Shapes this does not print exactly
 * (morphs, localizations, populate filters/sort/windows/counts) compile to null: the caller then
 * takes the JS path. SQLite only (json_object, json_group_array ... ORDER BY).
 */


/** What a row's JSON depends on besides the model, fields and populate. */
export interface JsonEnv {
  readonly registry: Registry;
  readonly status: 'draft' | 'published';
  /** Whether the caller may read entries of a content type (relations to others are left out). */
  readonly canRead: (uid: string) => boolean;
  /** Whether populated file objects leave as stored (no URL prefix, no signing). */
  readonly filesAsStored: boolean;
  /** The fields an entry shows when its populate names none (documents' defaultFields). */
  readonly defaultFields: (model: Model) => readonly string[];
}

interface Walk extends JsonEnv {
  aliases: number;
}

const MAX_SAFE = '9007199254740991';
/** An SQL identifier and a string literal, quoted (also for populate-bound.ts). */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
export const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;
const slow = (type: ScalarType, col: string): string => `json(${VALUE_FUNCTION}(${literal(type)}, ${col}))`;

/** A stored value of `type` as JSON: the common stored forms in SQL, anything else through VALUE_FUNCTION. */
function valueExpr(type: ScalarType, col: string): string {
  switch (type) {
    case 'integer':
    case 'float':
    case 'decimal':
      // SQLite prints reals its own way (2.0, 1.0e+21, 17 digits where JS needs 16): integral
      // ones are printed as integers, the others by JS.
      return `CASE typeof(${col}) WHEN 'integer' THEN CASE WHEN ${col} BETWEEN -${MAX_SAFE} AND ${MAX_SAFE} THEN ${col} ELSE ${slow(type, col)} END WHEN 'real' THEN CASE WHEN ${col} = CAST(${col} AS INTEGER) AND abs(${col}) <= ${MAX_SAFE} THEN CAST(${col} AS INTEGER) ELSE ${slow(type, col)} END WHEN 'null' THEN NULL ELSE ${slow(type, col)} END`;
    case 'boolean':
      return `CASE typeof(${col}) WHEN 'null' THEN NULL WHEN 'integer' THEN CASE ${col} WHEN 1 THEN json('true') ELSE json('false') END ELSE ${slow(type, col)} END`;
    case 'biginteger':
    case 'timestamp':
      return `CASE typeof(${col}) WHEN 'null' THEN NULL WHEN 'text' THEN ${col} WHEN 'integer' THEN CAST(${col} AS TEXT) ELSE ${slow(type, col)} END`;
    case 'json':
    case 'blocks':
      // Stored as JSON.stringify wrote it: json() keeps that text as it is.
      return `json(${col})`;
    default:
      return `CASE typeof(${col}) WHEN 'text' THEN ${col} WHEN 'null' THEN NULL ELSE ${slow('string', col)} END`;
  }
}

/** Keys JS objects would not keep in insertion order (array indexes) or at all (`__proto__`). */
const unprintable = (key: string): boolean => /^(0|[1-9]\d*)$/.test(key) || key === '__proto__';

const isDraftAndPublish = (model: Model): boolean => model.modelType === 'contentType' && model.draftAndPublish;
const plain = (node: PopulateNode): boolean => node.filters === null && node.sort.length === 0 && !node.count && node.start === null && node.limit === null;

/** A populate of linked rows printed here: no filters, count or window; a sort only by the target's own scalar columns. */
const linkable = (node: PopulateNode, target: Model): boolean =>
  node.filters === null && !node.count && node.start === null && node.limit === null && node.sort.every((t) => t.path.length === 1 && lookupField(target, t.path[0] ?? '')?.kind === 'scalar');

/** The fields printed for linked entries (populate.ts fieldsFor): with a sort, a relation prints the requested fields before id. */
function linkedFields(w: Walk, target: Model, node: PopulateNode, relation: boolean): readonly string[] {
  if (!node.fields) return w.defaultFields(target);
  if (!relation || node.sort.length === 0) return node.fields;
  const always = target.modelType === 'contentType' ? ['id', 'documentId'] : ['id'];
  return [...node.fields.filter((f) => !always.includes(f)), ...always];
}

/**
 * `json_object(...)` of one row of `model` aliased `alias`: `fields` in order, then the populated
 * attributes (dynamic zones last), then `extra` pairs (`__component`). Null when not supported.
 */
function objectExpr(w: Walk, model: Model, alias: string, fields: readonly string[], populate: PopulateMap, extra: readonly string[] = []): string | null {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const name of fields) {
    if (seen.has(name)) continue;
    seen.add(name);
    const field = lookupField(model, name);
    if (!field || field.kind !== 'scalar' || unprintable(name)) return null;
    const col = `${alias}.${ident(name)}`;
    // The row id (INTEGER PRIMARY KEY) is always an integer.
    parts.push(literal(name), name === 'id' ? `CASE WHEN ${col} <= ${MAX_SAFE} THEN ${col} ELSE ${slow('integer', col)} END` : valueExpr(field.type, col));
  }
  const ordered = [...populate.values()].sort((a, b) => zoneRank(model, a) - zoneRank(model, b));
  for (const node of ordered) {
    if (model.morphs?.get(node.attribute)) return null;
    const field = lookupField(model, node.attribute);
    if (!field || field.kind === 'scalar' || field.kind === 'hidden') continue;
    if (seen.has(node.attribute) || unprintable(node.attribute)) return null;
    const value = populatedExpr(w, model, alias, node);
    if (value === null) return null;
    if (value === undefined) continue;
    seen.add(node.attribute);
    parts.push(literal(node.attribute), value);
  }
  return `json_object(${[...parts, ...extra].join(', ')})`;
}

const zoneRank = (model: Model, node: PopulateNode): number => (model.attributes.get(node.attribute)?.kind === 'dynamiczone' ? 1 : 0);

/** One populated attribute's JSON; undefined when it is left out of the answer, null when not supported. */
function populatedExpr(w: Walk, model: Model, alias: string, node: PopulateNode): string | null | undefined {
  const attr = model.attributes.get(node.attribute);
  if (!attr) return null;
  const link = linkOf(w.registry, model, attr.name);
  switch (attr.kind) {
    case 'relation': {
      if (!link?.target || !w.canRead(link.target.uid)) return undefined;
      return linkable(node, link.target) ? linkedExpr(w, { link, target: link.target, parent: alias, node, many: attr.toMany, relation: true }) : null;
    }
    case 'media':
      if (!link?.target) return undefined;
      return linkable(node, link.target) && w.filesAsStored ? linkedExpr(w, { link, target: link.target, parent: alias, node, many: attr.multiple, relation: true }) : null;
    case 'component':
      if (!link?.target) return undefined;
      return linkable(node, link.target) ? linkedExpr(w, { link, target: link.target, parent: alias, node, many: attr.repeatable, relation: false }) : null;
    case 'dynamiczone':
      if (!link) return undefined;
      return zoneExpr(w, link, alias, node, attr.components);
    case 'localizations':
      if (model.modelType !== 'contentType') return undefined;
      return plain(node) ? localizationsExpr(w, model, alias, node) : null;
    default:
      return null;
  }
}

/** The link table's fixed columns (a morph's type and field, a component's field) as conditions on `l`. */
export const fixedSql = (link: Link, l: string): string => link.fixed.map((f) => ` AND ${l}.${ident(f.column)} = ${literal(f.value)}`).join('');

/** One populated link: the rows of `target` linked to the row `parent` through `link`. */
interface Linked {
  readonly link: Link;
  readonly target: Model;
  readonly parent: string;
  readonly node: PopulateNode;
  readonly many: boolean;
  /** A relation or media (not a component): what fieldsFor prints with a sort. */
  readonly relation: boolean;
}

/**
 * The entries linked to the row `parent` through `link`: the first one (or null), or all of them
 * in the populate's sort then link order, each linked row once (the JS path's `once`), in the
 * status being read.
 */
function linkedExpr(w: Walk, args: Linked): string | null {
  const { link, target, parent, node, many } = args;
  const l = `l${++w.aliases}`;
  const t = `t${w.aliases}`;
  const entry = objectExpr(w, target, t, linkedFields(w, target, node, args.relation), node.populate);
  if (entry === null) return null;
  const self = `${l}.${ident(link.self)}`;
  const other = `${l}.${ident(link.other)}`;
  const order = `${l}.${ident(link.order)}`;
  let from = `FROM ${ident(link.table)} ${l} JOIN ${ident(target.table)} ${t} ON ${t}."id" = ${other} WHERE ${self} = ${parent}."id"${fixedSql(link, l)}`;
  if (isDraftAndPublish(target)) from += ` AND ${t}."publishedAt" IS ${w.status === 'draft' ? '' : 'NOT '}NULL`;
  // json(): a sorted subquery's value loses its JSON subtype (it would be printed as a string).
  // As populate-select.ts orders them: the sort (ascending with NULLs first, descending with NULLs last), then link order.
  const sorted = node.sort.map((term) => `${t}.${ident(term.path[0] ?? '')} ${term.direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'}, `).join('');
  if (!many) return `json((SELECT ${entry} ${from} ORDER BY ${sorted}${order}, ${l}."id" LIMIT 1))`;
  // A link earlier in (order, id) naming the same row makes this one a repeat (SQLite sorts NULLs
  // first); looked for only when the parent has two links to one row (`n.once` false).
  const e = `e${w.aliases}`;
  const n = `n${w.aliases}`;
  const eOrder = `${e}.${ident(link.order)}`;
  const earlier = `(${eOrder} IS NULL AND ${order} IS NOT NULL) OR ${eOrder} < ${order} OR ((${eOrder} = ${order} OR (${eOrder} IS NULL AND ${order} IS NULL)) AND ${e}."id" < ${l}."id")`;
  const repeat = `EXISTS (SELECT 1 FROM ${ident(link.table)} ${e} WHERE ${e}.${ident(link.self)} = ${self} AND ${e}.${ident(link.other)} = ${other}${fixedSql(link, e)} AND (${earlier}))`;
  const once = `(SELECT count(*) = count(DISTINCT ${n}.${ident(link.other)}) AS once FROM ${ident(link.table)} ${n} WHERE ${n}.${ident(link.self)} = ${parent}."id"${fixedSql(link, n)}) ${n}`;
  return `(SELECT json_group_array(${entry} ORDER BY ${sorted}${order}, ${l}."id") FROM ${once}, ${from.slice('FROM '.length)} AND (${n}.once OR NOT ${repeat}))`;
}

/**
 * The other locales of the row's document, in id order (as populate.ts reads them by documentId):
 * rows in the status being read (published rows for types without draft & publish).
 */
function localizationsExpr(w: Walk, model: Model, parent: string, node: PopulateNode): string | null {
  const t = `t${++w.aliases}`;
  const entry = objectExpr(w, model, t, node.fields ?? w.defaultFields(model), node.populate);
  if (entry === null) return null;
  const status = isDraftAndPublish(model) && w.status === 'draft' ? 'IS NULL' : 'IS NOT NULL';
  return `(SELECT json_group_array(${entry} ORDER BY ${t}."id") FROM ${ident(model.table)} ${t} WHERE ${t}."documentId" = ${parent}."documentId" AND ${t}."publishedAt" ${status} AND ${t}."locale" IS NOT ${parent}."locale")`;
}

/** A dynamic zone: its components in link order, each `{ ...entry, __component }`; links to components not printed are left out. */
function zoneExpr(w: Walk, link: Link, parent: string, node: PopulateNode, components: readonly string[]): string | null {
  if (link.type === null) return null;
  const l = `l${++w.aliases}`;
  const type = `${l}.${ident(link.type)}`;
  const joins: string[] = [];
  const cases: string[] = [];
  const found: string[] = [];
  for (const uid of components) {
    if (node.on && !node.on.has(uid)) continue;
    const component = w.registry.component(uid);
    if (!component) continue;
    const fragment = node.on?.get(uid) ?? { ...plainNode(uid), populate: node.star ? populateAll(component) : new Map<string, PopulateNode>() };
    const c = `t${++w.aliases}`;
    const entry = objectExpr(w, component, c, fragment.fields ?? w.defaultFields(component), fragment.populate, [literal('__component'), literal(uid)]);
    if (entry === null) return null;
    // One LEFT JOIN per component: a link's row is found in its own component's table only.
    joins.push(` LEFT JOIN ${ident(component.table)} ${c} ON ${type} = ${literal(uid)} AND ${c}."id" = ${l}.${ident(link.other)}`);
    cases.push(`WHEN ${literal(uid)} THEN ${entry}`);
    found.push(`${c}."id" IS NOT NULL`);
  }
  if (cases.length === 0) return `json('[]')`;
  const order = `${l}.${ident(link.order)}`;
  const where = `${l}.${ident(link.self)} = ${parent}."id"${fixedSql(link, l)} AND (${found.join(' OR ')})`;
  return `(SELECT json_group_array(CASE ${type} ${cases.join(' ')} END ORDER BY ${order}, ${l}."id") FROM ${ident(link.table)} ${l}${joins.join('')} WHERE ${where})`;
}

/**
 * The SQL expression (over the root row aliased `t0`) whose value is that row's JSON text as the
 * JS path prints it, or null when this shape is not supported.
 */
export function rowJsonExpr(env: JsonEnv, model: Model, fields: readonly string[], populate: PopulateMap): string | null {
  const walk: Walk = { ...env, aliases: 0 };
  return objectExpr(walk, model, 't0', fields, populate);
}
