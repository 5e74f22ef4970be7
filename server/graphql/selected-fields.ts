import type { FieldNode } from 'graphql';
import { FILE_UID, type Model } from '../schema/types.js';

const TIMESTAMPS = new Set(['createdAt', 'updatedAt', 'publishedAt']);

/**
 * The REST `fields` of a content type's selection: the scalar attributes and timestamps it
 * selects, so a read loads and prints only those (a list of 25 recipes selecting a title reads no
 * long text). `publishedAt` and `locale` are always read when the type has them: the relation
 * loader reads a parent's status and locale from them. `id` and `documentId` REST selects always.
 * Undefined (every field, REST's default) for components and upload files, whose entries other
 * parts of the answer read as a whole (dynamic zones' `__component`, files' URLs). `nodes`: the
 * selection's fields, fragments expanded (populate.ts `fieldsOf`).
 */
export function selectedFields(model: Model, nodes: readonly FieldNode[]): string[] | undefined {
  if (model.modelType !== 'contentType' || model.uid === FILE_UID) return undefined;
  const out = new Set<string>();
  if (model.draftAndPublish) out.add('publishedAt');
  if (model.localized) out.add('locale');
  for (const node of nodes) {
    const name = node.name.value;
    const attribute = model.attributes.get(name);
    if (attribute?.kind === 'scalar' && !attribute.private && attribute.type !== 'password') out.add(name);
    else if (!attribute && (TIMESTAMPS.has(name) || (name === 'locale' && model.localized))) out.add(name);
  }
  return [...out];
}
