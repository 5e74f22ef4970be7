import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';

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
      }),
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
