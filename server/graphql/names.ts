import type { ComponentModel, ContentTypeModel, ScalarType } from '../schema/types.js';

/**
 * Strapi's GraphQL names (`@strapi/plugin-graphql` 5): types by the content type's globalId,
 * components `Component<Category><Name>`, queries `x`, `xs`, `xs_connection`, enums
 * `ENUM_<TYPE>_<ATTR>`.
 */

/** lodash's `words` on ASCII: an acronym, a capitalised or lower-case run, or digits (`myAPI2x` -> my, API, 2, x). */
const WORDS = /[A-Z]{2,}(?=[A-Z][a-z]|[0-9]|[^A-Za-z0-9]|$)|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;

/** Strapi's `upperFirst(camelCase(text))`: each word capitalised, the rest lower-cased (`blog-post` -> `BlogPost`, `variant2x` -> `Variant2X`). */
const pascal = (text: string): string =>
  (text.match(WORDS) ?? []).map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join('');

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** `plugin::upload.file` -> `Upload`, `api::article.article` -> `` (api types have no prefix). */
function prefixOf(uid: string): string {
  const [namespace = '', rest = ''] = uid.split('::');
  if (namespace !== 'plugin') return '';
  const plugin = rest.split('.')[0] ?? '';
  return plugin === 'i18n' ? 'I18N' : pascal(plugin);
}

/** The globalId of a content type: `Article`, `UploadFile`, `UsersPermissionsUser`. */
export const typeNameOf = (model: Pick<ContentTypeModel, 'uid' | 'singularName'>): string => prefixOf(model.uid) + pascal(model.singularName);

/** `ComponentSharedSeo` for `shared.seo`. */
export const componentTypeNameOf = (model: Pick<ComponentModel, 'uid' | 'category'>): string => `Component${pascal(model.category)}${pascal(model.uid.split('.').slice(1).join('.'))}`;

/** The single-document query: `article`, `uploadFile`. */
export const singleQueryOf = (model: Pick<ContentTypeModel, 'uid' | 'singularName'>): string => lowerFirst(typeNameOf(model));

/** The list query: `articles`, `uploadFiles`, `categories`. */
export const listQueryOf = (model: Pick<ContentTypeModel, 'uid' | 'pluralName'>): string => lowerFirst(prefixOf(model.uid) + pascal(model.pluralName));

/** `ENUM_SPECIMEN_S_ENUM`. */
export const enumNameOf = (typeName: string, attribute: string): string => `ENUM_${typeName.toUpperCase()}_${attribute.toUpperCase()}`;

/**
 * An enumeration value's GraphQL name, as Strapi's `toRegressedEnumValue` (slugify with `_`, case
 * kept): `in-stock` -> `in_stock`, `Out of stock` -> `Out_of_stock`, `Été` -> `Ete`. The value
 * itself is what is stored and sent over REST.
 */
export const enumValueNameOf = (value: string): string =>
  value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replaceAll('&', ' and ')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** `ArticleBlocksDynamicZone`. */
export const dynamicZoneNameOf = (typeName: string, attribute: string): string => `${typeName}${pascal(attribute)}DynamicZone`;

/** The GraphQL scalar an attribute type is read and written as. */
export function scalarNameOf(type: ScalarType): 'String' | 'Int' | 'Long' | 'Float' | 'Boolean' | 'Date' | 'Time' | 'DateTime' | 'JSON' {
  switch (type) {
    case 'integer':
      return 'Int';
    case 'biginteger':
      return 'Long';
    case 'float':
    case 'decimal':
      return 'Float';
    case 'boolean':
      return 'Boolean';
    case 'date':
      return 'Date';
    case 'time':
      return 'Time';
    case 'datetime':
    case 'timestamp':
      return 'DateTime';
    case 'json':
    case 'blocks':
      return 'JSON';
    default:
      return 'String';
  }
}

/** The 22 operators of every scalar filter input, in Strapi's order (no `$`). */
export const FILTER_OPERATORS = [
  'and', 'or', 'not', 'eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi',
  'gt', 'gte', 'lt', 'lte', 'null', 'notNull', 'in', 'notIn', 'between',
] as const;
