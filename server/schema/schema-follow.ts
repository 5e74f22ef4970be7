import type { Database } from '../db/database.js';
import { formatSchemaStamp, parseSchemaStamp, READ_SCHEMA_STAMP, readSchemaStamp, SCHEMA_CHANNEL, type SchemaStamp } from '../db/schema-version.js';
import { SCHEMA_POLL_MS } from '../limits.js';
import { sameStamp } from './schema-set.js';

/** A running follow of the database's schema set. */
export interface SchemaFollow {
  close(): Promise<void>;
}

/**
 * Team mode (PostgreSQL): calls `follow` (the schema controller's) when another instance commits
 * a schema change: at once on its `hearth_schema` notification, and, as the fallback for a lost
 * notification or a broken LISTEN connection, when a poll of the stamp every SCHEMA_POLL_MS finds
 * it moved. One follow runs at a time; a change seen meanwhile is followed right after.
 */
export function followSchemas(args: {
  database: Database;
  stamp: () => SchemaStamp | null;
  follow: () => Promise<void>;
  log: (message: string) => void;
}): SchemaFollow {
  const { database, log } = args;
  if (database.kind !== 'postgres' || args.stamp() === null) return { close: async () => {} };
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (closed) return;
    if (running !== null) {
      again = true;
      return;
    }
    running = args
      .follow()
      .catch((err: unknown) => log(`schemas: following the database's schema set failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const moved = (at: SchemaStamp | null) => at !== null && !sameStamp(at, args.stamp());
  const listener = database.listen?.(SCHEMA_CHANNEL, {
    message: (payload) => {
      const local = args.stamp();
      if (local === null || payload !== formatSchemaStamp(local)) run();
    },
    // Reconnected: a notification sent meanwhile was lost.
    connect: run,
  });
  let polling = false;
  const poll = setInterval(() => {
    if (polling || closed) return;
    polling = true;
    // On the LISTEN connection while it is up: the pool's connections stay for requests (and the
    // server's statement count, which tests read, holds only what requests ran).
    const read = async (): Promise<SchemaStamp | null> => {
      const value = await listener?.readValue(READ_SCHEMA_STAMP);
      return value === undefined ? readSchemaStamp(database.db) : parseSchemaStamp(typeof value === 'string' ? value : null);
    };
    read()
      .then((at) => {
        if (moved(at)) run();
      })
      .catch(() => undefined)
      .finally(() => (polling = false));
  }, SCHEMA_POLL_MS);
  poll.unref();
  return {
    async close() {
      closed = true;
      clearInterval(poll);
      await listener?.close();
      await running;
    },
  };
}
