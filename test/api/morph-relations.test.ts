import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { MAX_POPULATE_DEPTH } from '../../server/limits.js';

/**
 * Schemas with Strapi's polymorphic relations (`morphToOne`, `morphToMany`, `morphOne`,
 * `morphMany`), as plugins and some projects declare them: the project starts on both databases,
 * the morph relations are kept in the schema and get Strapi's `_mph` join table, and every other
 * attribute works as before.
 */

let server: TestServer;
let token = '';

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      note: collection('note', 'notes', {
        body: { type: 'text' },
        targets: { type: 'relation', relation: 'morphToMany' },
        subject: { type: 'relation', relation: 'morphToOne' },
        tag: { type: 'relation', relation: 'manyToOne', target: 'api::tag.tag' },
      }),
      tag: collection('tag', 'tags', {
        name: { type: 'string' },
        notes: { type: 'relation', relation: 'morphMany', target: 'api::note.note', morphBy: 'targets' },
        attachments: { type: 'relation', relation: 'morphMany', target: 'plugin::upload.file', morphBy: 'related' },
        lead: { type: 'relation', relation: 'morphOne', target: 'api::note.note', morphBy: 'subject' },
      }),
      post: collection('post', 'posts', { title: { type: 'string' }, refs: { type: 'relation', relation: 'morphToMany' }, notes: { type: 'relation', relation: 'morphMany', target: 'api::note.note', morphBy: 'targets' } }, { draftAndPublish: true }),
      secret: collection('secret', 'secrets', { code: { type: 'string' } }),
    },
  });
  server = await startTestServer({ schemas });
  token = await server.token('full-access');
});
afterAll(() => server.close());

describe('a project with morph relations', () => {
  it('starts, and its other attributes and relations are written and read as before', async () => {
    const { data: tag } = await expectJson<{ data: { documentId: string } }>(await server.request('/api/tags', { method: 'POST', token, json: { data: { name: 'soup' } } }), 201);
    await expectJson(await server.request('/api/notes', { method: 'POST', token, json: { data: { body: 'hot', tag: tag.documentId } } }), 201);
    const { data } = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/notes?populate=tag', { token }), 200);
    expect(data).toEqual([expect.objectContaining({ body: 'hot', tag: expect.objectContaining({ name: 'soup' }) })]);
    expect(data[0]).not.toHaveProperty('targets');
    const star = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/tags?populate=*', { token }), 200);
    expect(star.data[0]).toMatchObject({ name: 'soup' });
  });

  it('creates Strapi morph join tables for the morph-to sides', async () => {
    const tables = (await server.server.services.database.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['notes_targets_mph', 'notes_subject_mph']));
    expect(tables.filter((t) => t.startsWith('tags_'))).toEqual([]);
  });
});

describe('morph relations Hearth cannot resolve', () => {
  it.each([
    ['an unknown target', { rel: { type: 'relation', relation: 'morphMany', target: 'api::nothing.nothing', morphBy: 'x' } }, 'relation target "api::nothing.nothing" is not a known content type'],
    ['a morphBy that is not a morph-to relation', { rel: { type: 'relation', relation: 'morphMany', target: 'api::item.item', morphBy: 'label' } }, '"api::item.item" has no morphToOne or morphToMany relation "label"'],
    ['a morphMany without morphBy', { rel: { type: 'relation', relation: 'morphMany', target: 'api::item.item' } }, 'a morphMany relation needs "target" and "morphBy"'],
  ])('refuses %s by name', async (_what, attributes, message) => {
    const schemas = await writeProject({ types: { item: collection('item', 'items', { label: { type: 'string' }, ...attributes }) } });
    await expect(startTestServer({ schemas })).rejects.toThrow(message);
  });
});

type Entry = Record<string, unknown> & { id: number; documentId: string };
const create = async (plural: string, data: Record<string, unknown>, query = '') =>
  (await expectJson<{ data: Entry }>(await server.request(`/api/${plural}${query}`, { method: 'POST', token, json: { data } }), 201)).data;
const get = async (path: string, as = token) => expectJson<{ data: Entry[] }>(await server.request(path, { token: as }), 200);

