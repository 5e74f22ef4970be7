import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { filesUnder, fixturePart, postUpload, type FileObject } from '../uploads/helpers.js';
import { checkDatabase, exportTo, importFrom } from './helpers.js';

/**
 * `hearth export` while a server on the same data dir is busy writing (articles created and
 * updated with a component and a dynamic zone in the same transaction, files uploaded and
 * deleted): every archive is one consistent snapshot. No article is torn from its component,
 * every write acknowledged before the export began is in it, every file row has its bytes and
 * no stray file came along.
 */

const WRITERS = 4;
const UPLOADERS = 2;

let root: string;
let server: TestServer;
let token: string;
let stop = false;
const acked: { documentId: string; at: number }[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-busy-export-'));
  server = await startTestServer({ dataDir: join(root, 'live') });
  token = await server.token('full-access');
});
afterAll(async () => {
  stop = true;
  await server.close();
  await rm(root, { recursive: true, force: true });
});

const send = (method: string, path: string, data: unknown) => server.request(path, { method, token, json: { data } });

/** Creates articles and rewrites them; title and component always carry the same number, written in one transaction. */
async function writer(w: number): Promise<void> {
  for (let n = 0; !stop; n++) {
    const k = `${w}-${n}`;
    const res = await send('POST', '/api/articles', { title: `t${k}`, seo: { metaTitle: `s${k}` }, blocks: [{ __component: 'shared.quote', text: `q${k}` }] });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    const { data } = (await res.json()) as { data: { documentId: string } };
    acked.push({ documentId: data.documentId, at: Date.now() });
    const update = await send('PUT', `/api/articles/${data.documentId}`, { title: `t${k}u`, seo: { metaTitle: `s${k}u` } });
    if (update.status !== 200) throw new Error(`update answered ${update.status}`);
  }
}

/** Uploads files (an image brings a thumbnail) and deletes every other one, so media come and go during the export. */
async function uploader(): Promise<void> {
  for (let n = 0; !stop; n++) {
    const res = await postUpload(server, token, [fixturePart(n % 2 === 0 ? 'red-400x300.png' : 'notes.txt')]);
    if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
    const [file] = (await res.json()) as FileObject[];
    if (file && n % 3 === 0) await server.request(`/api/upload/files/${file.id}`, { method: 'DELETE', token });
  }
}

/** Articles whose title and component disagree, or that lost their component or dynamic-zone entry. */
function tornArticles(dataDir: string): unknown[] {
  const db = new BetterSqlite3(join(dataDir, 'hearth.db'), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT a.id, a.title, s.metaTitle, (SELECT count(*) FROM articles_cmps b WHERE b.entity_id = a.id AND b.field = 'blocks') AS blocks
         FROM articles a
         LEFT JOIN articles_cmps l ON l.entity_id = a.id AND l.field = 'seo'
         LEFT JOIN components_shared_seos s ON s.id = l.cmp_id`,
      )
      .all()
      .filter((r) => {
        const row = r as { title: string; metaTitle: string | null; blocks: number };
        return row.metaTitle !== `s${row.title.slice(1)}` || row.blocks !== 1;
      });
  } finally {
    db.close();
  }
}

describe('hearth export while a server writes to the same data dir', () => {
  it('writes archives that are each one consistent snapshot', async () => {
    const load = Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), ...Array.from({ length: UPLOADERS }, () => uploader())]);
    const archives: { file: string; before: Set<string> }[] = [];
    for (const name of ['first', 'second']) {
      while (acked.length < archives.length * 40 + 40) await new Promise((r) => setImmediate(r));
      const before = new Set(acked.map((a) => a.documentId));
      const file = join(root, `${name}.tar.gz`);
      const exported = await exportTo(server.dataDir, file);
      expect(exported, exported.stderr).toMatchObject({ code: 0 });
      archives.push({ file, before });
    }
    stop = true;
    await load;

    for (const [i, { file, before }] of archives.entries()) {
      const dir = join(root, `restored-${i}`);
      expect((await importFrom(file, dir)).code).toBe(0);
      expect(checkDatabase(dir)).toEqual({ integrity: 'ok', foreignKeys: [] });
      expect(tornArticles(dir)).toEqual([]);
      const restored = await startTestServer({ dataDir: dir, schemas: join(dir, 'schema') });
      try {
        const ids = new Set<string>();
        for (let page = 1; ; page++) {
          const res = await restored.request(`/api/articles?fields[0]=title&pagination[page]=${page}&pagination[pageSize]=100`, { token });
          const body = (await res.json()) as { data: { documentId: string }[]; meta: { pagination: { pageCount: number } } };
          for (const doc of body.data) ids.add(doc.documentId);
          if (page >= body.meta.pagination.pageCount) break;
        }
        expect([...before].filter((id) => !ids.has(id))).toEqual([]);
        const files = (await (await restored.request('/api/upload/files', { token })).json()) as FileObject[];
        const keys = files.flatMap((f) => [f.url, ...Object.values(f.formats ?? {}).map((x) => x.url)]).map((u) => u.replace('/uploads/', ''));
        expect(await filesUnder(join(dir, 'uploads'))).toEqual([...keys].sort());
      } finally {
        await restored.close();
      }
    }
  });
});
