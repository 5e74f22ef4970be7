import { sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../db/database.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { isRecord } from '../errors/is-record.js';

/** What identifies a file inside a blocks or rich-text value: its id and its urls (the file's and its formats'). */
export interface FileRefs {
  readonly id: number;
  readonly urls: readonly string[];
}

/** A row of a content type or component whose blocks or rich-text attribute refers to the file. */
export interface TextHit {
  readonly model: Model;
  readonly rowId: number;
  readonly field: string;
}


type TextAttribute = { readonly name: string; readonly type: 'blocks' | 'richtext' };

function textAttributes(model: Model): TextAttribute[] {
  const out: TextAttribute[] = [];
  for (const a of model.attributes.values()) if (a.kind === 'scalar' && (a.type === 'blocks' || a.type === 'richtext')) out.push({ name: a.name, type: a.type });
  return out;
}

/** `column` holds `needle` as is: exact and case-sensitive on both databases (LIKE folds case on SQLite and needs escapes). */
function holds(kind: Database['kind'], column: string, needle: string): Expression<SqlBool> {
  return kind === 'postgres' ? sql<SqlBool>`strpos(${sql.ref(column)}, ${needle}) > 0` : sql<SqlBool>`instr(${sql.ref(column)}, ${needle}) > 0`;
}

/** The substrings a stored value must hold to possibly refer to the file (blocks: the id as JSON writes it, with or without a space). */
function needles(attr: TextAttribute, refs: FileRefs): string[] {
  return attr.type === 'richtext' ? [...refs.urls] : [...refs.urls, `"id":${refs.id}`, `"id": ${refs.id}`];
}

/** A url as written in a value: the file's own, or the same path behind a server origin (Strapi's editor prefixes the backend URL). */
function sameUrl(written: string, urls: readonly string[]): boolean {
  return urls.some((url) => written === url || (url.startsWith('/') && written.endsWith(url) && /^https?:\/\/[^/]+$/.test(written.slice(0, -url.length))));
}

/** True when a blocks tree holds, at any depth, an image node showing the file (by id or url). */
export function blocksShow(value: unknown, refs: FileRefs): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isRecord(node)) {
      const image = node.image;
      if (node.type === 'image' && isRecord(image) && (image.id === refs.id || (typeof image.url === 'string' && sameUrl(image.url, refs.urls)))) return true;
      if (Array.isArray(node.children)) stack.push(node.children);
    }
  }
  return false;
}

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

function refersTo(attr: TextAttribute, value: unknown, refs: FileRefs): boolean {
  if (value === null || value === undefined) return false;
  if (attr.type === 'blocks') return blocksShow(parsed(value), refs);
  const text = String(value);
  return refs.urls.some((url) => text.includes(url));
}

/**
 * Rows whose blocks attributes show the file as an image node, or whose rich-text (markdown)
 * attributes hold one of its urls. One query per model with such attributes: the database keeps
 * only rows holding the file's id or a url, and only those are parsed to confirm.
 */
export async function textUsages(database: Pick<Database, 'kind' | 'db'>, registry: Registry, refs: FileRefs): Promise<TextHit[]> {
  const hits: TextHit[] = [];
  for (const model of [...registry.contentTypes, ...registry.components]) {
    const attrs = textAttributes(model);
    if (attrs.length === 0) continue;
    const rows = await database.db
      .selectFrom(model.table)
      .select(['id', ...attrs.map((a) => a.name)])
      .where((eb) => eb.or(attrs.flatMap((a) => needles(a, refs).map((n) => holds(database.kind, a.name, n)))))
      .orderBy('id')
      .execute();
    for (const row of rows) {
      for (const attr of attrs) if (refersTo(attr, row[attr.name], refs)) hits.push({ model, rowId: Number(row.id), field: attr.name });
    }
  }
  return hits;
}
