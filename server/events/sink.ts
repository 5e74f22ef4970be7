import type { Database, Db } from '../db/database.js';
import type { EventSink } from '../documents/index.js';
import { insertEvent, recordingUntil } from './store.js';

/**
 * The event sink the document and upload services write into: the webhooks' outbox, and the
 * change stream's table while recording is armed (a stream listened within the retention, in any
 * process on the database). Whether it is armed is kept in memory and read again when another
 * process has committed (Database.othersStamp), so a write costs no statement while nobody listens.
 */
export function createStreamSink(args: { database: Database; now: () => Date; inner: EventSink; committed: () => void }) {
  const { database, now, inner } = args;
  let cached: { stamp: string | null; until: number } | null = null;

  async function recording(db: Db): Promise<boolean> {
    const stamp = database.othersStamp?.() ?? null;
    if (stamp === null || !cached || cached.stamp !== stamp) cached = { stamp, until: await recordingUntil(db) };
    return cached.until > now().getTime();
  }

  const sink: EventSink = {
    wants: async (db, event) => (await inner.wants(db, event)) || (await recording(db)),
    async record(db, event, payload) {
      await inner.record(db, event, payload);
      if (await recording(db)) await insertEvent(db, event, payload, now());
    },
    committed: (db) => {
      inner.committed(db);
      args.committed();
    },
  };
  return {
    sink,
    /** This process armed recording until `until` (epoch ms). */
    armed(until: number): void {
      cached = { stamp: database.othersStamp?.() ?? null, until };
    },
    /** Until when this process last saw recording armed (0: unknown). */
    knownUntil: (): number => cached?.until ?? 0,
  };
}
