import type { ContentTypeModel } from '../schema/types.js';
import { copyVersion } from './publish.js';
import type { WriteEnv } from './store.js';
import { deleteRows } from './delete-rows.js';

/**
 * Draft & publish switched on: every published version without a draft gets one (a copy, so the
 * document reads as `published`), as Strapi 5's enableDraftAndPublish migration does.
 */
export async function enableDraftAndPublish(env: WriteEnv, model: ContentTypeModel): Promise<void> {
  const rows = await env.db
    .selectFrom(`${model.table} as p`)
    .select('p.id')
    .where('p.publishedAt', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom(`${model.table} as d`)
            .select('d.id')
            .whereRef('d.documentId', '=', 'p.documentId')
            .where('d.publishedAt', 'is', null)
            .where((eb) => eb.or([eb('d.locale', '=', eb.ref('p.locale')), eb.and([eb('d.locale', 'is', null), eb('p.locale', 'is', null)])])),
        ),
      ),
    )
    .orderBy('p.id')
    .execute();
  for (const row of rows) {
    await copyVersion(env, model, { fromId: Number(row.id), replaceId: null, status: 'draft', publishedAt: null });
  }
}

/** Draft & publish switched off: drafts are deleted and the published versions remain, as in Strapi 5. */
export async function disableDraftAndPublish(env: WriteEnv, model: ContentTypeModel): Promise<void> {
  const rows = await env.db.selectFrom(model.table).select('id').where('publishedAt', 'is', null).execute();
  await deleteRows(env, model, rows.map((r) => Number(r.id)));
}
