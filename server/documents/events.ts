import type { Db, Row } from '../db/database.js';
import type { DocumentQuery, PopulateMap, PopulateNode } from '../query/ast.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel, Model } from '../schema/types.js';
import type { DocumentDeps } from './context.js';
import { entryText, sameText } from './read-text.js';
import { present } from './reader.js';

/**
 * Webhook events of document writes (Strapi's `entry.*`): raised while a write runs, built and
 * recorded (deps.events, the webhooks outbox) at the end of the same transaction, one per stored
 * version, in the order they were raised.
 */

/** The entry events Strapi 5's document service emits. */
export type EntryEvent = 'entry.create' | 'entry.update' | 'entry.delete' | 'entry.publish' | 'entry.unpublish' | 'entry.draft-discard';

/** Where the document service records events, inside the write's transaction (webhooks/outbox.ts implements it). */
export interface EventSink {
  /** Whether anything wants this event now (read in the transaction): when not, its entry is not even built. */
  wants(db: Db, event: string): Promise<boolean>;
  /** Records an event: `payload` is the JSON text of an object holding the body's keys after `event` and `createdAt`, in order. */
  record(db: Db, event: string, payload: string): Promise<void>;
  /** The transaction `db` that recorded events has committed: their deliveries may start (without `db`: whatever is pending). */
  committed(db?: Db): void;
}

/** One raised event: a row re-read (and populated) at the end of the transaction, a row as it was before its removal, or an entry built already. */
type Raised = { readonly event: EntryEvent; readonly model: ContentTypeModel } & ({ readonly rowId: number } | { readonly row: Row } | { readonly entry: Record<string, unknown> });

/** The events one transaction raises, in order. */
export interface RaisedEvents {
  /** An event about the row `rowId` as it will be when the write ends (create, update, publish, draft-discard). */
  raise(event: EntryEvent, model: ContentTypeModel, rowId: number): void;
  /** Events about rows about to be removed (delete, unpublish): their scalars as they are now. */
  removed(event: EntryEvent, model: ContentTypeModel, rows: readonly Row[]): void;
  /**
   * An event about a row about to be removed, populated as `raise` populates (the content
   * manager's unpublish of one document): built now, while its relations and components exist.
   */
  removing(event: EntryEvent, model: ContentTypeModel, row: Row): Promise<void>;
  readonly list: readonly Raised[];
}

/** The events of one transaction; `removing` builds its entries with `deps` in `trx` (without them it records scalars, as `removed`). */
export function raisedEvents(scope?: { deps: DocumentDeps; trx: Db }): RaisedEvents {
  const list: Raised[] = [];
  return {
    list,
    raise: (event, model, rowId) => void list.push({ event, model, rowId }),
    removed: (event, model, rows) => {
      for (const row of rows) list.push({ event, model, row });
    },
    async removing(event, model, row) {
      if (!scope) return void list.push({ event, model, row });
      const { deps, trx } = scope;
      if (!deps.events || !(await deps.events.wants(trx, event))) return;
      const status = row.publishedAt === null ? 'draft' : 'published';
      const [entry] = await present(deps, trx, model, [row], readQuery(deepPopulate(deps.registry, model), status), everyone);
      if (entry !== undefined) list.push({ event, model, entry });
    },
  };
}

const everyone = { canRead: () => true };

const node = (attribute: string, populate: PopulateMap, on: ReadonlyMap<string, PopulateNode> | null = null): PopulateNode => ({
  attribute,
  fields: null,
  filters: null,
  sort: [],
  populate,
  on,
  count: false,
  star: false,
  start: null,
  limit: null,
});

/**
 * Strapi's `getDeepPopulate`: relations one level (their scalars), media, components and dynamic
 * zones all the way down; never `localizations` or private attributes.
 */
