import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdMap, normalize } from '../helpers/normalize.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loadTranscripts, STRAPI_FIXTURES_DIR, TRANSCRIPTS_DIR, type RequestBody, type Transcript } from '../helpers/transcripts.js';

/**
 * Replays the recorded Strapi 5.54 session (`test/fixtures/strapi/transcripts`) against Hearth, in
 * order, on the same fixture project: every status, content type and body must match, with only
 * documentIds and the random part of file hashes (learned as they are created) and timestamps
 * normalised. Uploads send real multipart bodies with the recorded fixture files.
 */
const transcripts = loadTranscripts(TRANSCRIPTS_DIR);

/**
 * Where Strapi answers 500, Hearth answers a clear 400 instead (listed in the README): the
 * recorded status is replaced by Hearth's, and the body is checked to be the error envelope.
 */
const DEVIATIONS: Record<number, { status: number; name: string; message: string }> = {
  76: { status: 400, name: 'ValidationError', message: 'Invalid filter value for views: expected an integer, received "abc"' },
  126: { status: 400, name: 'ValidationError', message: 'fileInfo must be a JSON object, but the value is not valid JSON' },
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

/** The parts curl sent (`-F name=@path;type=...` and `-F name=value`), with the fixture files' bytes. */
function multipart(body: Extract<RequestBody, { kind: 'multipart' }>): FormData {
  const form = new FormData();
  for (const part of body.parts) {
    if ('file' in part) {
      const bytes = readFileSync(join(STRAPI_FIXTURES_DIR, basename(part.file)));
      form.append(part.name, new Blob([bytes], { type: part.type }), basename(part.file));
    } else {
      form.append(part.name, part.value);
    }
  }
  return form;
}

async function send(t: Transcript): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(t.headers)) {
    // fetch writes its own multipart boundary.
    if (t.body.kind === 'multipart' && name === 'content-type') continue;
    headers.set(name, name === 'authorization' ? value.replace(/<[A-Z_]+>/, (m) => tokens[m] ?? m) : value);
  }
  const body = t.body.kind === 'text' ? ids.apply(t.body.text) : t.body.kind === 'multipart' ? multipart(t.body) : undefined;
  return fetch(`${server.url}${ids.apply(t.path)}`, { method: t.method, headers, body });
}

describe('Strapi transcripts', () => {
  for (const t of transcripts) {
    it(`${t.file.replace(/\.txt$/, '')}${t.notes ? ` (${t.notes})` : ''}`, async () => {
      const res = await send(t);
      if (t.binaryBody) {
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.status).toBe(t.status);
        expect(res.headers.get('content-type')).toBe(t.responseHeaders['content-type']);
        expect(res.headers.get('content-length')).toBe(String(t.binaryBody.bytes));
        expect({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual(t.binaryBody);
        return;
      }
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
