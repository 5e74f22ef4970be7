import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PROJECT, startTestServer, type TestServer } from '../helpers/server.js';
import { filesUnder } from '../uploads/helpers.js';
import { treeOf } from './helpers.js';
import { importStrapi, serveImported, stage, STRAPI_DIR, STRAPI_TAR_GZ, type Line } from './strapi-helpers.js';

/**
 * `hearth import --from-strapi` of a real Strapi 5.54 export (test/fixtures/strapi/export): the
 * schemas become the project Strapi exported, and every document version, in every locale and
 * status, answers REST with the values, components, relations and media its archive lines hold.
 */

let root: string;
let dataDir: string;
let server: TestServer;
let token: string;
let schemas: Line[];
let entities: Line[];
let links: Line[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-strapi-import-'));
  dataDir = join(root, 'data');
  const run = await importStrapi(STRAPI_TAR_GZ, dataDir);
  expect(run.stderr).toContain('entities: 56');
  expect(run.code).toBe(0);
  [schemas, entities, links] = await Promise.all([stage(STRAPI_DIR, 'schemas'), stage(STRAPI_DIR, 'entities'), stage(STRAPI_DIR, 'links')]);
  server = await serveImported(dataDir);
  token = await server.token('full-access');
});

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await server.request(path, { token });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> | Record<string, unknown>[] } };
};

const schemaOf = (uid: string) => schemas.find((s) => s.uid === uid) as unknown as { info: { singularName: string; pluralName: string }; kind: string; attributes: Record<string, { type: string; private?: boolean }> };
const documentIdOf = (type: string, id: unknown) => entities.find((e) => e.type === type && e.id === id)?.data.documentId;

/** What a link list says a row's field holds, in link order. */
function linked(row: Line): Record<string, unknown[]> {
  const out: Record<string, { pos: number; value: unknown }[]> = {};
  const push = (field: string, pos: number, value: unknown) => (out[field] ??= []).push({ pos, value });
  for (const link of links as unknown as { kind: string; left: Record<string, unknown>; right: Record<string, unknown> }[]) {
    const { left, right } = link;
    if (link.kind === 'relation.basic' && left.type === row.type && left.ref === row.id) push(String(left.field), Number(left.pos ?? 1), documentIdOf(String(right.type), right.ref));
    if (link.kind === 'relation.basic' && right.type === row.type && right.ref === row.id && right.field) push(String(right.field), Number(right.pos ?? 1), documentIdOf(String(left.type), left.ref));
    if (link.kind === 'relation.morph' && right.type === row.type && right.ref === row.id) push(String(right.field), Number(right.pos ?? 1), left.ref);
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.sort((a, b) => a.pos - b.pos).map((x) => x.value)]));
}

