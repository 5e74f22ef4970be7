import { jsonPage, jsonRows, type PageBound } from '../compiler/json-page.js';
import { rowJsonExpr } from '../compiler/json-select.js';
import { populateBound } from '../compiler/populate-bound.js';
import type { ListArgs } from '../compiler/list.js';
import { countRows } from '../compiler/list.js';
import type { DocumentQuery, Pagination, PopulateMap } from '../query/ast.js';
import { paginationMeta } from '../query/pagination.js';
import type { ContentTypeModel, Model } from '../schema/types.js';
import type { Db } from '../db/database.js';
import { MAX_POPULATED_ROWS, MAX_STATEMENT_SHAPES, SLOW_LIST_MS } from '../limits.js';
import type { Registry } from '../schema/registry.js';
import { compileContext, type Access, type DocumentDeps } from './context.js';
import { byDocument, scopeOf } from './reader.js';
import { defaultFields } from './serialize.js';

/**
 * Reads answered as JSON text that SQLite builds (compiler/json-select.ts): the same bytes as
 * JSON.stringify of the JS path's answer, without building the objects. undefined: this read's
 * shape is not printed this way (PostgreSQL, morphs, localizations, populate filters ...); the
 * caller takes the JS path.
 */

/** A read's statement parts: the row expression, and the bound of a populate that can outgrow the data (null: none). */
interface Shape {
  readonly expr: string;
  readonly bound: PageBound | null;
}

/** Shapes by key, per registry (a schema change brings a new one); null: not SQL-built. */
const expressions = new WeakMap<Registry, Map<string, Shape | null>>();

const targetsByRegistry = new WeakMap<Registry, readonly string[]>();

