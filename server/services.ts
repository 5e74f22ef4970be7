import type { CallerMemo } from './auth/caller-memo.js';
import type { AdminServices } from './admin/admin.js';
import type { SchemaController } from './admin/schema-controller.js';
import type { BearerStrategy } from './auth/caller.js';
import type { LocaleService } from './auth/locales.js';
import type { PermissionService } from './auth/permissions.js';
import type { TokenService } from './auth/api-tokens.js';
import type { Database } from './db/database.js';
import type { DocumentDeps } from './documents/context.js';
import type { Registry } from './schema/registry.js';
import type { HearthConfig } from './config.js';
import type { Uploads } from './uploads/uploads.js';
import type { ResponseCache } from './cache/response-cache.js';
import type { Users } from './users/users.js';
import type { ProjectCode } from './project-code/index.js';

/** How file objects are finished for responses (absolute URLs, signed URLs): set by the upload module. */
export interface FileAccess {
  /** Completes file objects in place (e.g. makes `url` absolute or signs it). */
  present(files: Record<string, unknown>[]): Promise<void>;
}

/** Files as stored: relative URLs, nothing to sign. */
export const plainFiles: FileAccess = { present: async () => {} };

/** Writes one line to stderr (stdout carries only the ready line and token plaintexts). */
export type Logger = (message: string) => void;

/** Everything the HTTP layer calls into, built once by startServer. */
export interface Services {
  readonly config: HearthConfig;
  readonly database: Database;
  readonly tokens: TokenService;
  readonly permissions: PermissionService;
  /** Bearer credentials the content and upload APIs accept, tried in order (API tokens first). */
  readonly bearer: readonly BearerStrategy[];
  /** Who recent credentials resolved to, while nothing is written (see auth/caller-memo.ts). */
  readonly callers: CallerMemo;
  readonly locales: LocaleService;
  readonly now: () => Date;
  readonly log: Logger;
  readonly files: FileAccess;
  /** Serialised GET answers of the content API, dropped by any write. */
  readonly responses: ResponseCache;
  /** The media backend: upload service, file reads, storage provider. */
  readonly uploads: Uploads;
  /** The current registry (the content-type builder may replace it at run time). */
  registry(): Registry;
  /** The desktop shell's per-launch secret (null under `hearth serve`). */
  readonly desktopSecret: string | null;
  /** Admin accounts and sessions (the admin API's callers). */
  readonly admin: AdminServices;
  /** Applies content-type builder edits and hand edits of the schemas folder to the running server. */
  readonly schemas: SchemaController;
  /** The built admin UI served at `/admin` (`dist/renderer` of the package). */
  readonly adminUiDir: string;
  /** Users & permissions: end-user accounts, roles, sessions, the user JWT strategy. */
  readonly users: Users;
  /** Told of content-API lists slower than SLOW_LIST_MS: logs the index that would answer them. */
  readonly slowList: DocumentDeps['slowList'];
  /** The project's route and middleware code as read at start-up: core routes' query defaults, and what is not run. */
  readonly projectCode: ProjectCode;
}

/** The document service's dependencies, bound to the current registry. */
export const documentDeps = (services: Services): DocumentDeps => ({
  database: services.database,
  registry: services.registry(),
  locales: services.locales,
  now: services.now,
  files: services.files,
  slowList: services.slowList,
});
