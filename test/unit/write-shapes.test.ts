import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../server/db/database.js';
import { openSqlite } from '../../server/db/sqlite.js';
import { rowValues, runWrite, writeRows } from '../../server/documents/write-shapes.js';
import { maxOrders } from '../../server/documents/batch-write.js';

let database: Database;
let db: Db;

beforeAll(async () => {
  database = openSqlite(join(await mkdtemp(join(tmpdir(), 'hearth-shapes-')), 'test.db'));
  db = database.db;
  await db.schema.createTable('things').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('name', 'text').addColumn('size', 'real').execute();
});
afterAll(() => database.close());

/** A build that counts how often Kysely was asked to build the statement. */
const counting = <T>(build: () => T) => {
  const calls = { n: 0 };
  return { calls, build: () => (calls.n++, build()) };
};

describe('write statements compiled once per shape', () => {
  it('builds a shape once, then binds only new values (in a transaction too: its handle is a new object)', async () => {
    const insert = (name: string, size: number) => counting(() => db.insertInto('things').values({ name, size }).returning('id'));
    const first = insert('a', 1);
    const [a] = await writeRows(db, 'test-insert|things', ['a', 1], first.build);
    expect(first.calls.n).toBe(1);
    const second = insert('b', 2);
    const b = await db.transaction().execute((trx) => writeRows(trx, 'test-insert|things', ['b', 2], second.build));
    expect(second.calls.n).toBe(0);
    const rows = await db.selectFrom('things').select(['id', 'name', 'size']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: a?.id, name: 'a', size: 1 },
      { id: b[0]?.id, name: 'b', size: 2 },
    ]);
  });

  it('keeps integers, other numbers and bigints apart (PostgreSQL casts each kind in the text)', async () => {
    const select = counting(() => db.selectFrom('things').select('name').where('size', '=', 2.5));
    await writeRows(db, 'test-size|things', [2.5], select.build);
    expect(select.calls.n).toBe(1);
    await writeRows(db, 'test-size|things', [1], select.build);
    expect(select.calls.n).toBe(2);
    await writeRows(db, 'test-size|things', [7.25], select.build);
    expect(select.calls.n).toBe(2);
  });

  it('runs a first compile whose values differ from the given ones as compiled, and keeps nothing', async () => {
    const wrong = counting(() => db.selectFrom('things').select('name').where('name', '=', 'a'));
    expect(await writeRows(db, 'test-pinned|things', ['b'], wrong.build)).toEqual([{ name: 'a' }]);
    expect(await writeRows(db, 'test-pinned|things', ['b'], wrong.build)).toEqual([{ name: 'a' }]);
    expect(wrong.calls.n).toBe(2);
  });

  it('compiles a statement of many values each time', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => i + 1);
    const del = counting(() => db.deleteFrom('things').where('id', 'in', ids));
    await runWrite(db, 'test-many|things', ids, del.build);
    await runWrite(db, 'test-many|things', ids, del.build);
    expect(del.calls.n).toBe(2);
  });

  it('gives the parameters of rows of one shape, and null for rows of another or with undefined values', () => {
    expect(rowValues(['a', 'b'], [{ a: 1, b: null }, { a: 2, b: 'x' }])).toEqual([1, null, 2, 'x']);
    expect(rowValues(['a', 'b'], [{ b: 1, a: 2 }])).toBeNull();
    expect(rowValues(['a', 'b'], [{ a: 1 }])).toBeNull();
    expect(rowValues(['a', 'b'], [{ a: 1, b: undefined }])).toBeNull();
  });
});

describe('maxOrders', () => {
  it('gives each target its greatest order (0 without links), as a GROUP BY would, across compound-SELECT chunks', async () => {
    await db.schema.createTable('links').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('target_id', 'integer').addColumn('inv_ord', 'real').execute();
    await db.schema.createIndex('links_target_idx').on('links').columns(['target_id', 'inv_ord']).execute();
    const rows = Array.from({ length: 1500 }, (_, i) => ({ target_id: (i * 7) % 700, inv_ord: (i % 13) + 0.5 }));
    for (let i = 0; i < rows.length; i += 100) await db.insertInto('links').values(rows.slice(i, i + 100)).execute();
    const targets = Array.from({ length: 800 }, (_, i) => i);
    const grouped = await db.selectFrom('links').select(['target_id', (eb) => eb.fn.max('inv_ord').as('m')]).groupBy('target_id').execute();
    const expected = new Map(targets.map((t) => [t, 0]));
    for (const r of grouped) expected.set(Number(r.target_id), Number(r.m));
    expect(await maxOrders(db, { table: 'links', column: 'target_id', order: 'inv_ord', targets: [...targets, 3, 3] })).toEqual(expected);
  });
});
