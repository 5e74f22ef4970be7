import type { Registry } from './registry.js';
import { FILES_TABLE } from '../db/system-tables.js';
import type { Attribute, ContentTypeModel, ScalarAttribute, ScalarType } from './types.js';
import { FILE_UID } from './types.js';

function scalar(name: string, type: ScalarType, extra: Partial<ScalarAttribute> = {}): Attribute {
  return {
    kind: 'scalar',
    name,
    type,
    required: false,
    private: false,
    localized: false,
    raw: { type },
    unique: false,
    default: undefined,
    min: undefined,
    max: undefined,
    minLength: undefined,
    maxLength: undefined,
    regex: undefined,
    enum: undefined,
    targetField: undefined,
    ...extra,
  };
}

/**
 * The media library's model (`plugin::upload.file`), shaped as Strapi's so that filters, sort,
 * fields and populate on files and on media attributes work like everywhere else.
 */
export const FILE_MODEL: ContentTypeModel = {
  modelType: 'contentType',
  uid: FILE_UID,
  kind: 'collectionType',
  singularName: 'file',
  pluralName: 'files',
  displayName: 'File',
  description: '',
  draftAndPublish: false,
  localized: false,
  builtIn: true,
  collectionName: FILES_TABLE,
  table: FILES_TABLE,
  raw: {},
  indexes: [],
  attributes: new Map<string, Attribute>(
    [
      scalar('name', 'string', { required: true }),
      scalar('alternativeText', 'text'),
      scalar('caption', 'text'),
      scalar('focalPoint', 'json'),
      scalar('width', 'integer'),
      scalar('height', 'integer'),
      scalar('formats', 'json'),
      scalar('hash', 'string', { required: true }),
      scalar('ext', 'string'),
      scalar('mime', 'string', { required: true }),
      scalar('size', 'decimal', { required: true }),
      scalar('url', 'text', { required: true }),
      scalar('previewUrl', 'text'),
      scalar('provider', 'string', { required: true }),
      scalar('provider_metadata', 'json'),
      scalar('folderPath', 'string', { private: true }),
    ].map((a) => [a.name, a]),
  ),
};

/**
 * Strapi's `plugin::upload.file` schema, attribute for attribute (its experimental `indexes` left
 * out): what a project's `src/extensions/upload/content-types/file/schema.json` is merged into.
 * Hearth keeps the rows in `hearth_files`, whatever `collectionName` says.
 */
export const FILE_PLUGIN_SCHEMA: Readonly<Record<string, unknown>> = {
  collectionName: 'files',
  info: { singularName: 'file', pluralName: 'files', displayName: 'File', description: '' },
  options: {},
  pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
  attributes: {
    name: { type: 'string', configurable: false, required: true },
    alternativeText: { type: 'text', configurable: false },
    caption: { type: 'text', configurable: false },
    focalPoint: { type: 'json', configurable: false },
    width: { type: 'integer', configurable: false },
    height: { type: 'integer', configurable: false },
    formats: { type: 'json', configurable: false },
    hash: { type: 'string', configurable: false, required: true },
    ext: { type: 'string', configurable: false },
    mime: { type: 'string', configurable: false, required: true },
    size: { type: 'decimal', configurable: false, required: true },
    url: { type: 'text', configurable: false, required: true },
    previewUrl: { type: 'text', configurable: false },
    provider: { type: 'string', configurable: false, required: true },
    provider_metadata: { type: 'json', configurable: false },
    related: { type: 'relation', relation: 'morphToMany', configurable: false },
    folder: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'files', private: true },
    folderPath: { type: 'string', minLength: 1, required: true, private: true, searchable: false },
  },
};

/** The file model the project serves: Hearth's, or the project's extension of it (schema/extensions.ts). */
export const fileModel = (registry: Registry): ContentTypeModel => registry.contentType(FILE_UID) ?? FILE_MODEL;
