import type { Registry } from '../schema/registry.js';
import type { ComponentModel, ContentTypeModel } from '../schema/types.js';
import { STRAPI_BUILT_IN_SCHEMAS } from './built-in-schemas.js';
import { isRecord } from './jsonl.js';

/** `foo-bar_baz` -> `FooBarBaz`, as Strapi's globalId (lodash upperFirst(camelCase())). */
const pascal = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

const CREATED_BY = (private_: boolean) => ({ type: 'relation', relation: 'oneToOne', target: 'admin::user', configurable: false, writable: false, visible: false, useJoinTable: false, private: private_ });

/** The attributes Strapi adds to a content type's schema when it loads it. */
function addedAttributes(model: ContentTypeModel): Record<string, unknown> {
  return {
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
    publishedAt: { type: 'datetime', configurable: false, writable: true, visible: true },
    createdBy: CREATED_BY(true),
    updatedBy: CREATED_BY(true),
    locale: { writable: true, private: !model.localized, configurable: false, visible: false, type: 'string' },
    localizations: {
      type: 'relation',
      relation: 'oneToMany',
      target: model.uid,
      writable: false,
      private: !model.localized,
      configurable: false,
      visible: false,
      unstable_virtual: true,
      joinColumn: { name: 'document_id', referencedColumn: 'document_id', referencedTable: model.collectionName },
    },
  };
}

/** A project content type as the internal schema line `strapi export` writes for it. */
function contentTypeLine(model: ContentTypeModel): Record<string, unknown> {
  const { raw } = model;
  const attributes = isRecord(raw.attributes) ? raw.attributes : {};
  const [, name = model.singularName] = /\.([^.]+)$/.exec(model.uid) ?? [];
  const out: Record<string, unknown> = { collectionName: raw.collectionName ?? model.collectionName, info: raw.info, options: raw.options ?? {}, pluginOptions: raw.pluginOptions ?? {} };
  for (const [key, value] of Object.entries(raw)) if (!(key in out) && key !== 'kind' && key !== 'attributes') out[key] = value;
  return { ...out, attributes: { ...attributes, ...addedAttributes(model) }, kind: model.kind, modelType: 'contentType', modelName: name, uid: model.uid, globalId: pascal(model.singularName) };
}

/** A component as its schema line. */
function componentLine(model: ComponentModel): Record<string, unknown> {
  const { raw } = model;
  const [category = '', name = ''] = model.uid.split('.');
  const out: Record<string, unknown> = { collectionName: raw.collectionName ?? model.collectionName, info: raw.info, options: raw.options ?? {} };
  for (const [key, value] of Object.entries(raw)) if (!(key in out) && key !== 'attributes') out[key] = value;
  return { ...out, attributes: raw.attributes, modelType: 'component', modelName: name, uid: model.uid, globalId: `Component${pascal(category)}${pascal(name)}` };
}

/**
 * Every schema line of an archive, in Strapi's order: plugin types, the project's content types,
 * admin types, components. Plugin and admin types are Strapi 5.54's own.
 */
export function schemaLines(registry: Registry): unknown[] {
  const builtIn = (admin: boolean) => STRAPI_BUILT_IN_SCHEMAS.filter((s) => s.uid.startsWith('admin::') === admin).map((s): unknown => JSON.parse(s.line));
  return [...builtIn(false), ...registry.contentTypes.map(contentTypeLine), ...builtIn(true), ...registry.components.map(componentLine)];
}
