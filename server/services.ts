import type { CallerMemo } from './auth/caller-memo.js';
import type { AdminServices } from './admin/admin.js';
import type { SchemaController } from './admin/schema-controller.js';
import type { BearerStrategy } from './auth/caller.js';
import type { LocaleService } from './auth/locales.js';
import type { PermissionService } from './auth/permissions.js';
import type { TokenService } from './auth/api-tokens.js';
import type { Database } from './db/database.js';
import type { DocumentService } from './documents/index.js';
import type { Registry } from './schema/registry.js';
import type { HearthConfig } from './config.js';
import type { Uploads } from './uploads/uploads.js';
import type { ResponseCache } from './cache/response-cache.js';
import type { Users } from './users/users.js';
import type { ProjectCode } from './project-code/index.js';
import type { Logger } from './logger.js';
import type { Webhooks } from './webhooks/index.js';
import type { EventStream } from './events/index.js';
import type { Instances } from './db/instances.js';

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
  /** The document service: every read and write of documents (content API, content manager, users). */
  readonly documents: DocumentService;
  /** The project's route and middleware code as read at start-up: core routes' query defaults, and what is not run. */
  readonly projectCode: ProjectCode;
  /** Webhooks: their store, the outbox writes record events into, delivery (webhooks/index.ts). */
  readonly webhooks: Webhooks;
  /** The live change stream, GET /hearth/events (events/index.ts). */
  readonly events: EventStream;
  /** Team mode: this instance's heartbeat on a shared PostgreSQL database, and what the others mean for it. */
  readonly instances: Instances;
}

