import { createDecipheriv, scryptSync } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { gunzipSync } from 'node:zlib';
import { list, type ReadEntry } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageWriter } from '../../server/strapi-archive/jsonl-out.js';
import { tarStream } from '../../server/strapi-archive/tar-out.js';
import { answers, CONTENT_READS, exportStrapi, importStrapi, serveImported, STRAPI_DIR, STRAPI_TAR_GZ } from './strapi-helpers.js';

/**
 * `hearth export --format strapi`: the archive has Strapi's layout (member order, headers, schema
 * and entity lines as Strapi writes them for the same content), and Hearth's own import reads it
 * back to the same answers, encrypted or not.
 */

let root: string;
let source: string;
let before: Record<string, string>;

interface Member {
  path: string;
  type: string;
  mode: number;
  uid: number;
  gid: number;
  mtime: number;
  body: string;
  raw: Buffer;
}

async function membersOf(file: string): Promise<Member[]> {
  const out: Member[] = [];
  await list({
    file,
    onReadEntry(entry: ReadEntry) {
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () =>
        out.push({ path: entry.path, type: entry.type, mode: entry.mode ?? -1, uid: entry.uid ?? -1, gid: entry.gid ?? -1, mtime: entry.mtime?.getTime() ?? -1, body: Buffer.concat(chunks).toString('utf8'), raw: Buffer.concat(chunks) }),
      );
    },
  });
  return out;
}

