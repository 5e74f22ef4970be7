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
      const parameters = [stored, ...(byLocale ? [locale] : []), ...(excludeId !== null ? [excludeId] : [])];
      const rows = await writeRows(env.db, `unique|${m.table}|${attribute.name}|${byLocale}|${draft}|${excludeId !== null}`, parameters, () => {
        let q = env.db.selectFrom(m.table).select('id').where(attribute.name, '=', stored as string);
        if (byLocale) q = q.where('locale', '=', locale);
        q = q.where('publishedAt', draft ? 'is' : 'is not', null);
        if (excludeId !== null) q = q.where('id', '<>', excludeId);
        return q;
      });
      return rows.length === 0;
    },
    checkRelations: (data) => missingRelations(env, model, data),
  };
}