describe('morph relations are written and populated as Strapi does', () => {
  it('writes a morphToMany list of { __type, documentId | id } and populates it in order, each entry with __type last', async () => {
    const tag = await create('tags', { name: 'red' });
    const secret = await create('secrets', { code: 'x' });
    const note = await create('notes', {
      body: 'mixed',
      targets: [
        { __type: 'api::secret.secret', id: secret.id },
        { __type: 'api::tag.tag', documentId: tag.documentId },
      ],
      subject: { __type: 'api::tag.tag', documentId: tag.documentId },
    });
    const { data } = await get(`/api/notes/${note.documentId}?populate=targets,subject`.replace('/api/notes/', '/api/notes?filters[documentId]=').replace('?populate', '&populate'));
    const read = data[0] as Entry;
    expect(read.targets).toEqual([
      { __type: 'api::secret.secret', id: secret.id, documentId: secret.documentId, code: 'x', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String) },
      { __type: 'api::tag.tag', id: tag.id, documentId: tag.documentId, name: 'red', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String) },
    ]);
    expect(Object.keys((read.targets as Entry[])[0] as Entry).at(-1)).toBe('__type');
    expect(read.subject).toMatchObject({ __type: 'api::tag.tag', documentId: tag.documentId });
    // The inverse side reads the morph-to table.
    const tags = await get(`/api/tags?filters[documentId]=${tag.documentId}&populate[notes][fields][0]=body`);
    expect(tags.data[0]?.notes).toEqual([{ id: note.id, documentId: note.documentId, body: 'mixed' }]);
  });

  it('connects and disconnects by __type, and populate[attr][on] reads only the named types', async () => {
    const a = await create('tags', { name: 'a' });
    const b = await create('tags', { name: 'b' });
    const s = await create('secrets', { code: 's' });
    const note = await create('notes', { body: 'edit', targets: [{ __type: 'api::tag.tag', id: a.id }] });
    const put = await server.request(`/api/notes/${note.documentId}`, {
      method: 'PUT',
      token,
      json: { data: { targets: { connect: [{ __type: 'api::secret.secret', documentId: s.documentId }, { __type: 'api::tag.tag', id: b.id }], disconnect: [{ __type: 'api::tag.tag', id: a.id }] } } },
    });
    await expectJson(put, 200);
    const all = await get(`/api/notes?filters[documentId]=${note.documentId}&populate[targets]=true`);
    expect((all.data[0]?.targets as Entry[]).map((e) => [e.__type, e.documentId])).toEqual([
      ['api::secret.secret', s.documentId],
      ['api::tag.tag', b.documentId],
    ]);
    const only = await get(`/api/notes?filters[documentId]=${note.documentId}&populate[targets][on][api::tag.tag][fields][0]=name`);
    expect(only.data[0]?.targets).toEqual([{ __type: 'api::tag.tag', id: b.id, documentId: b.documentId, name: 'b' }]);
    const star = await get(`/api/notes?filters[documentId]=${note.documentId}&populate=*`);
    expect((star.data[0]?.targets as Entry[]).length).toBe(2);
  });

  it('gives draft & publish targets in the status being read, one entry per document', async () => {
    const post = await create('posts', { title: 'v1' });
    await expectJson(await server.request(`/api/posts/${post.documentId}?status=published`, { method: 'PUT', token, json: { data: { title: 'v1' } } }), 200);
    const note = await create('notes', { body: 'dp', targets: [{ __type: 'api::post.post', documentId: post.documentId }] });
    const published = await get(`/api/notes?filters[documentId]=${note.documentId}&populate=targets`);
    expect((published.data[0]?.targets as Entry[]).map((e) => [e.documentId, e.publishedAt === null])).toEqual([[post.documentId, false]]);
    const posts = await get(`/api/posts?filters[documentId]=${post.documentId}&populate=notes&status=draft`);
    expect((posts.data[0]?.notes as Entry[]).map((e) => e.documentId)).toEqual([note.documentId]);
    // Publishing again replaces the published row: links to it follow the new version.
    await expectJson(await server.request(`/api/posts/${post.documentId}?status=published`, { method: 'PUT', token, json: { data: { title: 'v2' } } }), 200);
    const again = await get(`/api/notes?filters[documentId]=${note.documentId}&populate=targets`);
    expect((again.data[0]?.targets as Entry[]).map((e) => [e.documentId, e.title])).toEqual([[post.documentId, 'v2']]);
  });

  it("copies a draft's morph links to its published version on publish", async () => {
    const tag = await create('tags', { name: 'linked' });
    const post = await create('posts', { title: 'with refs', refs: [{ __type: 'api::tag.tag', documentId: tag.documentId }] });
    const draft = await get(`/api/posts?filters[documentId]=${post.documentId}&populate=refs&status=draft`);
    expect((draft.data[0]?.refs as Entry[]).map((e) => e.documentId)).toEqual([tag.documentId]);
    await expectJson(await server.request(`/api/posts/${post.documentId}?status=published`, { method: 'PUT', token, json: { data: {} } }), 200);
    const published = await get(`/api/posts?filters[documentId]=${post.documentId}&populate=refs`);
    expect((published.data[0]?.refs as Entry[]).map((e) => [e.__type, e.documentId])).toEqual([['api::tag.tag', tag.documentId]]);
  });

  it.each([
    ['an element without __type', [{ id: 1 }], 'Invalid key targets'],
    ['an unknown type', [{ __type: 'api::nothing.nothing', id: 1 }], 'Invalid key targets'],
    ['an unknown id', [{ __type: 'api::tag.tag', id: 999999 }], '1 relation(s) of type api::tag.tag associated with this entity do not exist'],
    ['an unknown documentId', [{ __type: 'api::tag.tag', documentId: 'nope' }], 'Document with id "nope", locale "null" not found'],
  ])('refuses %s with a 400 envelope', async (_what, targets, message) => {
    const res = await server.request('/api/notes', { method: 'POST', token, json: { data: { body: 'bad', targets } } });
    const body = await expectJson<{ data: null; error: { status: number; name: string; message: string } }>(res, 400);
    expect(body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message } });
  });

  it.each([
    ['a dotted path through a morph-to side', 'populate=targets.name', 'Invalid key targets'],
    ['a populate other than * inside a morph-to side', 'populate[targets][populate]=tag', 'Invalid key populate at targets'],
    ['fields on a morph-to side', 'populate[targets][fields][0]=name', 'Invalid nested populate for note.targets (api::note.note). Expected a fragment ("on") or "count" but found {"fields":["name"]}'],
    ['a filter on a morph-to side', 'filters[targets][id]=1', 'Invalid key targets'],
  ])('refuses %s in a query', async (_what, query, message) => {
    const body = await expectJson<{ error: { status: number; message: string } }>(await server.request(`/api/notes?${query}`, { token }), 400);
    expect(body.error).toMatchObject({ status: 400, message });
  });

  it('never shows a type the caller may not find: its entries are left out, an on fragment or inverse side naming it is refused', async () => {
    const tag = await create('tags', { name: 'visible' });
    const secret = await create('secrets', { code: 'hidden' });
    const note = await create('notes', { body: 'perm', targets: [{ __type: 'api::secret.secret', id: secret.id }, { __type: 'api::tag.tag', id: tag.id }] });
    const limited = await server.token('custom', ['api::note.note.find', 'api::note.note.create', 'api::tag.tag.find', 'api::post.post.find']);
    const read = await get(`/api/notes?filters[documentId]=${note.documentId}&populate=targets`, limited);
    expect((read.data[0]?.targets as Entry[]).map((e) => e.__type)).toEqual(['api::tag.tag']);
    const fragment = await server.request(`/api/notes?populate[targets][on][api::secret.secret]=true`, { token: limited });
    expect((await expectJson<{ error: { status: number } }>(fragment, 400)).error.status).toBe(400);
    const write = await server.request('/api/notes', { method: 'POST', token: limited, json: { data: { targets: [{ __type: 'api::secret.secret', id: secret.id }] } } });
    expect((await expectJson<{ error: { name: string } }>(write, 400)).error.name).toBe('ValidationError');
    const noteOnly = await server.token('custom', ['api::tag.tag.find']);
    const inverse = await server.request('/api/tags?populate=notes', { token: noteOnly });
    expect((await expectJson<{ error: { status: number } }>(inverse, 400)).error.status).toBe(400);
  });
});

