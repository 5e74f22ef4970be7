import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQueryString } from '../../server/http/query-string.js';
import { readListQuery, readOneQuery } from '../../server/query/read-query.js';
import { collection, dataOf, writeProject, type Doc } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';

/**
 * Reads SQLite answers as JSON text (compiler/json-select.ts) are compared byte for byte with
 * JSON.stringify of the JS path's answer, over every scalar type with edge values, fields,
 * draft & publish, locales, nested components, dynamic zones, media and relations both ways. On
 * PostgreSQL (and for shapes SQLite does not print) the text read answers undefined and the HTTP
 * answers are the JS path's.
 */

let server: TestServer;
let reader: string;
let full: string;
const readable = ['api::item.item.find', 'api::item.item.findOne', 'api::tag.tag.find', 'api::place.place.find'];

const TEXT = 'quote " backslash \\ ctrl \u0001\u001f \b\f\n\r\t del \u007f ls \u2028 ps \u2029 emoji 😀 é </script>';
const FLOATS = [0.1 + 0.2, 1e-7, 1e21, 2, -0, 123456.789, 5e-324, 1.7976931348623157e308, -2.5, 0.000123, 1e15 + 0.5, null];
const BIGINTS = ['9007199254740993', '-9223372036854775808', '12', null];
const BOOLS = [true, false, null];
const JSONS = [{ a: 'é\u2028😀\u0000', n: [1.5, 1e21, -0, 1e-7, 1.0], nested: { x: null, t: true }, 10: 'index key', b: 'after' }, [1, 'two', null], 'just text', 42, null];

