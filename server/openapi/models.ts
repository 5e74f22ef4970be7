import type { Registry } from '../schema/registry.js';
import { FILE_UID, type Attribute, type ComponentModel, type ContentTypeModel, type Model } from '../schema/types.js';
import { morphsIn, morphsOut, type MorphEnv } from './morphs.js';
import { assertNeverType } from './never.js';
import { scalarIn, scalarOut } from './scalars.js';
import { nullable, pascal, type JsonSchema, type SchemaSet } from './schema-set.js';

/** What describing models needs: the registry, the document's schema set, and what the caller may read. */
export interface ModelEnv {
  readonly registry: Registry;
  readonly set: SchemaSet;
  /** Whether the caller may `find` a type: its relations then name the type's own schema, else a bare document. */
  readonly canRead: (uid: string) => boolean;
}

/** Answered for every document whatever `fields` asks. */
const ALWAYS = ['id', 'documentId'];
const DATE_TIME: JsonSchema = { type: 'string', format: 'date-time' };

/** A related document the caller may not read as a type: only its ids are described. */
const RELATED: JsonSchema = {
  type: 'object',
  required: ALWAYS,
  properties: { id: { type: 'integer' }, documentId: { type: 'string' } },
  additionalProperties: true,
};

/** The name of a content type's schema (`Article`), its file model's (`UploadFile`), or a component's (`SharedSeoComponent`). */
export function schemaName(model: Model): string {
  if (model.modelType === 'component') return `${pascal(model.uid)}Component`;
  return model.uid === FILE_UID ? 'UploadFile' : pascal(model.singularName);
}

/** Attributes a reader may see: neither private nor passwords. */
const shown = (model: Model): Attribute[] => [...model.attributes.values()].filter((a) => !a.private && !(a.kind === 'scalar' && a.type === 'password'));

/** `$ref` to a content type's document as the content API answers it. */
export function documentRef(env: ModelEnv, model: ContentTypeModel): JsonSchema {
  return env.set.ref(schemaName(model), () => (model.uid === FILE_UID ? fileSchema(env) : documentSchema(env, model)));
}

/** `$ref` to a built-in type's document under a name of its own (`UsersPermissionsUser`: no clash with a project's `User`). */
export function namedDocumentRef(env: ModelEnv, model: ContentTypeModel, name: string): JsonSchema {
  return env.set.ref(name, () => documentSchema(env, model));
}

/** `$ref` to the `data` a create or update of a content type takes. */
export function inputRef(env: ModelEnv, model: ContentTypeModel): JsonSchema {
  return env.set.ref(`${schemaName(model)}Input`, () => ({
    type: 'object',
    description: `${model.displayName}: the attributes to write (an update may send only some)`,
    properties: inputProperties(env, model),
  }));
}

function documentSchema(env: ModelEnv, model: ContentTypeModel, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = { id: { type: 'integer' }, documentId: { type: 'string' } };
  for (const attr of shown(model)) {
    const schema = attributeOut(env, model, attr);
    if (schema !== null) properties[attr.name] = schema;
  }
  Object.assign(properties, morphsOut(morphEnv(env), model));
  properties.createdAt = DATE_TIME;
  properties.updatedAt = DATE_TIME;
  properties.publishedAt = model.draftAndPublish ? nullable(DATE_TIME) : DATE_TIME;
  if (model.localized) properties.locale = { type: 'string' };
  Object.assign(properties, extra);
  const description = model.description === '' ? model.displayName : `${model.displayName}: ${model.description}`;
  return { type: 'object', description, required: ALWAYS, properties };
}

/** A component as answered: its `id` and attributes. */
function componentRef(env: ModelEnv, component: ComponentModel): JsonSchema {
  return env.set.ref(schemaName(component), () => ({ type: 'object', required: ['id'], properties: componentProperties(env, component) }));
}