const lines = (text: string) => text.split('\n').filter(Boolean);
const fixtureLines = async (stage: string) => lines(await readFile(join(STRAPI_DIR, stage, `${stage}_00001.jsonl`), 'utf8'));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-strapi-export-'));
  source = join(root, 'source');
  expect((await importStrapi(STRAPI_TAR_GZ, source)).code).toBe(0);
  const server = await serveImported(source);
  try {
    before = await answers(server, CONTENT_READS);
  } finally {
    await server.close();
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Imports an archive into a new data dir and reads the same answers there. */
async function answersAfterImport(file: string, dataDir: string, ...more: string[]): Promise<Record<string, string>> {
  const run = await importStrapi(file, dataDir, ...more);
  expect(run.stderr).toContain('entities: 56');
  expect(run.code).toBe(0);
  const server = await serveImported(dataDir);
  try {
    return await answers(server, CONTENT_READS);
  } finally {
    await server.close();
  }
}

describe('export --format strapi', () => {
  it("writes Strapi's layout: member order, plain 0644 files owned by 0/0 at one mtime, metadata.json last", async () => {
    const file = join(root, 'layout.tar.gz');
    const run = await exportStrapi(source, file);
    expect(run.code).toBe(0);
    const members = await membersOf(file);
    const fixture = await membersOf(STRAPI_TAR_GZ);
    expect(members.map((m) => m.path)).toEqual(fixture.map((m) => m.path));
    for (const m of members) expect([m.path, m.type, m.mode & 0o777, m.uid, m.gid, m.mtime]).toEqual([m.path, 'File', 0o644, 0, 0, (members[0] as Member).mtime]);
    const metadata = JSON.parse((members.at(-1) as Member).body) as { strapi: unknown };
    expect(metadata.strapi).toEqual({ version: '5.54.0' });
    expect((members.at(-1) as Member).body).toMatch(/^\{\n {2}"createdAt": "[^"]+",\n {2}"strapi": \{\n {4}"version": "5\.54\.0"\n {2}\}\n\}$/);
    for (const m of members.filter((x) => x.path.startsWith('assets/'))) expect(m.raw.equals(fixture.find((f) => f.path === m.path)?.raw ?? Buffer.alloc(0)), m.path).toBe(true);
  });

  it("writes the schemas, rows, links and configuration of the imported Strapi archive as the very lines Strapi's export holds", async () => {
    const file = join(root, 'lines.tar');
    expect((await exportStrapi(source, file)).code).toBe(0);
    const members = await membersOf(file);
    const body = (path: string) => lines(members.find((m) => m.path === path)?.body ?? '');
    expect(body('schemas/schemas_00001.jsonl').sort()).toEqual((await fixtureLines('schemas')).sort());
    // Hearth keeps locales and role permissions in its own tables, without Strapi's row ids and documentIds.
    const kept = (l: string) => !/"plugin::(i18n\.locale|users-permissions\.permission)"/.test(l);
    expect(body('entities/entities_00001.jsonl').filter(kept)).toEqual((await fixtureLines('entities')).filter(kept));
    // Nor the position of a file in its folder (Strapi's pos counts deleted files).
    const links = (all: string[]) => all.filter((l) => kept(l) && !l.includes('"field":"folder"')).sort();
    expect(links(body('links/links_00001.jsonl'))).toEqual(links(await fixtureLines('links')));
    expect(body('configuration/configuration_00001.jsonl')).toEqual(await fixtureLines('configuration'));
  });

  it('reads back through Hearth identically: every type, locale and status answers the same', async () => {
    const file = join(root, 'round.tar.gz');
    expect((await exportStrapi(source, file)).code).toBe(0);
    expect(await answersAfterImport(file, join(root, 'round'))).toEqual(before);
  });

  it('encrypts with --key as strapi export -k does; the right key reads it back, a wrong one changes nothing', async () => {
    // As strapi export -f completes its base name: an encrypted archive ends with .enc.
    const exported = await exportStrapi(source, join(root, 'secret.tar.gz'), '--key', 'correct horse');
    expect(exported.code).toBe(0);
    const file = join(root, 'secret.tar.gz.enc');
    expect(exported.stderr).toContain(`to ${file}`);
    const unkeyed = await exportStrapi(source, join(root, 'other.tar.gz.enc'));
    expect([unkeyed.code, unkeyed.stderr.trim()]).toEqual([2, `hearth: ${join(root, 'other.tar.gz.enc')} names an encrypted archive: give its key with --key`]);
    const decipher = createDecipheriv('aes-128-ecb', scryptSync('correct horse', 'strapi-data-transfer', 16), null);
    const tar = gunzipSync(Buffer.concat([decipher.update(await readFile(file)), decipher.final()]));
    expect(tar.subarray(0, 27).toString()).toBe('schemas/schemas_00001.jsonl');
    const wrong = await importStrapi(file, join(root, 'wrong'), '--key', 'wrong horse');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe('reading secret.tar.gz.enc\nhearth: invalid Strapi archive: secret.tar.gz.enc: wrong key (the archive does not decrypt to a gzip or tar stream)');
    await expect(stat(join(root, 'wrong'))).rejects.toThrow();
    const missing = await importStrapi(file, join(root, 'wrong'));
    expect(missing.stderr).toContain('is encrypted: give its key with --key');
    expect(await answersAfterImport(file, join(root, 'right'), '--key', 'correct horse')).toEqual(before);
  });

  it("packs Strapi's members into the very bytes of Strapi's tar (headers, padding, end blocks)", async () => {
    const tar = gunzipSync(await readFile(STRAPI_TAR_GZ));
    const members = await membersOf(STRAPI_TAR_GZ);
    const dir = join(root, 'repack');
    for (const m of members) {
      await mkdir(dirname(join(dir, m.path)), { recursive: true });
      await writeFile(join(dir, m.path), m.raw);
    }
    const repacked = await buffer(tarStream(dir, members.map((m) => m.path), new Date((members[0] as Member).mtime)));
    expect(repacked.length).toBe(tar.length);
    expect(repacked.equals(tar)).toBe(true);
  });

  it('splits a stage into _00001, _00002... before the line that would pass the size, as Strapi does', async () => {
    const dir = join(root, 'split');
    const writer = stageWriter(dir, 'links', 20);
    for (const value of ['aaaaaaa', 'bbbbbbb', 'ccccccc', 'dddddddddddddddd']) await writer.write(value);
    expect(await writer.end()).toEqual(['links/links_00001.jsonl', 'links/links_00002.jsonl', 'links/links_00003.jsonl']);
    expect(await readFile(join(dir, 'links/links_00001.jsonl'), 'utf8')).toBe('"aaaaaaa"\n"bbbbbbb"\n');
    await expect(stageWriter(dir, 'schemas', 5).write('too long')).rejects.toThrow('more than a Strapi archive file holds');
  });
});
