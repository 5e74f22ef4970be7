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
  collectionName: 'hearth_files',
  table: 'hearth_files',
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