function componentProperties(env: ModelEnv, component: ComponentModel): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = { id: { type: 'integer' } };
  for (const attr of shown(component)) {
    const schema = attributeOut(env, component, attr);
    if (schema !== null) properties[attr.name] = schema;
  }
  return { ...properties, ...morphsOut(morphEnv(env), component) };
}

const entryProperty = (uid: string): JsonSchema => ({ type: 'string', const: uid });

/** A dynamic zone's entry of one component: the component with `__component` naming it. */
function entryRef(env: ModelEnv, component: ComponentModel, way: 'in' | 'out'): JsonSchema {
  const name = `${pascal(component.uid)}Entry${way === 'in' ? 'Input' : ''}`;
  return env.set.ref(name, () => {
    const properties = way === 'in' ? componentInputProperties(env, component) : componentProperties(env, component);
    return {
      type: 'object',
      required: way === 'in' ? ['__component'] : ['__component', 'id'],
      properties: { __component: entryProperty(component.uid), ...properties },
    };
  });
}

/** A dynamic zone: a list of entries told apart by `__component`. */
function dynamicZone(env: ModelEnv, uids: readonly string[], way: 'in' | 'out'): JsonSchema {
  const components = uids.map((uid) => env.registry.component(uid)).filter((c): c is ComponentModel => c !== undefined);
  const refs = components.map((c) => entryRef(env, c, way));
  const mapping = Object.fromEntries(components.map((c, i) => [c.uid, refs[i]?.$ref]));
  return { type: 'array', items: { oneOf: refs, discriminator: { propertyName: '__component', mapping } } };
}

/** The target of a relation as answered: the type's document when the caller may read it. */
function relatedOut(env: ModelEnv, uid: string): JsonSchema {
  const target = env.registry.contentType(uid);
  if (target && !target.builtIn && env.registry.routeModel(routeSegment(target)) === target && env.canRead(uid)) return documentRef(env, target);
  return env.set.ref('RelatedDocument', () => RELATED);
}

/** What morphs.ts needs of this file: documents, related targets and relation inputs. */
function morphEnv(env: ModelEnv): MorphEnv {
  const { registry } = env;
  return {
    set: env.set,
    readableTypes: () => registry.contentTypes.filter((m) => !m.builtIn && registry.routeModel(routeSegment(m)) === m && env.canRead(m.uid)),
    documentOf: (model) => ({ ref: documentRef(env, model), name: schemaName(model) }),
    related: (uid) => (uid === FILE_UID ? env.set.ref('UploadFile', () => fileSchema(env)) : relatedOut(env, uid)),
    canRead: env.canRead,
    relationInput: (toMany) => relationIn(env, toMany),
  };
}

/** The `/api/<segment>` a content type is served at. */
export const routeSegment = (model: ContentTypeModel): string => (model.kind === 'singleType' ? model.singularName : model.pluralName);

const list = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** An attribute's value as answered; relations, media, components and dynamic zones only when populated. */
function attributeOut(env: ModelEnv, model: Model, attr: Attribute): JsonSchema | null {
  switch (attr.kind) {
    case 'scalar': {
      const schema = scalarOut(attr);
      // Drafts skip required checks, so only a required attribute of a type without drafts is never null.
      const neverNull = attr.required && (model.modelType === 'component' || !model.draftAndPublish);
      return neverNull ? schema : nullable(schema);
    }
    case 'media': {
      const file = env.set.ref('UploadFile', () => fileSchema(env));
      return attr.multiple ? list(file) : nullable(file);
    }
    case 'relation': {
      const target = relatedOut(env, attr.target);
      return attr.toMany ? list(target) : nullable(target);
    }
    case 'component': {
      const component = env.registry.component(attr.component);
      if (!component) return null;
      return attr.repeatable ? list(componentRef(env, component)) : nullable(componentRef(env, component));
    }
    case 'dynamiczone':
      return dynamicZone(env, attr.components, 'out');
    case 'localizations':
      return model.modelType === 'contentType' ? list(relatedOut(env, model.uid)) : null;
    default:
      return assertNeverType(attr);
  }
}

