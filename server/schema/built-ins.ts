import type { ContentTypeModel } from './types.js';

/**
 * The content types a plugin brings with it (users & permissions' user and role), handed to the
 * project loader and the registry by whoever builds one (server/index.ts, the CLI, imports):
 * schema/ knows the media library's file model, no plugin's.
 */
export interface BuiltInModels {
  /** The plugin's name: `plugin::<plugin>` owns the names below; `src/extensions/<plugin>/` extends the models. */
  readonly plugin: string;
  /** The models, served like a project's (filters, populate, relations to and from them). */
  readonly models: readonly ContentTypeModel[];
  /** The tables they own (with their link and session tables): no project type may claim them. */
  readonly tables: readonly string[];
  /** Their indexes beyond the primary keys, and the ones PostgreSQL names after unique columns. */
  readonly indexes: readonly string[];
}
