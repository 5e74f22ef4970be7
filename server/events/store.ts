import type { Db } from '../db/database.js';
import { getMeta, setMeta } from '../db/migrations.js';
import { STREAM_EVENTS_TABLE } from '../db/system-tables.js';

/**
 * The change stream's table, hearth_stream_events, and its two hearth_meta keys:
 * - `event_stream_until`: events are recorded until this time (ISO); a stream opening moves it a
 *   retention ahead, so writes cost nothing while nobody has listened for a retention;
 * - `event_stream_floor`: the highest id a client cannot resume after (what pruning deleted, or the
 *   last id before recording stopped): a Last-Event-ID at or below it gets a `reset`.
 */

const UNTIL_KEY = 'event_stream_until';
const FLOOR_KEY = 'event_stream_floor';

/** One recorded event, as the stream sends it. */
export interface StoredEvent {
  readonly id: number;
  readonly event: string;
  /** The webhook body's keys after `event` and `createdAt` (`model, uid, entry` or `media`). */
  readonly payload: Record<string, unknown>;
  readonly createdAt: string;
}

/** Records one event in `db` (the write's transaction); `payload` is its JSON text. */
export async function insertEvent(db: Db, event: string, payload: string, createdAt: Date): Promise<void> {
  await db.insertInto(STREAM_EVENTS_TABLE).values({ event, payload, created_at: createdAt.toISOString() }).execute();
}

/** Events after `cursor`, oldest first, at most `limit`. */
export async function eventsAfter(db: Db, cursor: number, limit: number): Promise<StoredEvent[]> {
  const rows = await db.selectFrom(STREAM_EVENTS_TABLE).selectAll().where('id', '>', cursor).orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), event: r.event, payload: JSON.parse(r.payload) as Record<string, unknown>, createdAt: r.created_at }));
}

/** The newest event id (0 when there is none). */
export async function lastEventId(db: Db): Promise<number> {
  const row = await db.selectFrom(STREAM_EVENTS_TABLE).select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
}

/** Until when events are recorded (epoch ms; 0: never armed). */
export async function recordingUntil(db: Db): Promise<number> {
  const value = await getMeta(db, UNTIL_KEY);
  const at = value === undefined ? NaN : Date.parse(value);
  return Number.isNaN(at) ? 0 : at;
}

/** The highest id a Last-Event-ID must be above to resume. */
export async function resumeFloor(db: Db): Promise<number> {
  const value = Number(await getMeta(db, FLOOR_KEY));
  return Number.isFinite(value) ? value : 0;
}

const raiseFloor = async (db: Db, to: number): Promise<void> => {
  if (to > (await resumeFloor(db))) await setMeta(db, FLOOR_KEY, String(to));
};

/**
 * Keeps events recorded until `until` (in one transaction). When recording had stopped (or never
 * started), what came before is a gap nobody can resume across: the floor moves to the newest id.
 */
export async function armRecording(db: Db, now: number, until: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if ((await recordingUntil(trx)) < now) await raiseFloor(trx, await lastEventId(trx));
    await setMeta(trx, UNTIL_KEY, new Date(until).toISOString());
  });
}

/** Deletes events older than `before` (ISO) and all but the newest `keep`, raising the floor to the last one deleted. */
export async function pruneEvents(db: Db, before: string, keep: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const newest = await lastEventId(trx);
    const old = await trx.selectFrom(STREAM_EVENTS_TABLE).select((eb) => eb.fn.max('id').as('id')).where('created_at', '<', before).executeTakeFirst();
    const through = Math.max(old?.id === null || old?.id === undefined ? 0 : Number(old.id), newest - keep);
    if (through <= 0) return 0;
    const gone = await trx.deleteFrom(STREAM_EVENTS_TABLE).where('id', '<=', through).executeTakeFirst();
    await raiseFloor(trx, through);
    return Number(gone.numDeletedRows);
  });
}