describe('the inverse side of a morph relation (morphMany, morphOne) is written through its target\'s morph table, as Strapi does', () => {
  const notesOf = async (path: string, attr = 'notes', as = token) => {
    const { data } = await get(`${path}${path.includes('?') ? '&' : '?'}populate[${attr}][fields][0]=body`, as);
    const value = data[0]?.[attr];
    return Array.isArray(value) ? value.map((n) => (n as Entry).body) : ((value as Entry | null)?.body ?? null);
  };
  const put = (plural: string, documentId: string, data: Record<string, unknown>, query = '') =>
    server.request(`/api/${plural}/${documentId}${query}`, { method: 'PUT', token, json: { data } });

  it('sets a morphMany by documentId and id, in the given order, read from both sides', async () => {
    const n1 = await create('notes', { body: 'one' });
    const n2 = await create('notes', { body: 'two' });
    const tag = await create('tags', { name: 'inverse', notes: [n2.documentId, n1.id] });
    expect(await notesOf(`/api/tags?filters[documentId]=${tag.documentId}`)).toEqual(['two', 'one']);
    const { data } = await get(`/api/notes?filters[documentId]=${n1.documentId}&populate=targets`);
    expect(data[0]?.targets).toEqual([expect.objectContaining({ __type: 'api::tag.tag', documentId: tag.documentId, name: 'inverse' })]);
    const rows = await server.server.services.database.db.selectFrom('notes_targets_mph').selectAll().where('related_type', '=', 'api::tag.tag').where('related_id', '=', tag.id).orderBy('ord').execute();
    expect(rows.map((r) => [Number(r.entity_id), r.field, Number(r.ord)])).toEqual([[n2.id, 'notes', 1], [n1.id, 'notes', 2]]);
  });

  it('connects (with positions), disconnects, sets and clears like a relation, keeping the target\'s other links', async () => {
    const [a, b, c] = [await create('notes', { body: 'a' }), await create('notes', { body: 'b' }), await create('notes', { body: 'c' })];
    const other = await create('tags', { name: 'other' });
    const tag = await create('tags', { name: 'edited', notes: { connect: [a.documentId] } });
    await expectJson(await put('notes', a.documentId, { targets: [{ __type: 'api::tag.tag', id: tag.id }, { __type: 'api::tag.tag', id: other.id }] }), 200);
    const path = `/api/tags?filters[documentId]=${tag.documentId}`;
    expect(await notesOf(path)).toEqual(['a']);
    await expectJson(await put('tags', tag.documentId, { notes: { connect: [b.documentId, { documentId: c.documentId, position: { start: true } }] } }), 200);
    expect(await notesOf(path)).toEqual(['c', 'a', 'b']);
    await expectJson(await put('tags', tag.documentId, { notes: { disconnect: [a.id], connect: [{ id: a.id, position: { before: c.documentId } }] } }), 200);
    expect(await notesOf(path)).toEqual(['a', 'c', 'b']);
    await expectJson(await put('tags', tag.documentId, { notes: { disconnect: [{ documentId: c.documentId }] } }), 200);
    expect(await notesOf(path)).toEqual(['a', 'b']);
    await expectJson(await put('tags', tag.documentId, { notes: { set: [b.id] } }), 200);
    expect(await notesOf(path)).toEqual(['b']);
    expect(await notesOf(`/api/tags?filters[documentId]=${other.documentId}`)).toEqual(['a']);
    await expectJson(await put('tags', tag.documentId, { name: 'untouched' }), 200);
    expect(await notesOf(path)).toEqual(['b']);
    await expectJson(await put('tags', tag.documentId, { notes: null }), 200);
    expect(await notesOf(path)).toEqual([]);
    expect(await notesOf(`/api/tags?filters[documentId]=${other.documentId}`)).toEqual(['a']);
  });

  it('writes a morphOne onto a morphToOne target, which leaves its previous entry', async () => {
    const note = await create('notes', { body: 'lead' });
    const first = await create('tags', { name: 'first', lead: note.documentId });
    expect(await notesOf(`/api/tags?filters[documentId]=${first.documentId}`, 'lead')).toBe('lead');
    const second = await create('tags', { name: 'second', lead: { connect: [note.id] } });
    expect(await notesOf(`/api/tags?filters[documentId]=${second.documentId}`, 'lead')).toBe('lead');
    expect(await notesOf(`/api/tags?filters[documentId]=${first.documentId}`, 'lead')).toBeNull();
    const { data } = await get(`/api/notes?filters[documentId]=${note.documentId}&populate=subject`);
    expect(data[0]?.subject).toMatchObject({ __type: 'api::tag.tag', documentId: second.documentId });
  });

  it('links the versions a relation would, and follows publish', async () => {
    const note = await create('notes', { body: 'on a post' });
    const post = await create('posts', { title: 'inverse', notes: [note.documentId] });
    expect(await notesOf(`/api/posts?filters[documentId]=${post.documentId}&status=draft`)).toEqual(['on a post']);
    await expectJson(await put('posts', post.documentId, {}, '?status=published'), 200);
    expect(await notesOf(`/api/posts?filters[documentId]=${post.documentId}`)).toEqual(['on a post']);
    const { data } = await get(`/api/notes?filters[documentId]=${note.documentId}&populate=targets`);
    expect((data[0]?.targets as Entry[]).map((e) => [e.__type, e.documentId, e.publishedAt === null])).toEqual([['api::post.post', post.documentId, false]]);
  });

  it.each([
    ['an unknown id', { notes: [999999] }, '1 relation(s) of type api::note.note associated with this entity do not exist'],
    ['an unknown documentId', { notes: { connect: ['nope'] } }, 'Document with id "nope", locale "null" not found'],
    ['the media library\'s related (written by upload only)', { attachments: [1] }, 'Invalid key attachments'],
  ])('refuses %s with a 400 envelope, writing nothing', async (_what, data, message) => {
    const res = await server.request('/api/tags', { method: 'POST', token, json: { data: { name: 'refused', ...data } } });
    expect(await expectJson(res, 400)).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message } });
    expect((await get('/api/tags?filters[name]=refused')).data).toEqual([]);
  });

  it('is refused as Invalid key to a caller who may not find its target', async () => {
    const note = await create('notes', { body: 'hidden' });
    const limited = await server.token('custom', ['api::tag.tag.create', 'api::tag.tag.find']);
    const res = await server.request('/api/tags', { method: 'POST', token: limited, json: { data: { name: 'nope', notes: [note.id] } } });
    expect(await expectJson(res, 400)).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key notes', details: { key: 'notes', path: 'notes', source: 'body' } } });
  });
});

