import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultReadThreads, resolveConfig } from '../../server/config.js';
import type { Database } from '../../server/db/database.js';
import { openSqlite } from '../../server/db/sqlite.js';
import { createReadPool, type ReadPool } from '../../server/documents/read-pool.js';

/** Read threads (documents/read-pool.ts) on a real SQLite file the test's own connection writes. */

const opened: { dir: string; database: Database; pool: ReadPool | null }[] = [];

async function setUp(threads = 1, idleMs?: number) {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-read-pool-'));
  const database = openSqlite(join(dir, 'hearth.db'));
  await sql`create table notes (id integer primary key, body text, big integer)`.execute(database.db);
  const pool = database.readers ? createReadPool({ ...database.readers, threads, ...(idleMs === undefined ? {} : { idleMs }) }) : null;
  opened.push({ dir, database, pool });
  return { database, pool };
}

afterEach(async () => {
  for (const { dir, database, pool } of opened.splice(0)) {
    await pool?.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
});

const bodies = async (pool: ReadPool): Promise<unknown[]> => {
  const db = pool.db();
  if (db === null) throw new Error('the pool is off');
  return (await sql<{ body: string }>`select body from notes order by id`.execute(db)).rows.map((r) => r.body);
};

describe('read threads', () => {
  it('read what the server connection committed, integers exactly, and not a transaction in progress', async () => {
    const { database, pool } = await setUp();
    if (pool === null) throw new Error('a SQLite file has readers');
    await sql`insert into notes (body, big) values ('one', 9007199254740993), ('two', 7)`.execute(database.db);
    expect(await bodies(pool)).toEqual(['one', 'two']);
    const db = pool.db();
    if (db === null) throw new Error('the pool is off');
    const bigs = (await sql<{ big: unknown }>`select big from notes order by id`.execute(db)).rows.map((r) => r.big);
    expect(bigs).toEqual([9007199254740993n, 7]);
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('three')`.execute(trx);
      expect(await bodies(pool)).toEqual(['one', 'two']);
    });
    expect(await bodies(pool)).toEqual(['one', 'two', 'three']);
    expect(pool.stats()).toEqual({ threads: 1, reads: 4 });
  });

  it('answer an SQL error as a rejected promise with SQLite code and message, and go on', async () => {
    const { pool } = await setUp();
    const db = pool?.db();
    if (!pool || !db) throw new Error('a SQLite file has readers');
    await expect(sql`select nope from notes`.execute(db)).rejects.toMatchObject({ message: 'no such column: nope', code: 'SQLITE_ERROR' });
    await expect(sql`insert into notes (body) values ('x') returning id`.execute(db)).rejects.toMatchObject({ code: 'SQLITE_READONLY' });
    expect(await bodies(pool)).toEqual([]);
  });

  it('turn themselves off when a thread cannot open the file: reads go back to the server connection', async () => {
    const pool = createReadPool({ file: join(tmpdir(), 'hearth-no-such-dir', 'missing.db'), threads: 1 });
    try {
      const db = pool.db();
      if (db === null) throw new Error('the pool starts on');
      await expect(sql`select 1`.execute(db)).rejects.toThrow(/unable to open|directory does not exist|no such file/i);
      expect(pool.db()).toBeNull();
      expect(pool.stats().threads).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('end after a while without reads, and start again at the next one', async () => {
    const { database, pool } = await setUp(2, 100);
    if (pool === null) throw new Error('a SQLite file has readers');
    await sql`insert into notes (body) values ('one')`.execute(database.db);
    expect(await bodies(pool)).toEqual(['one']);
    expect(pool.stats().threads).toBe(2);
    const ended = Date.now() + 5000;
    while (pool.stats().threads > 0 && Date.now() < ended) await new Promise((r) => setTimeout(r, 25));
    expect(pool.stats().threads).toBe(0);
    await sql`insert into notes (body) values ('two')`.execute(database.db);
    expect(await bodies(pool)).toEqual(['one', 'two']);
    expect(pool.stats()).toEqual({ threads: 2, reads: 2 });
  });

  it('are none for an in-memory database', () => {
    const database = openSqlite(':memory:');
    expect(database.readers).toBeUndefined();
    return database.close();
  });
});

describe('the change stamp', () => {
  it('changes when a transaction ends: a read on another connection may have read the state before it', async () => {
    const { database } = await setUp();
    let during: string | null = null;
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('x')`.execute(trx);
      during = database.changeStamp();
    });
    expect(during).not.toBeNull();
    expect(database.changeStamp()).not.toBe(during);
  });
});

describe('HEARTH_READ_THREADS', () => {
  const threadsOf = (value: string | undefined) => resolveConfig({ data: tmpdir() }, value === undefined ? {} : { HEARTH_READ_THREADS: value }).readThreads;

  it('defaults to none on one core and two on more', () => {
    expect([1, 2, 4, 64].map(defaultReadThreads)).toEqual([0, 2, 2, 2]);
  });

  it('takes a whole number from 0 to 16, else refuses to start with the reason', () => {
    expect(threadsOf('0')).toBe(0);
    expect(threadsOf('3')).toBe(3);
    expect(() => threadsOf('17')).toThrow('HEARTH_READ_THREADS must be a whole number between 0 and 16 (got "17")');
    expect(() => threadsOf('two')).toThrow('HEARTH_READ_THREADS must be a whole number between 0 and 16 (got "two")');
  });
});
