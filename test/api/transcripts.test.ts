import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdMap, normalize } from '../helpers/normalize.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loadTranscripts, TRANSCRIPTS_DIR, type Transcript } from '../helpers/transcripts.js';

/**
 * Replays the recorded Strapi 5.54 session (`../shared/strapi/transcripts`) against Hearth, in
 * order, on the same fixture project: every status, content type and body must match, with only
 * documentIds (learned as they are created) and timestamps normalised.
 */
const UPLOAD_DEPENDENT = (n: number) => (n >= 123 && n <= 159 && n !== 149) || n === 165;
const transcripts = loadTranscripts(TRANSCRIPTS_DIR).filter((t) => !UPLOAD_DEPENDENT(t.number));

/**
 * Where Strapi answers 500, Hearth answers a clear 400 instead (listed in the README): the
 * recorded status is replaced by Hearth's, and the body is checked to be the error envelope.
 */
const DEVIATIONS: Record<number, { status: number; name: string; message: string }> = {
  76: { status: 400, name: 'ValidationError', message: 'Invalid filter value for views: expected an integer, received "abc"' },
};

let server: TestServer;
const tokens: Record<string, string> = {};
const ids = new IdMap();

beforeAll(async () => {
  server = await startTestServer();
  tokens['<FULL_ACCESS_TOKEN>'] = await server.token('full-access');
  tokens['<READ_ONLY_TOKEN>'] = await server.token('read-only');
  await server.server.services.permissions.grant('public', ['api::tag.tag.find', 'api::tag.tag.findOne']);
  await server.server.services.locales.add({ code: 'fr' });
});

afterAll(async () => {
  await server?.close();
});

async function send(t: Transcript): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(t.headers)) {
    headers.set(name, name === 'authorization' ? value.replace(/<[A-Z_]+>/, (m) => tokens[m] ?? m) : value);
  }
  const body = t.body.kind === 'text' ? ids.apply(t.body.text) : undefined;
  return fetch(`${server.url}${ids.apply(t.path)}`, { method: t.method, headers, body });
}

describe('Strapi transcripts', () => {
  for (const t of transcripts) {
    it(`${t.file.replace(/\.txt$/, '')}${t.notes ? ` (${t.notes})` : ''}`, async () => {
      const res = await send(t);
      const text = await res.text();
      const deviation = DEVIATIONS[t.number];
      if (deviation) {
        expect(res.status).toBe(deviation.status);
        expect(JSON.parse(text)).toMatchObject({ data: null, error: { status: deviation.status, name: deviation.name, message: deviation.message } });
        return;
      }
      expect({ status: res.status, body: text.slice(0, 2000) }).toMatchObject({ status: t.status });
      const expectedType = t.responseHeaders['content-type'];
      if (expectedType) expect(res.headers.get('content-type')).toBe(expectedType);
      if (t.responseHeaders.allow) expect(res.headers.get('allow')).toBe(t.responseHeaders.allow);
      if (t.rawBody === '' || expectedType?.startsWith('text/plain')) {
        expect(text).toBe(t.rawBody);
        return;
      }
      const expected: unknown = JSON.parse(t.rawBody ?? 'null');
      const actual: unknown = JSON.parse(text);
      ids.learn(expected, actual);
      expect(JSON.stringify(normalize(actual, ids))).toBe(JSON.stringify(normalize(expected, ids)));
    });
  }
});