describe('import --from-strapi of a real Strapi export', () => {
  it("writes the archive's schemas as the project Strapi exported, file for file", async () => {
    const expected = (await filesUnder(join(FIXTURE_PROJECT, 'src'))).filter((f) => f.endsWith('.json'));
    expect(await filesUnder(join(dataDir, 'schema', 'src'))).toEqual(expected);
    for (const file of expected) {
      const written: unknown = JSON.parse(await readFile(join(dataDir, 'schema', 'src', file), 'utf8'));
      expect(written, file).toEqual(JSON.parse(await readFile(join(FIXTURE_PROJECT, 'src', file), 'utf8')));
    }
  });

  it('answers every document version (type, locale, status) with its entity line, relations and media in link order', async () => {
    const rows = entities.filter((e) => e.type.startsWith('api::'));
    expect(rows.length).toBe(33);
    for (const row of rows) {
      const schema = schemaOf(row.type);
      const base = schema.kind === 'singleType' ? `/api/${schema.info.singularName}?` : `/api/${schema.info.pluralName}/${String(row.data.documentId)}?`;
      const status = row.data.publishedAt === null ? 'draft' : 'published';
      const locale = row.data.locale === null ? '' : `&locale=${String(row.data.locale)}`;
      const { status: code, body } = await get(`${base}status=${status}${locale}&populate=*`);
      const where = `${row.type} row ${row.id}`;
      expect(code, where).toBe(200);
      const doc = body.data as Record<string, unknown>;
      expect(doc.id, where).toBe(row.id);
      for (const [key, value] of Object.entries(row.data)) {
        const attr = schema.attributes[key];
        if (attr?.private === true || attr?.type === 'password') expect(doc[key], `${where}: ${key} is private`).toBeUndefined();
        else if (key === 'locale' && value === null) expect(doc.locale, where).toBeUndefined();
        else expect(doc[key], `${where}: ${key}`).toEqual(value);
      }
      for (const [field, expected] of Object.entries(linked(row))) {
        const value = doc[field];
        const attr = schema.attributes[field];
        const key = attr?.type === 'media' ? 'id' : 'documentId';
        const got = (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]).map((v) => (v as Record<string, unknown>)[key]);
        // An inverse list shows the rows of the status being read only.
        if (attr?.type === 'relation' && (attr as { mappedBy?: string }).mappedBy !== undefined) expect(expected, `${where}: ${field}`).toEqual(expect.arrayContaining(got));
        else expect(got, `${where}: ${field}`).toEqual(expected);
      }
    }
  });

  it('serves the media files, their formats and the end users, roles, permissions and locales of the archive', async () => {
    const files = (await (await server.request('/api/upload/files?sort=id', { token })).json()) as Record<string, unknown>[];
    const lines = entities.filter((e) => e.type === 'plugin::upload.file');
    expect(files.map((f) => f.documentId)).toEqual(lines.map((l) => l.data.documentId));
    for (const [i, file] of files.entries()) {
      const { folderPath: _private, locale: _none, ...visible } = (lines[i] as Line).data;
      expect(file).toMatchObject(visible);
    }
    for (const name of await filesUnder(join(STRAPI_DIR, 'assets', 'uploads'))) {
      const res = await server.request(`/uploads/${name}`);
      expect(res.status, name).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(join(STRAPI_DIR, 'assets', 'uploads', name)))).toBe(true);
    }
    expect((await server.request('/api/tags')).status).toBe(200); // the archive's public role: tag find
    expect((await server.request('/api/articles')).status).toBe(403);
    const locales = await server.server.services.locales.list();
    expect(locales.map((l) => [l.code, l.name, l.isDefault])).toEqual([['en', 'English (en)', true], ['fr', 'French (fr)', false]]);
    const users = (await (await server.request('/api/users?populate=role', { token })).json()) as Record<string, unknown>[];
    expect(users.map((u) => [u.username, u.documentId, (u.role as Record<string, unknown>).type])).toEqual([['alice', 'la9orl966htfa15anas1bla4', 'authenticated']]);
  });
});