function deepPopulate(registry: Registry, model: Model): PopulateMap {
  const out = new Map<string, PopulateNode>();
  for (const attr of model.attributes.values()) {
    if (attr.private) continue;
    if (attr.kind === 'relation' || attr.kind === 'media') out.set(attr.name, node(attr.name, new Map()));
    else if (attr.kind === 'component') {
      const component = registry.component(attr.component);
      out.set(attr.name, node(attr.name, component ? deepPopulate(registry, component) : new Map()));
    } else if (attr.kind === 'dynamiczone') {
      const on = new Map<string, PopulateNode>();
      for (const uid of attr.components) {
        const component = registry.component(uid);
        if (component) on.set(uid, node(uid, deepPopulate(registry, component)));
      }
      out.set(attr.name, node(attr.name, new Map(), on));
    }
  }
  return out;
}

const readQuery = (populate: PopulateMap, status: 'draft' | 'published'): DocumentQuery => ({
  fields: null,
  filters: null,
  sort: [],
  populate,
  status,
  locale: null,
  publicationFilter: null,
  search: null,
});

/** The JSON text of a row about to be removed, as an event's entry (its scalars); null when it is not presented. */
async function scalarsText(deps: DocumentDeps, trx: Db, model: ContentTypeModel, row: Row): Promise<string | null> {
  const [entry] = await present(deps, trx, model, [row], readQuery(new Map(), row.publishedAt === null ? 'draft' : 'published'), everyone);
  return entry === undefined ? null : JSON.stringify(entry);
}

/**
 * The JSON text of the row `rowId` as it is now in `trx`, populated as Strapi's `getDeepPopulate`,
 * as an event's entry; null when there is no such row. Built by SQLite in one statement where the
 * shape allows it (read-text.ts: the bytes of the JS path's entry, without its statement per
 * relation and component level and its objects), else by the JS path. With verifyReads both are
 * built and must be equal.
 */
async function populatedText(deps: DocumentDeps, trx: Db, model: ContentTypeModel, rowId: number): Promise<string | null> {
  const row = await trx.selectFrom(model.table).selectAll().where('id', '=', rowId).executeTakeFirst();
  if (row === undefined) return null;
  const query = readQuery(deepPopulate(deps.registry, model), row.publishedAt === null ? 'draft' : 'published');
  const fast = await entryText(deps, trx, model, rowId, query);
  if (fast !== undefined && deps.verifyReads !== true) return fast;
  const [entry] = await present(deps, trx, model, [row], query, everyone);
  const slow = entry === undefined ? null : JSON.stringify(entry);
  if (fast !== undefined) sameText(fast, slow);
  return slow;
}

/** Builds each raised event's entry and records it, inside the transaction `trx` (nothing when nothing wants it). */
export async function recordEvents(deps: DocumentDeps, trx: Db, raised: RaisedEvents): Promise<boolean> {
  const sink = deps.events;
  if (!sink || raised.list.length === 0) return false;
  const wanted = new Map<string, boolean>();
  let recorded = false;
  for (const item of raised.list) {
    let wants = wanted.get(item.event);
    if (wants === undefined) wanted.set(item.event, (wants = await sink.wants(trx, item.event)));
    if (!wants) continue;
    const { model } = item;
    const entry = 'entry' in item ? JSON.stringify(item.entry) : 'row' in item ? await scalarsText(deps, trx, model, item.row) : await populatedText(deps, trx, model, item.rowId);
    if (entry === null) continue;
    await sink.record(trx, item.event, `{"model":${JSON.stringify(model.singularName)},"uid":${JSON.stringify(model.uid)},"entry":${entry}}`);
    recorded = true;
  }
  return recorded;
}

/**
 * Runs a write in one transaction whose raised events are recorded at its end, in it; once it has
 * committed, the sink is told (deliveries start after the commit, never inside the write).
 */
export async function eventTransaction<T>(deps: DocumentDeps, fn: (trx: Db, events: RaisedEvents) => Promise<T>): Promise<T> {
  let recorded: Db | null = null;
  const out = await deps.database.db.transaction().execute(async (trx) => {
    const events = raisedEvents({ deps, trx });
    const result = await fn(trx, events);
    if (await recordEvents(deps, trx, events)) recorded = trx;
    return result;
  });
  if (recorded) deps.events?.committed(recorded);
  return out;
}
