import type { Model, ScalarType } from './types.js';

/**
 * Strapi custom fields (`{ "type": "customField", "customField": "plugin::x.y", "options": {...} }`)
 * are stored as the base type their plugin registers with `strapi.customFields.register({ name,
 * plugin, type })`. Hearth runs no plugin code, so it learns that type from a table: the built-in
 * one below, then the project's `hearth.json` (`{ "customFields": { "<uid>": "<type>" } }`).
 * A field in neither is stored as `json`, with a warning at start.
 */

/** Custom-field uid -> base type: the built-in table merged with a project's overrides. */
export type CustomFieldTable = ReadonlyMap<string, ScalarType>;

/** The file at a Strapi project's root (the `--schemas` folder) that declares other custom fields. */
export const PROJECT_CONFIG_FILE = 'hearth.json';

/** What an unknown custom field is stored as: any JSON value fits. */
export const UNKNOWN_CUSTOM_FIELD_TYPE: ScalarType = 'json';

/**
 * Custom fields of widely used plugins, each read from the `register` code of the package named
 * beside it (`npm pack <name>@<version>`, or its source repository where the registry had no copy).
 */
export const BUILT_IN_CUSTOM_FIELDS: CustomFieldTable = new Map<string, ScalarType>([
  // @strapi/plugin-color-picker 5.54.0, dist/server/register.js
  ['plugin::color-picker.color', 'string'],
  // @_sh/strapi-plugin-ckeditor 4.0.11 (plugin id "ckeditor5"), server/src/register.ts in its repository nshenderov/strapi-plugin-ckeditor
  ['plugin::ckeditor5.CKEditor', 'richtext'],
  // @ckeditor/strapi-plugin-ckeditor 1.1.2 (the official integration), server/register.js
  ['plugin::ckeditor.CKEditor', 'richtext'],
  // @notum-cz/strapi-plugin-tiptap-editor 1.2.3, dist/server/index.js (a JSON-stringified document in a text column)
  ['plugin::tiptap-editor.RichText', 'text'],
  // strapi-plugin-multi-select 2.1.1, dist/server/index.js
  ['plugin::multi-select.multi-select', 'json'],
  // strapi-plugin-country-select 2.1.0, dist/server/index.js
  ['plugin::country-select.country', 'string'],
  // @arshiash80/strapi-plugin-iconhub 1.1.1, dist/server/index.js
  ['plugin::strapi-plugin-iconhub.iconhub', 'json'],
  // strapi-plugin-oembed 2.0.2, dist/server/index.js
  ['plugin::oembed.oembed', 'json'],
  // @sklinet/strapi-plugin-tinymce 1.1.7, dist/server/index.js
  ['plugin::tinymce.tinymce', 'richtext'],
  // strapi-plugin-tagsinput 2.0.3, dist/server/index.js
  ['plugin::tagsinput.tags', 'json'],
  // @amicaldo/strapi-google-maps 3.0.2, dist/server/index.js
  ['plugin::google-maps.location-picker', 'json'],
  // strapi-code-editor-custom-field 1.1.0, dist/server/index.js (two fields)
  ['plugin::strapi-code-editor-custom-field.code-editor-json', 'json'],
  ['plugin::strapi-code-editor-custom-field.code-editor-text', 'text'],
]);

/** `plugin::<plugin>.<name>` or `global::<name>`, as Strapi's custom-field registry names them. */
const CUSTOM_FIELD_UID = /^(plugin::[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|global::[A-Za-z0-9_-]+)$/;

/** Whether a string is shaped like a custom-field uid. */
export const isCustomFieldUid = (uid: string): boolean => CUSTOM_FIELD_UID.test(uid);

/** The base type of a custom field, and whether a table knew it (else the `json` fallback). */
export function resolveCustomField(table: CustomFieldTable, uid: string): { type: ScalarType; known: boolean } {
  const type = table.get(uid);
  return type === undefined ? { type: UNKNOWN_CUSTOM_FIELD_TYPE, known: false } : { type, known: true };
}

/** One line per attribute whose custom field Hearth does not know, naming it and what Hearth does instead. */
export function unknownCustomFieldWarnings(models: readonly Model[]): string[] {
  const out: string[] = [];
  for (const model of models) {
    for (const attr of model.attributes.values()) {
      if (attr.kind !== 'scalar' || attr.customField === undefined || attr.customField.known) continue;
      out.push(
        `schemas: ${model.uid} attribute "${attr.name}": custom field "${attr.customField.uid}" is not one Hearth knows; ` +
          `its values are stored as ${UNKNOWN_CUSTOM_FIELD_TYPE}. Name its base type in ${PROJECT_CONFIG_FILE}: ` +
          `{ "customFields": { "${attr.customField.uid}": "<the type its plugin registers>" } }`,
      );
    }
  }
  return out;
}