describe('import --from-strapi: formats, keys, refusals', () => {
  it('reads the unpacked --format dir tree, and end users log in with their Strapi (bcrypt) password', async () => {
    const tree = join(root, 'tree');
    await cp(STRAPI_DIR, tree, { recursive: true });
    const file = join(tree, 'entities', 'entities_00001.jsonl');
    const hash = bcrypt.hashSync('alice-password', 10);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/\$2a\$10\$9pSaZujxGLbwEv0nKbTDgO69Ta9ZliSujb3cqQxFLwsi19Gj5\.oB\./, hash));
    const data = join(root, 'from-dir');
    expect((await importStrapi(tree, data)).code).toBe(0);
    const other = await serveImported(data);
    try {
      const login = await other.request('/api/auth/local', { method: 'POST', json: { identifier: 'alice@example.com', password: 'alice-password' } });
      expect(login.status).toBe(200);
      expect(((await login.json()) as { user: { username: string } }).user.username).toBe('alice');
      const wrong = await other.request('/api/auth/local', { method: 'POST', json: { identifier: 'alice@example.com', password: 'not-hers-1' } });
      expect(wrong.status).toBe(400);
    } finally {
      await other.close();
    }
  });

  it('an entity naming a type not in the schemas, or a truncated archive, changes nothing and names the file and line', async () => {
    const target = join(root, 'kept');
    const seeded = await startTestServer({ dataDir: target, database: 'sqlite' });
    await seeded.request('/api/tags', { method: 'POST', token: await seeded.token('full-access'), json: { data: { label: 'mine' } } });
    await seeded.close();
    const before = await treeOf(target);
    const tree = join(root, 'ghost');
    await cp(STRAPI_DIR, tree, { recursive: true });
    const file = join(tree, 'entities', 'entities_00001.jsonl');
    await writeFile(file, `${(await readFile(file, 'utf8')).trimEnd()}\n{"type":"api::ghost.ghost","id":1,"data":{"documentId":"x"}}\n`);
    const ghost = await importStrapi(tree, target, '--force');
    expect(ghost.code).toBe(1);
    expect(ghost.stderr.trim().split('\n').at(-1)).toBe("hearth: invalid Strapi archive: entities/entities_00001.jsonl:57: entity of type api::ghost.ghost, which is not in the archive's schemas");
    const cut = join(root, 'cut.tar.gz');
    const bytes = await readFile(STRAPI_TAR_GZ);
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const truncated = await importStrapi(cut, target, '--force');
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(/hearth: invalid Strapi archive: cut\.tar\.gz: .*unexpected end of file/);
    expect(await treeOf(target)).toEqual(before);
    const other = join(root, 'documents');
    await cp(join(FIXTURE_PROJECT, 'src', 'components'), other, { recursive: true });
    const foreign = await importStrapi(STRAPI_TAR_GZ, other);
    expect(foreign.stderr).toContain(`${other} is not empty and holds no Hearth database; the import would replace it (use --force)`);
    const unforced = await importStrapi(STRAPI_TAR_GZ, target);
    expect(unforced.code).toBe(1);
    expect(unforced.stderr).toContain('holds content');
    expect(await treeOf(target)).toEqual(before);
  });

  it("keeps the project's hearth.json (how its custom fields are stored) when the import rewrites its schemas folder", async () => {
    const data = join(root, 'with-config');
    expect((await importStrapi(STRAPI_TAR_GZ, data)).code).toBe(0);
    const config = `${JSON.stringify({ customFields: { 'global::swatch': 'string' } }, null, 2)}\n`;
    await writeFile(join(data, 'schema', 'hearth.json'), config);
    expect((await importStrapi(STRAPI_TAR_GZ, data, '--force')).code).toBe(0);
    expect(await readFile(join(data, 'schema', 'hearth.json'), 'utf8')).toBe(config);
  });

  it('refuses schemas that differ from the existing ones, by name, unless --force', async () => {
    const project = join(root, 'project');
    await cp(FIXTURE_PROJECT, project, { recursive: true });
    const same = await importStrapi(STRAPI_TAR_GZ, join(root, 'same'), '--schemas', project);
    expect(same.code).toBe(0);
    const article = join(project, 'src/api/article/content-types/article/schema.json');
    const tag = join(project, 'src/api/tag/content-types/tag/schema.json');
    for (const f of [article, tag]) await writeFile(f, (await readFile(f, 'utf8')).replace('"collectionType"', '"collectionType", "description": "changed"'));
    const edited = await treeOf(project);
    const refused = await importStrapi(STRAPI_TAR_GZ, join(root, 'refused'), '--schemas', project);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('differ from the archive\'s: api::article.article, api::tag.tag (use --force to replace them)');
    expect(await treeOf(project)).toEqual(edited);
    const forced = await importStrapi(STRAPI_TAR_GZ, join(root, 'refused'), '--schemas', project, '--force');
    expect(forced.code).toBe(0);
    for (const f of [article, tag]) expect(JSON.parse(await readFile(f, 'utf8'))).toEqual(JSON.parse(await readFile(f.replace(project, FIXTURE_PROJECT), 'utf8')));
  });
});
