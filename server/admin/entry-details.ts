import type { Db } from '../db/database.js';
import { ADMIN_USERS_TABLE } from '../db/system-tables.js';
import { documentStatuses } from '../documents/index.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel } from '../schema/types.js';
import { isRecord } from '../errors/is-record.js';

/** An admin user as the content manager names an entry's creator or last editor (never the email or hash). */
export interface AdminRef {
  readonly id: number;
  readonly firstname: string | null;
  readonly lastname: string | null;
}

const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/**
 * Who created and last changed one row (the admin users of its createdBy/updatedBy columns), as
 * Strapi's content manager populates created_by_id/updated_by_id. A deleted admin reads as null.
 */
export async function entryAuthors(db: Db, model: ContentTypeModel, rowId: number): Promise<{ createdBy: AdminRef | null; updatedBy: AdminRef | null }> {
  const row = await db.selectFrom(model.table).select(['createdBy', 'updatedBy']).where('id', '=', rowId).executeTakeFirst();
  const ids = [row?.createdBy, row?.updatedBy].filter((v): v is number => v !== null && v !== undefined).map(Number);
  const users = ids.length === 0 ? [] : await db.selectFrom(ADMIN_USERS_TABLE).select(['id', 'firstname', 'lastname']).where('id', 'in', [...new Set(ids)]).execute();
  const byId = new Map<number, AdminRef>(users.map((u) => [Number(u.id), { id: Number(u.id), firstname: textOrNull(u.firstname), lastname: textOrNull(u.lastname) }]));
  const ref = (v: unknown): AdminRef | null => (v === null || v === undefined ? null : (byId.get(Number(v)) ?? null));
  return { createdBy: ref(row?.createdBy), updatedBy: ref(row?.updatedBy) };
}

/**
 * Adds `status` (draft, published, modified) to the related entries of an entry's relation
 * attributes, as Strapi's admin shows each relation's state: one status query per target type.
 */
export async function withRelationStatuses(db: Db, registry: Registry, model: ContentTypeModel, entry: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...entry };
  for (const attribute of model.attributes.values()) {
    if (attribute.kind !== 'relation') continue;
    const target = registry.contentType(attribute.target);
    const value = entry[attribute.name];
    if (!target || value === null || value === undefined) continue;
    const list = (Array.isArray(value) ? value : [value]).filter(isRecord);
    const statuses = await documentStatuses(db, target, list.map((e) => String(e.documentId)));
    const mark = (e: Record<string, unknown>) => {
      const locale = typeof e.locale === 'string' ? e.locale : '';
      return { ...e, status: statuses.get(String(e.documentId))?.get(locale) ?? 'draft' };
    };
    out[attribute.name] = Array.isArray(value) ? list.map(mark) : isRecord(value) ? mark(value) : value;
  }
  return out;
}
