import { isMorphTo, type MorphAttribute } from '../schema/morphs.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import { nullable, type JsonSchema, type SchemaSet } from './schema-set.js';

/**
 * Strapi's polymorphic relations as the content API answers and takes them (documents/
 * populate-morph.ts, morph-input.ts). A morph-to side (`morphToOne`, `morphToMany`) answers each
 * linked entry as its type's document with `__type` naming the type, only for the types the
 * caller may `find` (the others are left out); an inverse side (`morphOne`, `morphMany`) answers
 * like a relation to its target. Writes name each entry with `__type` and its `id` or `documentId`.
 */

/** What describing morphs needs from models.ts (passed in, so the two files do not import each other). */
export interface MorphEnv {
  readonly set: SchemaSet;
  /** Project types served by the content API that the caller may read, in a stable order. */
  readonly readableTypes: () => readonly ContentTypeModel[];
  /** `$ref` to a type's document schema and the schema's name. */
  readonly documentOf: (model: ContentTypeModel) => { readonly ref: JsonSchema; readonly name: string };
  /** The schema of a related document of `uid` as a relation answers it. */
  readonly related: (uid: string) => JsonSchema;
  /** Whether the caller may `find` a type (inverse sides to other types are written only then). */
  readonly canRead: (uid: string) => boolean;
  /** `$ref` to the relation target a write takes (documentId, id, or an object). */
  readonly relationInput: (toMany: boolean) => JsonSchema;
}

/** Morph relations a reader may see (a morph attribute marked private is never answered). */
const shownMorphs = (model: Model): MorphAttribute[] => [...(model.morphs?.values() ?? [])].filter((m) => m.raw.private !== true);

const list = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** A linked entry of a type the document does not name: its ids and `__type`. */
const ANY_ENTRY: JsonSchema = {
  type: 'object',
  required: ['__type', 'id', 'documentId'],
  properties: { __type: { type: 'string', description: 'The uid of the entry’s content type' }, id: { type: 'integer' }, documentId: { type: 'string' } },
  additionalProperties: true,
};

/** One entry of a morph-to side: a document of one of the readable types, told apart by `__type`. */
function morphEntry(env: MorphEnv): JsonSchema {
  const types = env.readableTypes();
  if (types.length === 0) return env.set.ref('MorphEntry', () => ANY_ENTRY);
  const refs = types.map((model) => {
    const { ref, name } = env.documentOf(model);
    return env.set.ref(`${name}MorphEntry`, () => ({
      allOf: [ref, { type: 'object', required: ['__type'], properties: { __type: { type: 'string', const: model.uid } } }],
    }));
  });
  const mapping = Object.fromEntries(types.map((model, i) => [model.uid, refs[i]?.$ref]));
  return { oneOf: refs, discriminator: { propertyName: '__type', mapping } };
}

/** The morph relations of a document as answered (only when populated, as relations). */
export function morphsOut(env: MorphEnv, model: Model): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const morph of shownMorphs(model)) {
    if (isMorphTo(morph)) {
      const entry = morphEntry(env);
      out[morph.name] = morph.relation === 'morphToMany' ? list(entry) : nullable(entry);
    } else if (morph.target !== undefined) {
      const target = env.related(morph.target);
      out[morph.name] = morph.relation === 'morphMany' ? list(target) : nullable(target);
    }
  }
  return out;
}

/** One entry a morph-to write names: `{ __type, id }` or `{ __type, documentId[, locale, status] }`. */
const MORPH_TARGET: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['__type', 'id'],
      properties: { __type: { type: 'string', description: 'The uid of the entry’s content type (`api::article.article`)' }, id: { type: ['integer', 'string'], description: 'Row id' } },
    },
    {
      type: 'object',
      required: ['__type', 'documentId'],
      properties: {
        __type: { type: 'string', description: 'The uid of the entry’s content type (`api::article.article`)' },
        documentId: { type: 'string' },
        locale: { type: ['string', 'null'] },
        status: { type: 'string', enum: ['draft', 'published'] },
      },
    },
  ],
};

/** The morph relations a create or update takes: morph-to sides by `__type`, inverse sides as relations to their target. */
export function morphsIn(env: MorphEnv, model: Model): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const morph of shownMorphs(model)) {
    if (isMorphTo(morph)) {
      const target = env.set.ref('MorphTarget', () => MORPH_TARGET);
      const ops: JsonSchema = { type: 'object', properties: { set: list(target), connect: list(target), disconnect: list(target) } };
      out[morph.name] = { anyOf: [list(target), target, { type: 'null' }, ops] };
    } else if (morph.target !== undefined && morph.target !== FILE_UID && env.canRead(morph.target)) {
      // Files link themselves through their own `related`; other inverse sides are written like relations.
      out[morph.name] = env.relationInput(morph.relation === 'morphMany');
    }
  }
  return out;
}
