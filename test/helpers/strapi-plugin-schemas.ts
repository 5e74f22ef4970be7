// Strapi 5's own plugin content types as a project's extension file copies them
// (`src/extensions/<plugin>/content-types/<name>/schema.json` holds the whole schema: these
// attributes plus the project's). Written out here, not taken from Hearth's models, so the tests
// check Hearth against Strapi's files.

type Json = Record<string, unknown>;

/** `plugin::users-permissions.user`'s attributes. */
export const STRAPI_USER_ATTRIBUTES: Json = {
  username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
  email: { type: 'email', minLength: 6, configurable: false, required: true },
  provider: { type: 'string', configurable: false },
  password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
  resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
  confirmationToken: { type: 'string', configurable: false, private: true, searchable: false },
  confirmed: { type: 'boolean', default: false, configurable: false },
  blocked: { type: 'boolean', default: false, configurable: false },
  role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users', configurable: false },
};

/** A user extension file: Strapi's user schema with `attributes` as given (pass the base ones too). */
export const userExtension = (attributes: Json): Json => ({
  kind: 'collectionType',
  collectionName: 'up_users',
  info: { name: 'user', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
  options: { draftAndPublish: false, timestamps: true },
  attributes,
});

/** `plugin::upload.file`'s attributes. */
export const STRAPI_FILE_ATTRIBUTES: Json = {
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
};

/** A file extension file: Strapi's file schema with `attributes` as given (pass the base ones too). */
export const fileExtension = (attributes: Json): Json => ({
  collectionName: 'files',
  info: { singularName: 'file', pluralName: 'files', displayName: 'File', description: '' },
  options: {},
  pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
  attributes,
});
