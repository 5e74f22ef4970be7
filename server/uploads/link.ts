import type { Db } from '../db/database.js';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import { applyMedia, type WriteEnv } from '../documents/index.js';
import { validationError } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import type { LinkRequest } from './file-info.js';

/** A checked `ref`/`refId`/`field`: an existing row and one of its media attributes. */
export interface ResolvedLink {
  readonly model: Model;
  /** The numeric row id of the entry (or component), as Strapi's refId is (transcript 150). */
  readonly rowId: number;
  readonly field: string;
  readonly multiple: boolean;
}

const bodyError = (param: string, message: string) => validationError(message, { source: 'body', param });

/**
 * Checks a link before anything is stored. Strapi does not check it (an unknown model or row
 * fails later or links nothing); Hearth answers a 400 naming the offending field.
 */
export async function resolveLink(db: Db, registry: Registry, link: LinkRequest): Promise<ResolvedLink> {
  const model = registry.model(link.ref);
  if (!model) throw bodyError('ref', `Invalid ref: "${link.ref}" is not a content-type or component uid`);
  const attribute = model.attributes.get(link.field);
  if (attribute?.kind !== 'media') throw bodyError('field', `Invalid field: "${link.field}" is not a media attribute of ${model.uid}`);
  if (!/^\d+$/.test(link.refId)) throw bodyError('refId', `Invalid refId: expected the numeric id of an entry of ${model.uid}`);
  const rowId = Number(link.refId);
  const row = await db.selectFrom(model.table).select('id').where('id', '=', rowId).executeTakeFirst();
  if (!row) throw bodyError('refId', `Invalid refId: ${model.uid} has no entry with id ${link.refId}`);
  return { model, rowId, field: link.field, multiple: attribute.multiple };
}

/**
 * Links new files to the entry's media field: appended after the files already there, or, for a
 * single media field, in place of the file it held.
 */
export async function applyLink(env: WriteEnv, link: ResolvedLink, fileIds: readonly number[]): Promise<void> {
  const existing = await env.db
    .selectFrom(FILES_RELATED_TABLE)
    .select('file_id')
    .where('related_type', '=', link.model.uid)
    .where('related_id', '=', link.rowId)
    .where('field', '=', link.field)
    .orderBy('ord')
    .orderBy('id')
    .execute();
  const ids = link.multiple ? [...existing.map((r) => r.file_id), ...fileIds] : fileIds.slice(0, 1);
  await applyMedia(env, link.model, link.rowId, link.field, ids);
}