/** The media library's file as answered (the file model, extended or not, without its private attributes). */
function fileSchema(env: ModelEnv): JsonSchema {
  const model = env.registry.model(FILE_UID);
  if (!model || model.modelType !== 'contentType') return RELATED;
  // The upload endpoints (not media populated into entries) say whether `url` is a signed address.
  return documentSchema(env, model, { isUrlSigned: { type: 'boolean', description: 'Upload endpoints only: `url` is a signed address' } });
}

function inputProperties(env: ModelEnv, model: Model): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const attr of shown(model)) {
    const schema = attributeIn(env, attr);
    if (schema !== null) properties[attr.name] = schema;
  }
  return { ...properties, ...morphsIn(morphEnv(env), model) };
}

/** A component as written: its attributes, and the `id` of the entry an update keeps. */
function componentInputProperties(env: ModelEnv, component: ComponentModel): Record<string, JsonSchema> {
  return { id: { type: 'integer', description: 'An existing entry to keep and update' }, ...inputProperties(env, component) };
}

function componentInputRef(env: ModelEnv, component: ComponentModel): JsonSchema {
  return env.set.ref(`${schemaName(component)}Input`, () => ({ type: 'object', properties: componentInputProperties(env, component) }));
}

/** One related document as a write names it: its documentId, its row id, or an object adding locale and status. */
const RELATION_TARGET: JsonSchema = {
  anyOf: [
    { type: 'string', description: 'documentId' },
    { type: 'integer', description: 'Row id' },
    {
      type: 'object',
      properties: {
        documentId: { type: 'string' },
        id: { type: 'integer' },
        locale: { type: ['string', 'null'] },
        status: { type: 'string', enum: ['draft', 'published'] },
      },
    },
  ],
};

/** Where `connect` puts a relation in an ordered list. */
const POSITION: JsonSchema = {
  type: 'object',
  properties: { before: { type: ['string', 'integer'] }, after: { type: ['string', 'integer'] }, start: { type: 'boolean' }, end: { type: 'boolean' } },
};

/** `connect` / `disconnect` / `set`: Strapi's relation operations. */
function relationOps(target: JsonSchema): JsonSchema {
  const positioned: JsonSchema = {
    anyOf: [
      target,
      {
        type: 'object',
        properties: {
          documentId: { type: 'string' },
          id: { type: 'integer' },
          locale: { type: ['string', 'null'] },
          status: { type: 'string' },
          position: POSITION,
        },
      },
    ],
  };
  return {
    type: 'object',
    properties: { connect: list(positioned), disconnect: list(target), set: list(target) },
  };
}

/** A relation as a write takes it: its targets (a list for a to-many side), or connect / disconnect / set. */
function relationIn(env: ModelEnv, toMany: boolean): JsonSchema {
  const target = env.set.ref('RelationTarget', () => RELATION_TARGET);
  return toMany ? { anyOf: [list(target), relationOps(target)] } : { anyOf: [target, { type: 'null' }, relationOps(target)] };
}

/** An attribute's value as a create or update takes it. */
function attributeIn(env: ModelEnv, attr: Attribute): JsonSchema | null {
  switch (attr.kind) {
    case 'scalar':
      return attr.required ? scalarIn(attr) : nullable(scalarIn(attr));
    case 'media':
      return attr.multiple ? list({ type: 'integer', description: 'File id' }) : { type: ['integer', 'null'], description: 'File id' };
    case 'relation':
      return relationIn(env, attr.toMany);
    case 'component': {
      const component = env.registry.component(attr.component);
      if (!component) return null;
      const ref = componentInputRef(env, component);
      return attr.repeatable ? list(ref) : nullable(ref);
    }
    case 'dynamiczone':
      return dynamicZone(env, attr.components, 'in');
    case 'localizations':
      return null;
    default:
      return assertNeverType(attr);
  }
}