const relation = (kind: string, target: string, extra: Record<string, string> = {}) => ({ type: 'relation', relation: kind, target, ...extra });

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      item: collection(
        'item',
        'items',
        {
          s: { type: 'string' },
          txt: { type: 'text' },
          rich: { type: 'richtext' },
          blk: { type: 'blocks' },
          mail: { type: 'email' },
          pass: { type: 'password' },
          slug: { type: 'uid' },
          kind: { type: 'enumeration', enum: ['alpha', 'beta'] },
          i: { type: 'integer' },
          big: { type: 'biginteger' },
          f: { type: 'float' },
          dec: { type: 'decimal' },
          b: { type: 'boolean' },
          d: { type: 'date' },
          t: { type: 'time' },
          dt: { type: 'datetime' },
          ts: { type: 'timestamp' },
          j: { type: 'json' },
          hidden: { type: 'string', private: true },
          tag: relation('manyToOne', 'api::tag.tag'),
          tags: relation('manyToMany', 'api::tag.tag', { inversedBy: 'items' }),
          secret: relation('manyToOne', 'api::secret.secret'),
          place: relation('manyToOne', 'api::place.place'),
          detail: { type: 'component', component: 'shared.detail', repeatable: false },
          details: { type: 'component', component: 'shared.detail', repeatable: true },
          zone: { type: 'dynamiczone', components: ['shared.detail', 'shared.leaf'] },
          cover: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] },
          gallery: { type: 'media', multiple: true, allowedTypes: ['images', 'files'] },
        },
        { draftAndPublish: true },
      ),
      tag: collection('tag', 'tags', { label: { type: 'string' }, items: relation('manyToMany', 'api::item.item', { mappedBy: 'tags' }) }, { draftAndPublish: true }),
      secret: collection('secret', 'secrets', { code: { type: 'string' } }),
      place: collection('place', 'places', { name: { type: 'string' }, rank: { type: 'float' } }, { localized: true, draftAndPublish: true }),
    },
    components: {
      'shared.leaf': { attributes: { label: { type: 'string' }, weight: { type: 'float' }, on: { type: 'boolean' }, tag: relation('oneToOne', 'api::tag.tag'), image: { type: 'media', multiple: false } } },
      'shared.detail': {
        attributes: {
          note: { type: 'text' },
          amount: { type: 'decimal' },
          leaf: { type: 'component', component: 'shared.leaf', repeatable: false },
          leaves: { type: 'component', component: 'shared.leaf', repeatable: true },
          tags: relation('oneToMany', 'api::tag.tag'),
        },
      },
    },
  });
  server = await startTestServer({ schemas });
  full = await server.token('full-access');
  await server.server.services.locales.add({ code: 'fr' });
  await server.server.services.locales.add({ code: 'de' });
  reader = await server.token('custom', readable);
  const post = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'POST', token: full, json: { data } }), 201);
  const files: FileObject[] = [];
  for (const name of ['red-400x300.png', 'blue-64x48.jpg', 'notes.txt']) {
    const [file] = await json<FileObject[]>(await postUpload(server, full, [fixturePart(name)]), 201);
    if (file) files.push(file);
  }
  const tags: Doc[] = [];
  for (const label of ['red', TEXT, 'blue']) tags.push(await post('/api/tags', { label }));
  const draftTag = await post('/api/tags?status=draft', { label: 'draft only' });
  const secret = await post('/api/secrets', { code: 'x' });
  const place = await post('/api/places', { name: 'Paris', rank: 0.5 });
  const put = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'PUT', token: full, json: { data } }));
  await put(`/api/places/${place.documentId}?locale=fr`, { name: 'Paris (fr)', rank: 1e21 });
  await put(`/api/places/${place.documentId}?locale=de&status=draft`, { name: 'Paris (de)', rank: -2.5 });
  await post('/api/places', { name: 'Lyon', rank: 3 });
  const leaf = (n: number) => ({ label: `leaf ${n} ${TEXT}`, weight: FLOATS[n % FLOATS.length], on: BOOLS[n % 3], tag: tags[n % 3]?.id, image: files[n % files.length]?.id });
  const detail = (n: number) => ({ note: n % 2 ? null : TEXT, amount: FLOATS[(n + 3) % FLOATS.length], leaf: n % 3 ? leaf(n) : null, leaves: [leaf(n + 1), leaf(n + 2)].slice(0, n % 3), tags: [tags[0]?.id, draftTag.id, tags[2]?.id] });
  for (let n = 0; n < 14; n++) {
    const data = {
      s: n === 0 ? TEXT : `item ${n}`,
      txt: TEXT,
      rich: `# ${n}\n${TEXT}`,
      blk: [{ type: 'paragraph', children: [{ type: 'text', text: TEXT, bold: n % 2 === 0 }] }],
      mail: `a${n}@example.com`,
      pass: 'secret-password',
      slug: `item-${n}`,
      kind: n % 2 ? 'alpha' : 'beta',
      i: [0, -5, 2147483647, null][n % 4],
      big: BIGINTS[n % BIGINTS.length],
      f: FLOATS[n % FLOATS.length],
      dec: FLOATS[(n + 5) % FLOATS.length],
      b: BOOLS[n % 3],
      d: '2024-02-29',
      t: '13:45:30.123',
      dt: '2024-01-01T10:00:00.000Z',
      ts: n % 2 ? '2024-01-01T10:00:00.000Z' : null,
      j: JSONS[n % JSONS.length],
      hidden: 'private',
      tag: n % 4 === 3 ? null : tags[n % 3]?.id,
      tags: n % 5 === 4 ? [] : [tags[(n + 1) % 3]?.id, draftTag.id, tags[n % 3]?.id],
      secret: secret.id,
      place: n % 2 ? place.id : null,
      detail: n % 4 === 1 ? null : detail(n),
      details: [detail(n + 1), detail(n + 2)].slice(0, n % 3),
      zone: [
        { __component: 'shared.leaf', ...leaf(n) },
        { __component: 'shared.detail', ...detail(n) },
        { __component: 'shared.leaf', ...leaf(n + 1) },
      ].slice(0, n % 4),
      cover: n % 3 ? files[n % files.length]?.id : null,
      gallery: files.slice(0, n % 4).map((f) => f.id),
    };
    const created = await post('/api/items', data);
    if (n % 3 === 0) await server.request(`/api/items/${created.documentId}?status=draft`, { method: 'PUT', token: full, json: { data: { s: `draft of ${n}`, f: 0.7 } } });
  }
  const database = server.server.services.database;
  if (database.kind === 'sqlite') {
    // Stored forms no API write makes: the JS path's reading of them is the reference.
    const db = database.db;
    await sql`UPDATE items SET i = 9007199254740993 WHERE id = 1`.execute(db);
    await sql`UPDATE items SET i = 2.5, b = 2 WHERE id = 2`.execute(db);
    await sql`UPDATE items SET b = 'true', f = 'abc', big = 1e21 WHERE id = 3`.execute(db);
    await sql`UPDATE items SET b = 1.0, dec = -0.0, s = 42 WHERE id = 4`.execute(db);
    // Links an older publish may leave: the same tag twice (same and later position), positions unset.
    await sql`INSERT INTO items_tags_lnk (entity_id, target_id, ord, inv_ord) SELECT entity_id, target_id, ord, inv_ord FROM items_tags_lnk ORDER BY id LIMIT 2`.execute(db);
    await sql`INSERT INTO items_tags_lnk (entity_id, target_id, ord, inv_ord) SELECT entity_id, target_id, ord + 0.5, inv_ord FROM items_tags_lnk ORDER BY id LIMIT 3 OFFSET 4`.execute(db);
    await sql`UPDATE items_tags_lnk SET ord = NULL WHERE id IN (SELECT id FROM items_tags_lnk ORDER BY id LIMIT 3 OFFSET 8)`.execute(db);
  }
});
afterAll(() => server.close());

