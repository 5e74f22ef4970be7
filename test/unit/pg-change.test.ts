import { describe, expect, it } from 'vitest';
import { mayWrite, writesOnlyBookkeeping } from '../../server/db/pg-change.js';

/** Which statements outside a transaction bump PostgreSQL's change stamp (pg-pool.ts): every write but a bookkeeping one. */
describe('writesOnlyBookkeeping', () => {
  it.each([
    ['insert into "hearth_instances" ("id", "last_seen") values ($1, $2) on conflict ("id") do update set "last_seen" = $3', true],
    ['delete from "hearth_instances" where "last_seen" < $1', true],
    ['insert into "hearth_rate_limits" ("key", "hits") values ($1, $2) on conflict ("key") do update set "hits" = 1 returning "hits"', true],
    ['update "hearth_webhook_deliveries" set "status" = $1 where "id" in (select "id" from "hearth_webhook_deliveries" where "webhook_id" = $2)', true],
    ['delete from "hearth_webhook_events" where not exists (select "id" from "hearth_webhook_deliveries")', true],
    ['insert into "hearth_stream_events" ("event") values ($1)', true],
    // Content, and anything unsure, bumps.
    ['update "articles" set "title" = $1', false],
    ['insert into "hearth_files" ("name") values ($1)', false],
    ['insert into "hearth_instances_copy" ("id") values ($1)', false],
    ['with gone as (delete from "articles" returning "id") delete from "hearth_instances"', false],
    ['delete from "hearth_instances"; delete from "articles"', false],
    ['update "public"."hearth_instances" set "last_seen" = $1', false],
  ])('%s: %s', (text, bookkeeping) => {
    expect(mayWrite(text)).toBe(true);
    expect(writesOnlyBookkeeping(text)).toBe(bookkeeping);
  });
});
