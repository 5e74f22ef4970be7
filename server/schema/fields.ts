import type { Attribute, Model, ScalarType } from './types.js';

/**
 * What a key names on a model, as Strapi's validators see it: a scalar (attribute or system
 * column), a relational attribute, or one of the implicit attributes Strapi adds (creator fields).
 */
export type FieldInfo =
  | { readonly kind: 'scalar'; readonly name: string; readonly type: ScalarType; readonly private: boolean; readonly system: boolean; readonly writable: boolean }
  | { readonly kind: 'relation' | 'component' | 'media' | 'dynamiczone' | 'localizations'; readonly name: string; readonly attribute: Attribute; readonly private: boolean; readonly writable: boolean }
  | { readonly kind: 'hidden'; readonly name: string; readonly private: true; readonly writable: false };

const system = (name: string, type: ScalarType, writable = false): FieldInfo => ({
  kind: 'scalar',
  name,
  type,
  private: false,
  system: true,
  writable,
});

const ID = system('id', 'integer');
const DOCUMENT_ID = system('documentId', 'string');
const CREATED_AT = system('createdAt', 'datetime');
const UPDATED_AT = system('updatedAt', 'datetime');
const PUBLISHED_AT = system('publishedAt', 'datetime', true);
const LOCALE = system('locale', 'string', true);
const CREATED_BY: FieldInfo = { kind: 'hidden', name: 'createdBy', private: true, writable: false };
const UPDATED_BY: FieldInfo = { kind: 'hidden', name: 'updatedBy', private: true, writable: false };

/** Looks a key up on a model; undefined when the model has no such attribute. */
export function lookupField(model: Model, key: string): FieldInfo | undefined {
  const attribute = model.attributes.get(key);
  if (attribute) {
    switch (attribute.kind) {
      case 'scalar':
        return {
          kind: 'scalar',
          name: key,
          type: attribute.type,
          private: attribute.private || attribute.type === 'password',
          system: false,
          writable: true,
        };
      case 'localizations':
        return { kind: 'localizations', name: key, attribute, private: false, writable: false };
      default:
        return { kind: attribute.kind, name: key, attribute, private: attribute.private, writable: true };
    }
  }
  if (key === 'id') return ID;
  if (model.modelType !== 'contentType') return undefined;
  switch (key) {
    case 'documentId':
      return DOCUMENT_ID;
    case 'createdAt':
      return CREATED_AT;
    case 'updatedAt':
      return UPDATED_AT;
    case 'publishedAt':
      return PUBLISHED_AT;
    case 'locale':
      return model.localized ? LOCALE : undefined;
    case 'createdBy':
      return model.builtIn ? undefined : CREATED_BY;
    case 'updatedBy':
      return model.builtIn ? undefined : UPDATED_BY;
    default:
      return undefined;
  }
}

/** Whether a field is a password (rejected in queries with its own message order). */
export const isPasswordField = (model: Model, key: string): boolean => {
  const attribute = model.attributes.get(key);
  return attribute?.kind === 'scalar' && attribute.type === 'password';
};

/** The model a relational field leads to (relations, media, components). */
export function targetUid(field: FieldInfo): string | undefined {
  if (field.kind === 'relation' && field.attribute.kind === 'relation') return field.attribute.target;
  if (field.kind === 'component' && field.attribute.kind === 'component') return field.attribute.component;
  if (field.kind === 'media') return 'plugin::upload.file';
  return undefined;
}

/** System columns every content-type row has, in the order Strapi prints them. */
export const TIMESTAMP_FIELDS = ['createdAt', 'updatedAt', 'publishedAt'] as const;