/** The page queries compared (`path` relative to /api). */
const LISTS = [
  'items',
  'items?populate=*',
  'items?fields[0]=s&fields[1]=f&fields[2]=s&populate[tags][fields][0]=label',
  'items?populate[detail][populate][leaf][populate]=*&populate[details][populate]=*',
  'items?populate[zone][on][shared.detail][populate][leaves][populate][image]=true&populate[zone][on][shared.leaf][fields][0]=label',
  'items?populate[tag][populate][items][populate][cover]=true&populate[tags]=true',
  'items?status=draft&populate=*',
  'items?sort=f:desc&pagination[page]=2&pagination[pageSize]=3&populate=*',
  'items?filters[s][$contains]=item&populate[zone]=true&populate[gallery]=true',
  'items?pagination[withCount]=false&populate[place]=true&populate[cover][fields][0]=name',
  'items?pagination[start]=5&pagination[limit]=4&populate[detail][populate][tags]=true',
  'tags?populate[items][populate]=*',
  'tags?status=draft&populate[items]=true',
  'places?locale=fr',
  'places?populate[localizations]=false',
  'places?populate=*',
  'places?locale=*&populate[localizations]=true',
  'places?locale=fr&populate[localizations][fields][0]=name',
  'places?status=draft&populate=*',
  'items?populate[place][populate][localizations]=true',
  'items?populate[tags][sort]=label&populate[tag][sort][0]=label:desc',
  'items?populate[tags][sort][0]=label:desc&populate[tags][sort][1]=id&populate[tags][fields][0]=label',
  'items?populate[details][sort]=amount:desc&populate[gallery][sort]=name&populate[gallery][fields][0]=name',
  'tags?populate[items][sort][0]=f:asc&populate[items][fields][0]=f&populate[items][fields][1]=s',
];

/** Shapes the JS path answers (no SQL-built text). */
const FALLBACK = ['tags?populate[items][sort]=tag.label', 'items?populate[tags][filters][label][$eq]=red', 'items?populate[tags][count]=true', 'places?populate[localizations][sort]=name'];

