import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../admin/helpers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bodiesAfter, hookEntryEvents, startReceiver, type Receiver } from './receiver.js';

/**
 * The content manager's actions (Hearth's `/admin/api/content-manager/:uid/documents/...`) raise
 * Strapi's events through the same document service: publish (the draft's entry.update, then
 * entry.publish), unpublish (the published row, populated), discard (the new draft row,
 * populated), delete of a locale (one per row, scalars).
 */

let server: TestServer;
let receiver: Receiver;
let admin: string;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  await server.server.services.locales.add({ code: 'fr' });
  receiver = await startReceiver();
  admin = await registerOwner(server);
  token = await server.token('full-access');
  await hookEntryEvents(server, receiver);
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

type Body = { event: string; model: string; uid: string; entry: Record<string, unknown> };

async function eventsOf(call: () => Promise<Response>, count: number, status = 200): Promise<Body[]> {
  const before = receiver.received.length;
  expect((await call()).status).toBe(status);
  return bodiesAfter<Body>(receiver, before, count);
}

describe('content manager actions', () => {
  it('raise one event per stored version, as Strapi does', async () => {
    const base = '/admin/api/content-manager/api::article.article/documents';
    const created = await eventsOf(
      () => server.request('/api/articles?status=draft', { method: 'POST', token, json: { data: { title: 'Draft', seo: { metaTitle: 'm' } } } }),
      1,
      201,
    );
    expect(created.map((e) => e.event)).toEqual(['entry.create']);
    const documentId = String(created[0]?.entry.documentId);
    const draftId = Number(created[0]?.entry.id);

    // As Strapi's content-manager publish (save the draft, then publish): entry.update of the draft, then entry.publish.
    const published = await eventsOf(() => server.request(`${base}/${documentId}/actions/publish`, { method: 'POST', token: admin }), 2);
    expect(published.map((e) => [e.event, e.entry.publishedAt === null])).toEqual([
      ['entry.update', true],
      ['entry.publish', false],
    ]);
    expect(Number(published[0]?.entry.id)).toBe(draftId);
    expect(published[1]?.entry.seo).toMatchObject({ metaTitle: 'm' });
    const publishedId = Number(published[1]?.entry.id);

    await eventsOf(() => server.request(`/api/articles/${documentId}?status=draft`, { method: 'PUT', token, json: { data: { title: 'Changed' } } }), 1);
    const discarded = await eventsOf(() => server.request(`${base}/${documentId}/actions/discard`, { method: 'POST', token: admin }), 1);
    expect(discarded.map((e) => e.event)).toEqual(['entry.draft-discard']);
    expect(discarded[0]?.entry).toMatchObject({ title: 'Draft', publishedAt: null, locale: 'en', seo: { metaTitle: 'm' }, tags: [], category: null });
    expect(Number(discarded[0]?.entry.id)).not.toBe(draftId);

    const unpublished = await eventsOf(() => server.request(`${base}/${documentId}/actions/unpublish`, { method: 'POST', token: admin }), 1);
    expect(unpublished.map((e) => e.event)).toEqual(['entry.unpublish']);
    expect(unpublished[0]?.entry.id).toBe(publishedId);
    // Populated, as Strapi's content-manager unpublish of one document (its delete entries: scalars only).
    expect(unpublished[0]?.entry).toMatchObject({ title: 'Draft', seo: { metaTitle: 'm' }, tags: [], category: null });

    await eventsOf(() => server.request(`/api/articles/${documentId}?locale=fr`, { method: 'PUT', token, json: { data: { title: 'Brouillon' } } }), 2);
    const deleted = await eventsOf(() => server.request(`${base}/${documentId}?locale=fr`, { method: 'DELETE', token: admin }), 2);
    expect(deleted.map((e) => [e.event, e.entry.locale, e.entry.publishedAt === null])).toEqual([
      ['entry.delete', 'fr', true],
      ['entry.delete', 'fr', false],
    ]);
  });
});
