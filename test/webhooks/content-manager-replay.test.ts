import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../admin/helpers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bodiesAfter, hookEntryEvents, startReceiver, type Receiver } from './receiver.js';
import { learnIds, normalise, recordedSteps, type RecordedStep } from './replay.js';

/**
 * The recorded content-manager steps (Strapi 5.54's /content-manager/single-types/...) replayed
 * on Hearth's equivalents: a draft saved through the content API (`?status=draft`, as Hearth's
 * admin saves), publish / discard / unpublish / delete through `/admin/api/content-manager`. The
 * receiver must get the recorded events in order with the recorded bodies (row ids aside: the
 * recording's database held earlier rows).
 */

const HOME = '/admin/api/content-manager/api::homepage.homepage/documents';

type Call = { readonly method: string; readonly path: (doc: string) => string; readonly admin: boolean; readonly body?: (recorded: unknown) => unknown };
const draftPut: Call = { method: 'PUT', path: () => '/api/homepage?status=draft', admin: false, body: (recorded) => ({ data: recorded }) };
const action = (name: string): Call => ({ method: 'POST', path: (doc) => `${HOME}/${doc}/actions/${name}`, admin: true });

const REPLAYED: readonly (readonly [string, Call])[] = [
  ['cm-single-put-create', draftPut],
  ['cm-single-put-update', draftPut],
  ['cm-single-publish', action('publish')],
  ['cm-single-put-modify', draftPut],
  ['cm-single-discard', action('discard')],
  ['cm-single-unpublish', action('unpublish')],
  ['cm-single-delete', { method: 'DELETE', path: (doc) => `${HOME}/${doc}`, admin: true }],
];

let server: TestServer;
let receiver: Receiver;
let token: string;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  token = await server.token('full-access');
  admin = await registerOwner(server);
  await hookEntryEvents(server, receiver);
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

/** A body with its entry's row id set aside (the recording's numbering started after earlier rows). */
const withoutRowId = (body: Record<string, unknown>): unknown => {
  const entry = body.entry as Record<string, unknown>;
  return normalise({ ...body, entry: { ...entry, id: '<row id>' } });
};

describe('content manager steps replayed from Strapi 5.54', () => {
  it('a single type saved, published, modified, discarded, unpublished and deleted raises the recorded events', async () => {
    const steps = new Map(recordedSteps().map((s) => [s.step, s]));
    const ids = new Map<string, string>();
    let doc = '';
    for (const [name, call] of REPLAYED) {
      const step = steps.get(name) as RecordedStep;
      const before = receiver.received.length;
      const body = call.body?.(step.request.body);
      const res = await server.request(call.path(doc), { method: call.method, token: call.admin ? admin : token, ...(body === undefined ? {} : { json: body }) });
      expect(res.status, name).toBeLessThan(300);
      const got = await bodiesAfter(receiver, before, step.deliveries.length);
      expect(
        got.map((g) => g.event),
        name,
      ).toEqual(step.deliveries.map((d) => d.body.event));
      step.deliveries.forEach((want, i) => {
        const ours = got[i] ?? {};
        learnIds(want.body, ours, ids);
        expect(withoutRowId(ours), `${name} #${i}`).toEqual(withoutRowId(want.body));
      });
      doc = String((got[0]?.entry as Record<string, unknown> | undefined)?.documentId ?? doc);
    }
  });
});
