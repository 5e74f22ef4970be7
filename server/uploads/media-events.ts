import type { Db, Row } from '../db/database.js';
import { defaultFields, serializeRow, type EventSink } from '../documents/index.js';
import type { Registry } from '../schema/registry.js';
import { fileModel } from '../schema/file-model.js';
import { fileRow } from './file-rows.js';

/**
 * Strapi's `media.create|update|delete` webhook events (its upload service's emitEvent): the file
 * row as stored and sanitized, `{ event, createdAt, media }`, recorded in the transaction that
 * writes the file row.
 */

export type MediaEvent = 'media.create' | 'media.update' | 'media.delete';

/** Runs `fn` in a transaction whose media events are recorded in it; the sink hears of the commit. */
export async function mediaTransaction<T>(
  db: Db,
  sink: EventSink | undefined,
  registry: () => Registry,
  fn: (trx: Db, raise: (event: MediaEvent, file: number | Row) => Promise<void>) => Promise<T>,
): Promise<T> {
  let recorded: Db | null = null;
  const out = await db.transaction().execute((trx) =>
    fn(trx, async (event, file) => {
      if (!sink || !(await sink.wants(trx, event))) return;
      const row = typeof file === 'number' ? await fileRow(trx, file) : file;
      if (!row) return;
      const model = fileModel(registry());
      await sink.record(trx, event, JSON.stringify({ media: serializeRow(model, row, defaultFields(model)) }));
      recorded = trx;
    }),
  );
  if (recorded) sink?.committed(recorded);
  return out;
}
