import type { Row } from '../db/database.js';
import type { ContentTypeModel } from '../schema/types.js';
import { toStorage } from './scalars.js';
import { missingRelations, type WriteEnv } from './store.js';
import type { EntityValidationOptions } from './validate.js';
import { writeRows } from './write-shapes.js';

/** The options a write validates a body with: its mode and status, and the lookups (unique values, relations) it runs in the write's transaction. */
export function validationOptions(env: WriteEnv, model: ContentTypeModel, args: { mode: 'creation' | 'update'; isDraft: boolean; locale: string | null; entity: Row | null }): EntityValidationOptions {
  return {
    ...args,
    async isUnique({ model: m, attribute, value, isDraft, locale, excludeId }) {
      let stored: unknown;
      try {
        stored = toStorage(attribute, value);
      } catch {
        return true;
      }
      const byLocale = m.localized && locale !== null;
      const draft = m.draftAndPublish && isDraft;
      const seen = env.uniqueSeen;
      const seenKey = `${m.table}\u0000${attribute.name}\u0000${byLocale ? String(locale) : ''}\u0000${typeof stored}:${String(stored)}`;
      const remember = seen !== undefined && m.draftAndPublish && excludeId === null;
      if (remember && !isDraft) {
        const published = seen.get(seenKey);
        if (published !== undefined) return !published;
      }
      const both = remember && isDraft;
      const parameters = [stored, ...(byLocale ? [locale] : []), ...(excludeId !== null ? [excludeId] : [])];
      const rows = await writeRows(env.db, `unique|${m.table}|${attribute.name}|${byLocale}|${both ? 'both' : draft}|${excludeId !== null}`, parameters, () => {
        let q = env.db.selectFrom(m.table).select(['id', 'publishedAt']).where(attribute.name, '=', stored as string);
        if (byLocale) q = q.where('locale', '=', locale);
        if (!both) q = q.where('publishedAt', draft ? 'is' : 'is not', null);
        if (excludeId !== null) q = q.where('id', '<>', excludeId);
        return q;
      });
      if (!both || seen === undefined) return rows.length === 0;
      // One look for both versions (the table is read whole when the column has no index): a
      // create writes no published row of its type before its publish check asks the same.
      seen.set(seenKey, rows.some((r) => r.publishedAt !== null));
      return !rows.some((r) => r.publishedAt === null);
    },
    checkRelations: (data) => missingRelations(env, model, data),
  };
}
