import { getArgumentValues, GraphQLObjectType, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import type { DocumentService } from '../documents/index.js';
import { readListQuery, type QueryEnv } from '../query/read-query.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import { typeNameOf } from './names.js';
import { attributeOf, populateOf, relationEntry, selectionUnder, withWindows, type PopulateScope } from './populate.js';

/**
 * Relation and repeatable component fields the root's populate did not load (the same attribute
 * selected again under an alias with other arguments): loaded per request in batches, one read of the parents' type per
 * (field, arguments, status, locale) whatever the number of parents, never one per parent.
 */
type Raw = Record<string, unknown>;

interface Batch {
  readonly parents: Map<string, Array<(value: unknown) => void>>;
  readonly fail: Array<(err: unknown) => void>;
}

export function createRelationLoader(deps: { documents: DocumentService; env: QueryEnv; scope: PopulateScope; access: { canRead: (uid: string) => boolean } }) {
  const batches = new Map<string, Batch>();

  async function run(model: ContentTypeModel, node: FieldNode, info: GraphQLResolveInfo, status: string, locale: string | null, batch: Batch): Promise<void> {
    const name = attributeOf(node.name.value);
    const attribute = model.attributes.get(name);
    const target =
      attribute?.kind === 'relation' ? deps.scope.registry.model(attribute.target)
      : attribute?.kind === 'media' ? deps.scope.registry.model(FILE_UID)
      : attribute?.kind === 'component' ? deps.scope.registry.component(attribute.component)
      : model;
    const type = info.schema.getType(typeNameOf(model));
    const def = type instanceof GraphQLObjectType ? type.getFields()[node.name.value] : undefined;
    const { entry, window } = def ? relationEntry(getArgumentValues(def, node, info.variableValues), deps.scope) : { entry: {}, window: null };
    const inner = populateOf(target as Model, selectionUnder(node, info), deps.scope, info, 1);
    const raw: Raw = { filters: { documentId: { $in: [...batch.parents.keys()] } }, status, populate: { [name]: { ...entry, ...(attribute?.kind === 'relation' && inner.fields ? { fields: inner.fields } : {}), populate: inner.populate } } };
    if (locale !== null) raw.locale = locale;
    const { query } = readListQuery(raw, model, deps.env);
    const windows = { [name]: { start: window?.start ?? null, limit: window?.limit ?? null, children: inner.windows } };
    const page = await deps.documents.findMany({
      model,
      query: { ...query, populate: withWindows(query.populate, windows) },
      pagination: { mode: 'offset', start: 0, limit: null, withCount: false },
      access: deps.access,
    });
    const byId = new Map((page.data as Raw[]).map((row) => [String(row.documentId), row[name]]));
    for (const [documentId, resolvers] of batch.parents) for (const resolve of resolvers) resolve(byId.get(documentId) ?? null);
  }

  return {
    /** The value of `node` (a relation, media or repeatable component field) for one parent document. */
    load(model: ContentTypeModel, parent: Raw, node: FieldNode, info: GraphQLResolveInfo): Promise<unknown> {
      const status = model.draftAndPublish && parent.publishedAt === null ? 'draft' : 'published';
      const locale = model.localized && typeof parent.locale === 'string' ? parent.locale : null;
      const key = JSON.stringify([model.uid, node.loc?.start ?? node.name.value, status, locale]);
      let batch = batches.get(key);
      if (!batch) {
        const fresh: Batch = { parents: new Map(), fail: [] };
        batch = fresh;
        batches.set(key, fresh);
        // Every parent of this level asks in the same tick: the batch runs once they all have.
        process.nextTick(() => {
          batches.delete(key);
          run(model, node, info, status, locale, fresh).catch((err: unknown) => {
            for (const fail of fresh.fail) fail(err);
          });
        });
      }
      const current = batch;
      return new Promise((resolve, reject) => {
        const documentId = String(parent.documentId);
        current.parents.set(documentId, [...(current.parents.get(documentId) ?? []), resolve]);
        current.fail.push(reject);
      });
    },
  };
}

export type RelationLoader = ReturnType<typeof createRelationLoader>;
