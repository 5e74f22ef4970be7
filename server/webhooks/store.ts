import type { Db } from '../db/database.js';
import { WEBHOOK_DELIVERIES_TABLE, WEBHOOKS_TABLE, type WebhookTable } from '../db/system-tables.js';
import type { Selectable } from 'kysely';
import { PENDING } from './queue.js';
import type { WebhookInput } from './validate.js';

/** A webhook as the admin API answers it (Strapi's key order; `id` is a string, as Strapi's). */
export interface WebhookJson {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly headers: Record<string, unknown>;
  readonly events: string[];
  readonly isEnabled: boolean;
}

/** A stored webhook, with what only the dispatcher sees. */
export interface Webhook extends WebhookJson {
  readonly secret: string | null;
}

type Stored = Selectable<WebhookTable>;

function parsed<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export const webhookOf = (row: Stored): Webhook => ({
  id: String(row.id),
  name: row.name,
  url: row.url,
  headers: parsed<Record<string, unknown>>(row.headers, {}),
  events: parsed<string[]>(row.events, []),
  isEnabled: Number(row.enabled) === 1,
  secret: row.secret,
});

/** The admin API's form (no secret). */
export const webhookJson = ({ secret: _secret, ...json }: Webhook): WebhookJson => json;

/** Webhooks in hearth_webhooks, read from the database on every call (a CLI change is seen at once). */
export function createWebhookStore(args: { db: Db; now: () => Date; changed?: () => void; announce?: () => Promise<void> }) {
  const { db } = args;
  const stamp = () => args.now().toISOString();
  /** This process's outbox reads webhooks again; other processes are told (PostgreSQL's NOTIFY). */
  const changed = async (): Promise<void> => {
    args.changed?.();
    await args.announce?.();
  };
  const byId = async (id: number): Promise<Webhook | null> => {
    const row = await db.selectFrom(WEBHOOKS_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
    return row ? webhookOf(row) : null;
  };
  return {
    async list(): Promise<Webhook[]> {
      const rows = await db.selectFrom(WEBHOOKS_TABLE).selectAll().orderBy('id').execute();
      return rows.map(webhookOf);
    },
    get: byId,
    async create(input: WebhookInput): Promise<Webhook> {
      const now = stamp();
      const row = await db
        .insertInto(WEBHOOKS_TABLE)
        .values({
          name: input.name,
          url: input.url,
          headers: JSON.stringify(input.headers),
          events: JSON.stringify(input.events),
          enabled: 1,
          secret: input.secret ?? null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await changed();
      const created = await byId(Number(row.id));
      if (!created) throw new Error('the new webhook was not found');
      return created;
    },
    /** `{...existing, ...input}` as Strapi's update; null when there is no such webhook. */
    async update(id: number, input: WebhookInput): Promise<Webhook | null> {
      const existing = await byId(id);
      if (!existing) return null;
      await db
        .updateTable(WEBHOOKS_TABLE)
        .set({
          name: input.name,
          url: input.url,
          headers: JSON.stringify(input.headers),
          events: JSON.stringify(input.events),
          enabled: (input.isEnabled ?? existing.isEnabled) ? 1 : 0,
          secret: input.secret === undefined ? existing.secret : input.secret,
          updated_at: stamp(),
        })
        .where('id', '=', id)
        .execute();
      await changed();
      return byId(id);
    },
    /**
     * Removes a webhook; the one removed (null: none). Its pending deliveries are marked skipped in
     * the same transaction (one statement), rather than one by one by the dispatcher, which after
     * a busy webhook's removal would still walk thousands of them.
     */
    async remove(id: number): Promise<Webhook | null> {
      const existing = await byId(id);
      if (!existing) return null;
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable(WEBHOOK_DELIVERIES_TABLE)
          .set({ status: 'skipped', error: 'webhook removed', updated_at: stamp() })
          .where('webhook_id', '=', id)
          .where('status', '=', PENDING)
          .execute();
        await trx.deleteFrom(WEBHOOKS_TABLE).where('id', '=', id).execute();
      });
      await changed();
      return existing;
    },
  };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;