function parsed(path: string) {
  const [name = '', qs = ''] = path.split('?');
  const registry = server.server.services.documents.registry();
  const model = registry.routeModel(name.split('/')[0] ?? '');
  if (!model) throw new Error(`no model for ${path}`);
  const env = { registry, limits: { defaultLimit: 25, maxLimit: 100 }, canRead: (uid: string) => readable.includes(`${uid}.find`) };
  const access = { canRead: env.canRead };
  return { model, raw: parseQueryString(qs), env, access };
}

async function httpText(path: string): Promise<string> {
  const res = await server.request(`/api/${path}`, { token: reader });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return text;
}

describe('SQL-built read answers', () => {
  it('print lists exactly as the JS path does, byte for byte', async () => {
    const { documents } = server.server.services;
    const sqlite = server.server.services.database.kind === 'sqlite';
    for (const path of LISTS) {
      const { model, raw, env, access } = parsed(path);
      const { query, pagination } = readListQuery(raw, model, env);
      const reference = JSON.stringify(await documents.findMany({ model, query, pagination, access }));
      const text = await documents.findManyText({ model, query, pagination, access });
      if (sqlite) expect(text, path).toBe(reference);
      else expect(text, path).toBeUndefined();
      expect(await httpText(path), path).toBe(reference);
    }
  });

  it('print one document (and a single missing one) exactly as the JS path does', async () => {
    const { documents } = server.server.services;
    const sqlite = server.server.services.database.kind === 'sqlite';
    const ids = JSON.parse(await httpText('items?fields[0]=id&pagination[pageSize]=100')) as { data: { documentId: string }[] };
    const queries = ['populate=*', 'status=draft&populate=*', 'fields[0]=j&fields[1]=blk&populate[zone]=true', ''];
    for (const { documentId } of ids.data) {
      for (const qs of queries) {
        const { model, raw, env, access } = parsed(`items?${qs}`);
        const query = readOneQuery(raw, model, env);
        const entry = await documents.findOne({ model, documentId, query, access });
        const reference = entry === null ? null : JSON.stringify({ data: entry, meta: {} });
        const text = await documents.findOneText({ model, documentId, query, access });
        if (sqlite) expect(text, `${documentId}?${qs}`).toBe(reference);
        else expect(text).toBeUndefined();
        if (reference !== null) expect(await httpText(`items/${documentId}?${qs}`)).toBe(reference);
      }
    }
    const { model, raw, env, access } = parsed('items');
    const missing = await documents.findOneText({ model, documentId: 'nosuchdocument0000000000', query: readOneQuery(raw, model, env), access });
    expect(missing).toBe(sqlite ? null : undefined);
    expect((await server.request('/api/items/nosuchdocument0000000000', { token: reader })).status).toBe(404);
  });

  it('leave shapes they do not print to the JS path', async () => {
    const { documents } = server.server.services;
    for (const path of FALLBACK) {
      const { model, raw, env, access } = parsed(path);
      const { query, pagination } = readListQuery(raw, model, env);
      expect(await documents.findManyText({ model, query, pagination, access }), path).toBeUndefined();
      expect(await httpText(path)).toBe(JSON.stringify(await documents.findMany({ model, query, pagination, access })));
    }
  });

  it('leave out relations the caller may not read, as the JS path does', async () => {
    const all = async () => JSON.parse(await (await server.request('/api/items?populate=*', { token: full })).text()) as { data: Record<string, unknown>[] };
    expect((await all()).data.every((entry) => 'secret' in entry)).toBe(true);
    const answer = JSON.parse(await httpText('items?populate=*')) as { data: Record<string, unknown>[] };
    expect(answer.data.length).toBeGreaterThan(0);
    for (const entry of answer.data) {
      expect(entry).not.toHaveProperty('secret');
      expect(entry).toHaveProperty('tag');
      expect(entry).not.toHaveProperty('pass');
      expect(entry).not.toHaveProperty('hidden');
    }
    // The same shape for a caller who may read secrets is its own statement.
    expect((await all()).data.every((entry) => 'secret' in entry)).toBe(true);
  });
});
