import type { Caller } from '../auth/caller.js';
import { notFound, validationError } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import type { Attribute, ComponentModel, ContentTypeModel, Model } from '../schema/types.js';

/** Content-API actions of a content type, as permissions name them. */
export type ContentAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** The content types of the content API (Hearth's own, such as the media library's files, have none). */
export const apiTypes = (registry: Registry): readonly ContentTypeModel[] => registry.contentTypes.filter((m) => !m.builtIn);

/** The types the caller may perform an action on. */
export const typesAllowing = (registry: Registry, caller: Caller, action: ContentAction): ContentTypeModel[] =>
  apiTypes(registry).filter((m) => caller.allows(`${m.uid}.${action}`));

/** Whether the caller may see a type at all (read it, or write it). */
export const visible = (caller: Caller, model: ContentTypeModel): boolean =>
  (['find', 'findOne', 'create', 'update', 'delete'] as const).some((a) => caller.allows(`${model.uid}.${a}`));

/** The name a type goes by in the content API: its plural API id, or the singular one for a single type. */
export const apiId = (model: ContentTypeModel): string => (model.kind === 'singleType' ? model.singularName : model.pluralName);

/**
 * The type a `contentType` argument names: a uid (`api::article.article`) or its API id (`articles`).
 * One the caller may not see is answered as unknown, so a tool never tells which types exist.
 */
export function resolveType(registry: Registry, caller: Caller, name: string): ContentTypeModel {
  const model = apiTypes(registry).find((m) => m.uid === name || apiId(m) === name || m.pluralName === name);
  if (!model || !visible(caller, model)) throw notFound(`Unknown content type "${name}" (see list_content_types)`);
  return model;
}

/** Attributes a client may see: never private ones nor passwords (nor the virtual `localizations`). */
export function publicAttributes(model: Model): Attribute[] {
  return [...model.attributes.values()].filter((a) => !a.private && a.kind !== 'localizations' && !(a.kind === 'scalar' && a.type === 'password'));
}

/** An attribute as schema.json writes it, without options that only matter to the server. */
function attributeOf(attribute: Attribute): Record<string, unknown> {
  const { pluginOptions: _plugin, private: _private, ...rest } = attribute.raw;
  return rest;
}

/** Components a set of models reach (through components and dynamic zones), in uid order. */
export function reachableComponents(registry: Registry, models: readonly Model[]): ComponentModel[] {
  const seen = new Map<string, ComponentModel>();
  const walk = (model: Model) => {
    for (const attribute of publicAttributes(model)) {
      const uids = attribute.kind === 'component' ? [attribute.component] : attribute.kind === 'dynamiczone' ? attribute.components : [];
      for (const uid of uids) {
        const component = registry.component(uid);
        if (component && !seen.has(uid)) {
          seen.set(uid, component);
          walk(component);
        }
      }
    }
  };
  models.forEach(walk);
  return [...seen.values()].sort((a, b) => a.uid.localeCompare(b.uid));
}

/** One line of `list_content_types`. */
export function summaryOf(model: ContentTypeModel | ComponentModel, locales: readonly string[]): Record<string, unknown> {
  if (model.modelType === 'component') return { uid: model.uid, kind: 'component', displayName: model.displayName, category: model.category };
  return {
    uid: model.uid,
    kind: model.kind,
    apiId: apiId(model),
    singularName: model.singularName,
    pluralName: model.pluralName,
    displayName: model.displayName,
    description: model.description,
    draftAndPublish: model.draftAndPublish,
    localized: model.localized,
    locales: model.localized ? locales : [],
  };
}

/** `get_content_type`'s answer: a type's or component's public attributes as schema.json writes them. */
export function schemaOf(model: ContentTypeModel | ComponentModel, locales: readonly string[]): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const attribute of publicAttributes(model)) attributes[attribute.name] = attributeOf(attribute);
  return { ...summaryOf(model, locales), attributes };
}

/** A value of an attribute, for the example a model reads in a tool's description. */
function exampleValue(attribute: Attribute): unknown {
  switch (attribute.kind) {
    case 'scalar':
      if (attribute.enum?.[0] !== undefined) return attribute.enum[0];
      switch (attribute.type) {
        case 'integer':
        case 'biginteger':
        case 'decimal':
        case 'float':
          return 1;
        case 'boolean':
          return true;
        case 'date':
          return '2025-01-31';
        case 'datetime':
          return '2025-01-31T12:00:00.000Z';
        case 'time':
          return '12:00:00';
        case 'json':
          return {};
        case 'blocks':
          return [{ type: 'paragraph', children: [{ type: 'text', text: 'Text' }] }];
        case 'email':
          return 'someone@example.com';
        default:
          return 'Text';
      }
    case 'relation':
      return attribute.toMany ? { connect: ['<documentId>'] } : '<documentId>';
    case 'media':
      return attribute.multiple ? [1] : 1;
    case 'component':
      return attribute.repeatable ? [{}] : {};
    case 'dynamiczone':
      return [{ __component: attribute.components[0] ?? 'category.name' }];
    default:
      return undefined;
  }
}

/** How one attribute reads in a description: `title (string, required)`. */
function attributeLine(attribute: Attribute): string {
  const type =
    attribute.kind === 'scalar'
      ? attribute.type + (attribute.enum ? ` one of ${attribute.enum.join('|')}` : '')
      : attribute.kind === 'relation'
        ? `relation ${attribute.relation} to ${attribute.target} (documentIds)`
        : attribute.kind === 'media'
          ? `media${attribute.multiple ? ' (list of file ids)' : ' (file id)'}`
          : attribute.kind === 'component'
            ? `component ${attribute.component}${attribute.repeatable ? ' (list)' : ''}`
            : attribute.kind === 'dynamiczone'
              ? `dynamic zone of ${attribute.components.join(', ')} (each item names its __component)`
              : attribute.kind;
  return `${attribute.name} (${type}${attribute.required ? ', required' : ''})`;
}

/** What `data` holds for one type: its attributes, required ones marked, and an example body. */
export function dataDescription(model: ContentTypeModel): string {
  const attributes = publicAttributes(model).filter((a) => !(a.kind === 'scalar' && a.type === 'uid' && a.targetField !== undefined && !a.required));
  const example: Record<string, unknown> = {};
  for (const attribute of attributes.filter((a) => a.required || a.kind === 'scalar').slice(0, 4)) example[attribute.name] = exampleValue(attribute);
  const what = model.description ? ` ${model.description}.` : '';
  return `- ${apiId(model)} (${model.uid}, ${model.kind === 'singleType' ? 'single type' : 'collection'}${model.draftAndPublish ? ', draft & publish' : ''}${model.localized ? ', localized' : ''}): ${model.displayName}.${what} Fields: ${attributes.map(attributeLine).join('; ') || 'none'}. Example data: ${JSON.stringify(example)}`;
}

/** A required argument that must be one of the allowed names. */
export function checkedDocumentId(model: ContentTypeModel, documentId: string | undefined): string | null {
  if (model.kind === 'singleType') return documentId ?? null;
  if (documentId === undefined || documentId === '') throw validationError('documentId is required for a collection type');
  return documentId;
}
