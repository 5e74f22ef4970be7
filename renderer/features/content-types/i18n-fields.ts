import { isAttributeLocalized, type Attribute, type AttributeType } from '../../api/schema';

/**
 * Per-field localization as the server reads it (Strapi's rule): on a localized type a field is
 * localized only when its schema says `pluginOptions.i18n.localized: true`; relations and uid fields
 * always are, and carry no such option. The builder shows that state and writes it explicitly, so
 * what the field dialog shows is what the saved schema.json says.
 */

/** Whether a field of this type has its own "different in each locale" choice (relations and uids have none). */
export const hasLocalizedChoice = (type: AttributeType): boolean => type !== 'relation' && type !== 'uid';

/** Whether the server treats the field as localized on a localized type. */
export const isFieldLocalized = (attribute: Attribute): boolean => isAttributeLocalized(attribute);

/** The field with its localization written out (`pluginOptions.i18n.localized`), other plugin options kept. */
export function withLocalized(attribute: Attribute, localized: boolean): Attribute {
  if (!hasLocalizedChoice(attribute.type)) return attribute;
  return { ...attribute, pluginOptions: { ...(attribute.pluginOptions ?? {}), i18n: { localized } } };
}

/** The field without any i18n option (the type is not localized), other plugin options kept. */
export function withoutLocalized(attribute: Attribute): Attribute {
  if (attribute.pluginOptions?.i18n === undefined) return attribute;
  const { i18n: _i18n, ...rest } = attribute.pluginOptions;
  const { pluginOptions: _old, ...base } = attribute;
  return Object.keys(rest).length > 0 ? { ...base, pluginOptions: rest } : base;
}

/**
 * A field as it is saved: on a localized type with its localization explicit (a field read without
 * the option is saved as not localized, as it was shown and served); on another type as it is.
 */
export function savedLocalization(attribute: Attribute, typeLocalized: boolean): Attribute {
  return typeLocalized ? withLocalized(attribute, isFieldLocalized(attribute)) : attribute;
}
