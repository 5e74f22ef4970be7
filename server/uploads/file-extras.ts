import { extensionDefaults } from '../documents/scalars.js';
import { FILE_MODEL, fileModel } from '../schema/file-model.js';
import type { Registry } from '../schema/registry.js';

/**
 * The attributes a project's extension (`src/extensions/upload/content-types/file/schema.json`)
 * adds to the file, as new files get them. Strapi's upload service creates files with its
 * database layer, which fills each scalar's `default`; values are never taken from `fileInfo`
 * (its content-API validator refuses unknown keys, its admin one drops them).
 */
export function extraDefaults(registry: Registry): Record<string, unknown> {
  return extensionDefaults(fileModel(registry), FILE_MODEL);
}
