import type { LocaleService } from '../auth/locales.js';
import type { Database, Db } from '../db/database.js';
import { createRegistryPins, type WriteTally } from './registry-pins.js';
import { disableDraftAndPublish, enableDraftAndPublish, type WriteEnv } from '../documents/index.js';
import { AppError, applicationError } from '../errors/app-error.js';
import { docsOf, sameDocs, type BuilderChange } from '../schema/builder.js';
import { planChange, type ChangePlan } from '../schema/change-plan.js';
import { loadProject } from '../schema/load.js';
import { buildRegistry, schemaWarnings, type Registry } from '../schema/registry.js';
import { fileChanges, writeFiles, type Undo } from '../schema/schema-writer.js';
import { isSchemaRace, readSchemaSet, registryOfSet, sameStamp, schemaChangedError, schemaSetOf, writeSchemaSet } from '../schema/schema-set.js';
import { parseSchemaStamp, readSchemaStamp, type SchemaStamp } from '../db/schema-version.js';
import { syncSchemaIn } from '../schema/sync.js';

/**
 * The running registry and the one way to change it: builder edits and hand edits of the schemas
 * folder are applied one at a time (a promise-chain mutex), each in one database transaction
 * that also writes the schema files, and the registry is swapped as the transaction ends.
 * Requests that already hold the old registry finish with it.
 */
export interface SchemaController {
  /** The registry of the request being served (pinned when it started), else the running one. */
  current(): Registry;
  /** Runs `fn` (a request's handling) with the running registry pinned, so a swap mid-request does not reach it. */
  pin<T>(fn: () => T): T;
  /**
   * Runs `fn` pinned, as `pin` does, until `until` calls its release (a request: when its response
   * has finished). Once nothing has been pinned for a while the AsyncLocalStorage is disabled: enabled, its promise
   * hooks cost every request of the process CPU (about 5% of a write's), pinned or not.
   * `tally` counts the write transactions it begins that get past the write guard (admin/schema-race.ts).
   */
  pinUntil<T>(fn: () => T, until: (release: () => void) => void, tally?: WriteTally): T;
  /**
   * Runs `fn` with `current()` answering `registry` during its synchronous part only: for a request
   * that holds its registry itself (the content API) calling a service that reads the registry once,
   * as it is called (the document service binds it per call). No AsyncLocalStorage is involved.
   */
  within<T>(registry: Registry, fn: () => T): T;
  /**
   * Applies one builder edit, computed from the registry current when its turn comes; resolves to the edited uid.
   * `alongside` runs in the same transaction once the tables match the new schemas (a live import's content).
   */
  apply(edit: (registry: Registry) => BuilderChange, alongside?: (db: Db, next: Registry) => Promise<void>): Promise<string>;
  /** Re-reads the schemas folder; an invalid or refused state is logged and the running registry stays. */
  reloadFromDisk(): Promise<void>;
  /** Resolves once no change is running or queued (before the database closes). */
  idle(): Promise<void>;
  /** Calls `listener` after each applied change (builder edit, schemas-folder reload, or one followed from the database); answers the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Team mode: the database's stamp of the running schemas; null on SQLite (the folder is the truth there). */
  stamp(): SchemaStamp | null;
  /** Team mode: runs the database's schema set if it is not the running one (no DDL: its tables are migrated). */
  follow(): Promise<void>;
  /** Applies `next` as the schemas folder's reload does (start-up with `--schema-source folder`); a refused change rejects. */
  applyRegistry(next: Registry): Promise<void>;
  /**
   * Runs a write planned under `registry`: on PostgreSQL pinned to it, so a transaction that
   * begins after a schema change committed is refused (schemaChangedError) instead of writing
   * under the old schemas; elsewhere as `within`. `tally` counts its write transactions that got past the guard.
   */
  forWrite<T>(registry: Registry, fn: () => T, tally?: WriteTally): T;
  /**
   * After a request planned under `used` failed: when the failure is a schema race (isSchemaRace)
   * and newer schemas are running once the database's set is followed, those (the request is run
   * again under them); else null.
   */
  recover(err: unknown, used: Registry): Promise<Registry | null>;
}

/** What the controller is built from. */
export interface SchemaControllerDeps {
  readonly database: Database;
  readonly schemasDir: string;
  readonly initial: Registry;
  readonly locales: LocaleService;
  readonly now: () => Date;
  readonly log: (message: string) => void;
  readonly acceptSchemaChanges: boolean;
  /** Team mode (PostgreSQL): the database's stamp of `initial` (schema/schema-start.ts); null on SQLite. */
  readonly stamp?: SchemaStamp | null;
  /** Who writes a new version of the set (host and pid). */
  readonly instance?: string;
  /** Team mode: called with each stamp the instance runs from then on (the data dir's record, schema/schema-start.ts). */
  readonly recordStamp?: (stamp: SchemaStamp) => Promise<void>;
}

