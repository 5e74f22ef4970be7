import { describe, expect, it } from 'vitest';
import { componentTypeNameOf, dynamicZoneNameOf, enumNameOf, enumValueNameOf, listQueryOf, singleQueryOf, typeNameOf } from '../../server/graphql/names.js';

/**
 * Strapi's GraphQL names (packages/plugins/graphql/server/src/services/utils/naming.ts): types
 * `upperFirst(camelCase(plugin)) + upperFirst(camelCase(singularName))`, components
 * `upperFirst(camelCase('component_' + uid))`, enum values `toRegressedEnumValue` (slugify with
 * `_`, case kept). Expected values are lodash's and slugify's answers for the same input.
 */
const type = (uid: string, singularName: string, pluralName: string) => ({ uid, singularName, pluralName });

describe('GraphQL names as Strapi forms them', () => {
  it.each([
    [type('api::blog-post.blog-post', 'blog-post', 'blog-posts'), 'BlogPost', 'blogPost', 'blogPosts'],
    [type('api::person.person', 'person', 'people'), 'Person', 'person', 'people'],
    [type('api::product-variant.product-variant', 'product-variant', 'product-variants'), 'ProductVariant', 'productVariant', 'productVariants'],
    [type('api::audio2x.audio2x', 'audio2x', 'audio2xs'), 'Audio2X', 'audio2X', 'audio2Xs'],
    [type('api::my-api.my-api', 'myAPI', 'myAPIs'), 'MyApi', 'myApi', 'myApIs'],
    [type('plugin::users-permissions.user', 'user', 'users'), 'UsersPermissionsUser', 'usersPermissionsUser', 'usersPermissionsUsers'],
    [type('plugin::i18n.locale', 'locale', 'locales'), 'I18NLocale', 'i18NLocale', 'i18NLocales'],
  ])('%o', (model, typeName, single, list) => {
    expect([typeNameOf(model), singleQueryOf(model), listQueryOf(model)]).toEqual([typeName, single, list]);
  });

  it('names components, dynamic zones and enumerations', () => {
    expect(componentTypeNameOf({ uid: 'product-parts.spec-line', category: 'product-parts' })).toBe('ComponentProductPartsSpecLine');
    expect(componentTypeNameOf({ uid: 'blocks_v2.hero2x', category: 'blocks_v2' })).toBe('ComponentBlocksV2Hero2X');
    expect(dynamicZoneNameOf('BlogPost', 'page_sections')).toBe('BlogPostPageSectionsDynamicZone');
    expect(enumNameOf('BlogPost', 'stock')).toBe('ENUM_BLOGPOST_STOCK');
    expect(['in-stock', 'Out of stock', 'pre_order', '  a--b  ', 'Été', 'R&D', 'camelCase'].map(enumValueNameOf)).toEqual(['in_stock', 'Out_of_stock', 'pre_order', 'a_b', 'Ete', 'R_and_D', 'camelCase']);
  });
});