describe('morph-to keys inside components and dynamic-zone entries', () => {
  it.each([
    ['a component', { block: { targets: [{ id: 1 }] } }, 'block.targets'],
    ['a dynamic-zone entry', { zone: [{ __component: 'shared.block', targets: [{ __type: 'api::nothing.nothing', id: 1 }] }] }, 'zone.targets'],
  ])('checks each element of a morph-to key in %s, refused as Invalid key at its path', async (_what, data, path) => {
    const schemas = await writeProject({
      types: { page: collection('page', 'pages', { title: { type: 'string' }, block: { type: 'component', component: 'shared.block' }, zone: { type: 'dynamiczone', components: ['shared.block'] } }) },
      components: { 'shared.block': { attributes: { label: { type: 'string' }, targets: { type: 'relation', relation: 'morphToMany' } } } },
    });
    const own = await startTestServer({ schemas });
    try {
      const res = await own.request('/api/pages', { method: 'POST', token: await own.token('full-access'), json: { data: { title: 'x', ...data } } });
      expect(await expectJson(res, 400)).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: `Invalid key targets at ${path}`, details: { key: 'targets', path, source: 'body' } } });
    } finally {
      await own.close();
    }
  });
});

describe('dotted populate through inverse morph sides', () => {
  it('is held to the populate depth limit, as a dotted path through relations is', async () => {
    const schemas = await writeProject({
      types: {
        left: collection('left', 'lefts', { name: { type: 'string' }, refs: { type: 'relation', relation: 'morphToMany' }, rights: { type: 'relation', relation: 'morphMany', target: 'api::right.right', morphBy: 'refs' } }),
        right: collection('right', 'rights', { name: { type: 'string' }, refs: { type: 'relation', relation: 'morphToMany' }, lefts: { type: 'relation', relation: 'morphMany', target: 'api::left.left', morphBy: 'refs' } }),
      },
    });
    const own = await startTestServer({ schemas });
    try {
      const as = await own.token('full-access');
      const path = (levels: number) => Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? 'rights' : 'lefts')).join('.');
      await expectJson(await own.request(`/api/lefts?populate=${path(MAX_POPULATE_DEPTH)}`, { token: as }), 200);
      expect(await expectJson(await own.request(`/api/lefts?populate=${path(MAX_POPULATE_DEPTH + 2)}`, { token: as }), 400)).toMatchObject({
        data: null,
        error: { status: 400, name: 'ValidationError', message: `Populate is nested too deeply: at most ${MAX_POPULATE_DEPTH} levels are accepted` },
      });
    } finally {
      await own.close();
    }
  });
});