/** Every model any relation reachable from the registry's models targets (plugin models' own relations included). */
function relationTargets(registry: Registry): readonly string[] {
  const known = targetsByRegistry.get(registry);
  if (known) return known;
  const targets = new Set<string>();
  const queue: Model[] = [...registry.contentTypes, ...registry.plugins, ...registry.components];
  const seen = new Set<Model>(queue);
  for (let i = 0; i < queue.length; i++) {
    for (const attr of queue[i]?.attributes.values() ?? []) {
      if (attr.kind !== 'relation') continue;
      targets.add(attr.target);
      const target = registry.model(attr.target);
      if (target && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  const list = [...targets].sort();
  targetsByRegistry.set(registry, list);
  return list;
}

/** What a populate tree's SQL depends on, as text (filters, counts and windows only by their presence: such shapes are not SQL-built). */
function populateKey(map: PopulateMap): string {
  let key = '';
  for (const node of map.values()) {
    const plain = node.filters === null && !node.count && node.start === null && node.limit === null;
    const sort = node.sort.map((t) => `${t.path.join('.')}:${t.direction}`).join(',');
    const on = node.on ? [...node.on.entries()].map(([uid, f]) => `${uid}:${f.fields?.join(',') ?? '*'}{${populateKey(f.populate)}}`).join(';') : '-';
    key += `${node.attribute}|${node.fields?.join(',') ?? '*'}|${plain ? 1 : 0}|${sort}|${node.star ? 1 : 0}|${on}{${populateKey(node.populate)}};`;
  }
  return key;
}

/** The SQL expression of one root row's JSON for a query and its bound, or null when not supported. */
function rowExpr(deps: DocumentDeps, model: ContentTypeModel, query: DocumentQuery, access: Access): Shape | null {
  if (deps.database.kind !== 'sqlite') return null;
  const { registry } = deps;
  const filesAsStored = deps.files.asStored === true;
  const fields = query.fields ?? defaultFields(model);
  // Which relations are left out depends on what the caller may read: one bit per relation target.
  const readable = relationTargets(registry).map((uid) => (access.canRead(uid) ? 1 : 0)).join('');
  const key = `${model.uid}|${query.status}|${filesAsStored ? 1 : 0}|${readable}|${fields.join(',')}|${populateKey(query.populate)}`;
  let byKey = expressions.get(registry);
  if (!byKey) expressions.set(registry, (byKey = new Map()));
  let shape = byKey.get(key);
  if (shape === undefined) {
    const expr = rowJsonExpr({ registry, status: query.status, canRead: access.canRead, filesAsStored, defaultFields }, model, fields, query.populate);
    const bound = expr === null ? null : populateBound({ registry, status: query.status, canRead: access.canRead }, model, query.populate);
    shape = expr === null ? null : { expr, bound: bound === null ? null : { ...bound, max: MAX_POPULATED_ROWS } };
    if (byKey.size >= MAX_STATEMENT_SHAPES) byKey.delete(byKey.keys().next().value ?? '');
    byKey.set(key, shape);
  }
  return shape;
}

/** Where this read's statements run: a read thread's connection when there are read threads (read-pool.ts). */
const readsOf = (deps: DocumentDeps): Db => deps.reads?.() ?? deps.database.db;

/**
 * The rows of a page as JSON texts, or null when not read this way: an error in SQLite, or a
 * populate its bound counts past MAX_POPULATED_ROWS (the JS path counts it exactly and answers
 * the 400, or the page when the bound counted links it does not print).
 */
async function pageTexts(deps: DocumentDeps, db: Db, model: ContentTypeModel, args: ListArgs, shape: Shape, strict: boolean): Promise<string[] | null> {
  try {
    return await jsonPage(db, compileContext(deps), model, args, shape.expr, shape.bound);
  } catch (err) {
    if (strict) throw err;
    return null;
  }
}

/** `GET /api/:plural` as the answer's JSON text (`{"data":[...],"meta":{...}}`), or undefined. */
export async function findManyText(deps: DocumentDeps, model: ContentTypeModel, query: DocumentQuery, pagination: Pagination, access: Access, strict: boolean): Promise<string | undefined> {
  const shape = rowExpr(deps, model, query, access);
  if (shape === null) return undefined;
  const scope = await scopeOf(deps, model, query, query.filters);
  const fields = query.fields ?? defaultFields(model);
  const started = performance.now();
  // The count reads an index alone (tens of microseconds): cheaper here than waking a read thread for it.
  const [texts, total] = await Promise.all([
    pageTexts(deps, readsOf(deps), model, { scope, fields, sort: query.sort, pagination }, shape, strict),
    pagination.withCount ? countRows(deps.database.db, compileContext(deps), model, scope) : undefined,
  ]);
  if (texts === null) return undefined;
  const ms = performance.now() - started;
  if (ms >= SLOW_LIST_MS) deps.slowList?.(model, query, ms);
  return `{"data":[${texts.join(',')}],"meta":${JSON.stringify({ pagination: paginationMeta(pagination, total) })}}`;
}

/** `GET /api/:plural/:documentId` (single types: `documentId` null) as its JSON text; null when there is no such document, undefined when not read this way. */
export async function findOneText(deps: DocumentDeps, model: ContentTypeModel, documentId: string | null, query: DocumentQuery, access: Access, strict: boolean): Promise<string | null | undefined> {
  if (query.locale?.kind === 'all' || query.locale?.kind === 'list') return null;
  const shape = rowExpr(deps, model, query, access);
  if (shape === null) return undefined;
  const filters = documentId === null ? query.filters : byDocument(documentId, query.filters);
  const scope = await scopeOf(deps, model, query, filters);
  const fields = query.fields ?? defaultFields(model);
  const texts = await pageTexts(deps, readsOf(deps), model, { scope, fields, sort: query.sort, pagination: { mode: 'offset', start: 0, limit: 1, withCount: false } }, shape, strict);
  if (texts === null) return undefined;
  const [entry] = texts;
  return entry === undefined ? null : `{"data":${entry},"meta":{}}`;
}

/**
 * The JSON text of the row `rowId` of `model` read as `query` (its status, fields and populate) by
 * a caller who may read everything, in `db` (a write's transaction: what it wrote so far); null
 * when there is no such row, undefined when not read this way. Webhook and stream events take
 * their entry from here (documents/events.ts): the bytes JSON.stringify of the JS path's entry has.
 */
export async function entryText(deps: DocumentDeps, db: Db, model: ContentTypeModel, rowId: number, query: DocumentQuery): Promise<string | null | undefined> {
  const shape = rowExpr(deps, model, query, everyone);
  if (shape === null) return undefined;
  try {
    const texts = await jsonRows(db, model, [rowId], shape.expr, shape.bound);
    if (texts === null) return undefined;
    return texts[0] ?? null;
  } catch (err) {
    if (deps.verifyReads === true) throw err;
    return undefined;
  }
}

const everyone: Access = { canRead: () => true };

/** verifyReads: a SQL-built text must equal the JS path's, byte for byte. */
export function sameText(fast: string | null, slow: string | null): void {
  if (fast === slow) return;
  throw new Error(`verifyReads: the SQL-built answer differs from the JS path's\nSQL: ${String(fast)}\nJS:  ${String(slow)}`);
}