const dataLossError = (plan: ChangePlan) =>
  applicationError('This change would delete stored data; send confirmDataLoss: true to make it anyway', { dataLoss: plan.loss });

/** Builds the schema controller around the registry the server started with. */
export function createSchemaController(deps: SchemaControllerDeps): SchemaController {
  const { database, now, log } = deps;
  let registry = deps.initial;
  /** Team mode: the database's stamp of `registry`, and the version each registry object ran as (the write guard's question). */
  let stamp = deps.stamp ?? null;
  const versions = new WeakMap<Registry, number>();
  if (stamp !== null) versions.set(registry, stamp.version);
  const pins = createRegistryPins();
  const pin = <T>(fn: () => T): T => pins.pin(registry, fn);
  let tail: Promise<unknown> = Promise.resolve();
  const listeners = new Set<() => void>();
  const announce = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        log(`schemas: a change listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };

  function exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  }

  const syncOptions = async () => ({
    acceptSchemaChanges: deps.acceptSchemaChanges,
    defaultLocale: await deps.locales.defaultCode(),
    now: () => now().toISOString(),
    log,
  });

  async function migrateDrafts(db: Db, next: Registry, plan: ChangePlan['draftAndPublish'], defaultLocale: string): Promise<void> {
    const env: WriteEnv = { db, registry: next, now: () => now().toISOString(), defaultLocale };
    for (const uid of plan.enabled) {
      const model = next.contentType(uid);
      if (model) await enableDraftAndPublish(env, model);
    }
    for (const uid of plan.disabled) {
      const model = next.contentType(uid);
      if (model) await disableDraftAndPublish(env, model);
    }
  }

  /**
   * Runs a change's database work and file writes in one transaction; the registry is swapped just
   * before commit. In team mode the same transaction checks that the running schemas are the
   * database's (else schemaChangedError: follow, then edit again) and writes the next version of
   * the set, announced at commit. Pinned to the running registry, so the write guard asks the same.
   */
  async function commit(next: Registry, work: (db: Db) => Promise<Undo | null>): Promise<void> {
    const before = registry;
    const beforeStamp = stamp;
    const written: { undo: Undo | null } = { undo: null };
    try {
      await pin(() =>
        database.db.transaction().execute(async (trx) => {
          const at = stamp === null ? null : await readSchemaStamp(trx);
          if (stamp !== null && !sameStamp(at, stamp)) throw schemaChangedError();
          written.undo = await work(trx);
          if (at !== null) {
            const set = schemaSetOf(next, { version: at.version + 1, writtenAt: now().toISOString(), writtenBy: deps.instance ?? '' });
            await writeSchemaSet(trx, database.kind, set);
            stamp = { version: set.version, hash: set.hash };
            versions.set(next, set.version);
          }
          registry = next;
        }),
      );
    } catch (err) {
      registry = before;
      stamp = beforeStamp;
      if (written.undo !== null) await written.undo();
      throw err;
    }
    await record();
    announce();
  }

  /** Tells the data dir which set runs now; a failure is logged (the next start then adopts the database's set). */
  async function record(): Promise<void> {
    if (stamp === null || deps.recordStamp === undefined) return;
    try {
      await deps.recordStamp(stamp);
    } catch (err) {
      log(`schemas: cannot record the running schema set version: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Runs `task`; when it was refused because the database's set moved on, follows it and runs `task` once more. */
  async function followingRaces<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (err) {
      if (stamp === null || !isSchemaRace(err)) throw err;
      await followNow();
      return task();
    }
  }

  /** The version whose parse failed, so it is logged once rather than at every poll. */
  let refused: number | null = null;

  /** Runs the database's set when it is not the running one: the tables are already migrated; the folder is rewritten to match. */
  async function followNow(): Promise<void> {
    if (stamp === null) return;
    const set = await readSchemaSet(database.db);
    if (set === null || sameStamp(set, stamp)) return;
    let next: Registry;
    try {
      next = registryOfSet(set, registry);
    } catch (err) {
      if (refused !== set.version)
        log(
          `schemas: cannot run the database's schema set version ${set.version} (written by ${set.writtenBy}), keeping version ${stamp.version}: ${err instanceof Error ? err.message : String(err)}`,
        );
      refused = set.version;
      return;
    }
    try {
      await writeFiles(deps.schemasDir, await fileChanges(deps.schemasDir, docsOf(registry), docsOf(next)));
    } catch (err) {
      log(`schemas: cannot mirror the database's schema set into ${deps.schemasDir}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const before = registry;
    registry = next;
    stamp = { version: set.version, hash: set.hash };
    versions.set(next, set.version);
    log(`schemas: now running the database's schema set version ${set.version} (written by ${set.writtenBy})`);
    const known = new Set(schemaWarnings(before));
    for (const warning of schemaWarnings(next)) if (!known.has(warning)) log(warning);
    await record();
    announce();
  }

  // The write guard: a transaction of a request pinned to schemas the database has moved past is refused before it writes.
  if (stamp !== null && database.guardWrites) {
    database.guardWrites((text) => {
      const planned = pins.pinned();
      const at = parseSchemaStamp(text);
      const version = planned === undefined ? undefined : versions.get(planned);
      if (at === null || version === undefined || version === at.version) return pins.wrote();
      throw schemaChangedError();
    });
  }

  async function applyChange(change: BuilderChange, alongside?: (db: Db, next: Registry) => Promise<void>): Promise<void> {
    const before = registry;
    const options = await syncOptions();
    const changes = await fileChanges(deps.schemasDir, docsOf(before), change.docs);
    await commit(change.registry, async (trx) => {
      const plan = await planChange(trx, before, change.registry, change.renames);
      if (plan.loss.length > 0 && !change.confirmDataLoss) throw dataLossError(plan);
      for (const step of plan.steps) await step(trx);
      await syncSchemaIn(trx, database.kind, change.registry, options);
      await migrateDrafts(trx, change.registry, plan.draftAndPublish, options.defaultLocale);
      await alongside?.(trx, change.registry);
      try {
        return await writeFiles(deps.schemasDir, changes);
      } catch (err) {
        throw applicationError(`Cannot write the schemas folder ${deps.schemasDir}: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    await database.optimize();
  }

  /** Applies the schemas of a folder (a hand edit, or a start with `--schema-source folder`): never deletes data. */
  async function applyFolder(next: Registry): Promise<void> {
    const before = registry;
    const options = await syncOptions();
    await commit(next, async (trx) => {
      const plan = await planChange(trx, before, next, new Map());
      await syncSchemaIn(trx, database.kind, next, options);
      // Hand edits never delete data: drafts are created when draft & publish is switched on, and kept when it is switched off.
      await migrateDrafts(trx, next, { enabled: plan.draftAndPublish.enabled, disabled: [] }, options.defaultLocale);
      return null;
    });
    await database.optimize();
    const known = new Set(schemaWarnings(before));
    for (const warning of schemaWarnings(next)) if (!known.has(warning)) log(warning);
  }

  async function reload(): Promise<void> {
    let next: Registry;
    try {
      next = buildRegistry(await loadProject(deps.schemasDir, registry.builtIns));
    } catch (err) {
      log(`schemas: ${deps.schemasDir} has an invalid schema, keeping the running one: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (sameDocs(docsOf(next), docsOf(registry))) return;
    try {
      await applyFolder(next);
      log(`schemas: reloaded ${deps.schemasDir}${stamp === null ? '' : ` as the database's schema set version ${stamp.version}`}`);
    } catch (err) {
      const message = err instanceof AppError || err instanceof Error ? err.message : String(err);
      log(`schemas: the change in ${deps.schemasDir} was not applied, keeping the running schemas: ${message.split('\n')[0]}`);
    }
  }

  return {
    current: () => pins.now() ?? registry,
    pin,
    pinUntil: (fn, until, tally) => pins.pinUntil(registry, fn, until, tally),
    within: pins.within,
    apply(edit, alongside) {
      return exclusive(() =>
        followingRaces(async () => {
          const change = edit(registry);
          await applyChange(change, alongside);
          return change.uid;
        }),
      );
    },
    reloadFromDisk: () => exclusive(reload),
    idle: () => tail.then(() => undefined),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stamp: () => stamp,
    follow: () => exclusive(followNow),
    applyRegistry: (next) => exclusive(() => applyFolder(next)),
    forWrite: (planned, fn, tally) => (stamp === null ? pins.within(planned, fn) : pins.pin(planned, fn, tally)),
    async recover(err, used) {
      if (stamp === null || !isSchemaRace(err)) return null;
      await exclusive(followNow);
      return registry === used ? null : registry;
    },
  };
}
