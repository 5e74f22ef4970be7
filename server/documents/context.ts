import type { Database, Db } from '../db/database.js';
import type { CompileContext } from '../compiler/context.js';
import type { LocaleService } from '../auth/locales.js';
import type { Registry } from '../schema/registry.js';
import type { WriteEnv } from './store.js';
import type { DocumentQuery } from '../query/ast.js';
import type { ContentTypeModel } from '../schema/types.js';
import type { EventSink } from './events.js';

/** Finishes populated file objects (absolute or signed URLs); `asStored`: it leaves every file as stored. */
export interface FilePresenter {
  present(files: Record<string, unknown>[]): Promise<void>;
  readonly asStored?: boolean;
}

/** What the document service is built from. */
export interface DocumentDeps {
  readonly database: Database;
  readonly registry: Registry;
  readonly locales: LocaleService;
  readonly now: () => Date;
  /** Finishes populated file objects (absolute or signed URLs): the upload module's `urls`. */
  readonly files: FilePresenter;
  /** Told of a list whose rows and total took longer than SLOW_LIST_MS to read. */
  readonly slowList?: (model: ContentTypeModel, query: DocumentQuery, ms: number) => void;
  /** Where SQL-built reads run outside transactions (read-pool.ts); absent or null: on `database.db`. */
  readonly reads?: () => Db | null;
  /** Where webhook events are recorded, in the write's transaction (events.ts); absent: none. */
  readonly events?: EventSink;
  /** Tests: what is built two ways (an event's entry, SQL-built and by the JS path) is compared, and differences throw. */
  readonly verifyReads?: boolean;
}

/** What a caller may see: Strapi leaves out relations whose target the caller may not `find`. */
export interface Access {
  readonly canRead: (uid: string) => boolean;
}

export const compileContext = (deps: DocumentDeps): CompileContext => ({ kind: deps.database.kind, registry: deps.registry, aliases: 0 });

export const writeEnv = (deps: DocumentDeps, db: Db, defaultLocale: string): WriteEnv => ({
  db,
  registry: deps.registry,
  now: () => deps.now().toISOString(),
  defaultLocale,
});
