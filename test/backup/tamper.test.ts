import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHearth } from '../helpers/cli.js';
import { dataOf } from '../helpers/project.js';
import { startTestServer } from '../helpers/server.js';
import { fixturePart, postUpload } from '../uploads/helpers.js';
import { entriesOf, exportTo, importFrom, runInProcess, treeOf, writeTarGz, type TarEntry } from './helpers.js';

/**
 * A damaged or hostile archive is refused (exit 1, one line on stderr) before anything lands in
 * the data dir: a data dir that did not exist still does not, one replaced with --force keeps
 * every byte, and nothing is written outside it. Usage mistakes exit 2. The table of cases runs
 * the CLI's `main` in this process (the binary runs the same function; the exit-code test and
 * the first case run the binary itself).
 */

let root: string;
let valid: TarEntry[];
let validFile: string;
const ESCAPED = `hearth-escaped-${process.pid}.txt`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-tamper-'));
  const source = await startTestServer({ dataDir: join(root, 'source') });
  const token = await source.token('full-access');
  await dataOf(await source.request('/api/tags', { method: 'POST', token, json: { data: { label: 'one' } } }), 201);
  expect((await postUpload(source, token, [fixturePart('notes.txt')])).status).toBe(201);
  await source.close();
  validFile = join(root, 'valid.tar.gz');
  expect((await exportTo(join(root, 'source'), validFile)).code).toBe(0);
  valid = await entriesOf(validFile);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const manifestOf = (entries: readonly TarEntry[]) => JSON.parse(String(entries.find((e) => e.path === 'manifest.json')?.body)) as Record<string, unknown>;
const withManifest = (entries: readonly TarEntry[], change: (m: Record<string, unknown>) => void): TarEntry[] =>
  entries.map((e) => {
    if (e.path !== 'manifest.json') return e;
    const manifest = manifestOf(entries);
    change(manifest);
    return { ...e, body: Buffer.from(JSON.stringify(manifest)) };
  });
const tableOf = (m: Record<string, unknown>, name: string) => {
  const table = (m.tables as { name: string; columns: unknown[] }[]).find((t) => t.name === name);
  if (!table) throw new Error(`no table ${name} in the manifest`);
  return table;
};
const withBody = (entries: readonly TarEntry[], path: string, change: (body: string) => string): TarEntry[] =>
  entries.map((e) => (e.path === path ? { ...e, body: Buffer.from(change(String(e.body))) } : e));
const mediaEntry = (entries: readonly TarEntry[]) => entries.find((e) => e.path.startsWith('media/') && e.type === 'File');

/** Each case: how the archive is spoiled, and what the one-line refusal says. */
const CASES: { name: string; spoil: (entries: TarEntry[], bytes: Buffer) => TarEntry[] | Buffer; message: RegExp }[] = [
  { name: 'a path traversal entry', spoil: (e) => [...e, { path: `media/../../../${ESCAPED}`, body: Buffer.from('x') }], message: /unsafe entry path/ },
  { name: 'an entry with an absolute path', spoil: (e) => [...e, { path: join(tmpdir(), ESCAPED), body: Buffer.from('x') }], message: /unsafe entry path/ },
  { name: 'a symbolic link', spoil: (e) => [...e, { path: 'media/passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' }], message: /is a SymbolicLink/ },
  { name: 'a hard link', spoil: (e) => [...e, { path: 'media/hard', type: 'Link', linkpath: 'manifest.json' }], message: /is a Link/ },
  { name: 'an unknown format version', spoil: (e) => withManifest(e, (m) => (m.formatVersion = 99)), message: /archive format version 99 is not supported/ },
  { name: 'a newer schema version', spoil: (e) => withManifest(e, (m) => (m.schemaVersion = 999)), message: /written by a newer Hearth/ },
  { name: 'no manifest first', spoil: (e) => [...e.filter((x) => x.path !== 'manifest.json'), ...e.filter((x) => x.path === 'manifest.json')], message: /manifest.json must be the first entry/ },
  { name: 'an unexpected entry', spoil: (e) => [...e, { path: 'hooks/run.sh', body: Buffer.from('#!/bin/sh') }], message: /unexpected entry hooks\/run.sh/ },
  { name: 'a column a built-in table lacks', spoil: (e) => withManifest(e, (m) => tableOf(m, 'hearth_locales').columns.push({ name: 'x', type: 'text', notNull: false })), message: /table hearth_locales has a column x that this build's table lacks/ },
  {
    // Extensions of plugin types add nullable columns to their tables (schema/extensions.ts); nothing else is added.
    name: 'a required column on an extendable table',
    spoil: (e) => withManifest(e, (m) => tableOf(m, 'hearth_files').columns.push({ name: 'credit', type: 'text', notNull: true })),
    message: /table hearth_files has a column credit that this build's table lacks/,
  },
  { name: 'a missing table file', spoil: (e) => e.filter((x) => x.path !== 'tables/hearth_meta.jsonl'), message: /tables\/hearth_meta.jsonl is missing/ },
  { name: 'a row count that does not match', spoil: (e) => withBody(e, 'tables/hearth_locales.jsonl', () => ''), message: /tables\/hearth_locales.jsonl holds 0 rows, its manifest says 1/ },
  { name: 'a row of the wrong shape', spoil: (e) => withBody(e, 'tables/hearth_locales.jsonl', () => '{"id":1}\n'), message: /tables\/hearth_locales.jsonl line 1 does not have the table's columns/ },
  {
    name: 'a duplicate row',
    spoil: (e) => withManifest(withBody(e, 'tables/hearth_locales.jsonl', (b) => b + b), (m) => ((m.tables as { name: string; rows: number }[]).filter((t) => t.name === 'hearth_locales').forEach((t) => (t.rows = 2)))),
    message: /its rows cannot be restored: UNIQUE constraint failed/,
  },
  {
    name: 'a media file its rows need',
    spoil: (e) => withManifest(e.filter((x) => x !== mediaEntry(e)), (m) => ((m.media as { files: number }).files -= 1)),
    message: /is referenced by a file row but not in the archive/,
  },
  { name: 'a truncated gzip stream', spoil: (_e, bytes) => bytes.subarray(0, 200), message: /unexpected end of file/ },
  { name: 'a tar cut inside an entry', spoil: (_e, bytes) => gzipSync(gunzipSync(bytes).subarray(0, 1536)), message: /Truncated input|ends inside an entry|manifest.json is not JSON/ },
  { name: 'a file that is not an archive', spoil: () => Buffer.from('hello, not a tarball\n'.repeat(100)), message: /invalid archive/ },
];

async function spoiled(name: string, spoil: (entries: TarEntry[], bytes: Buffer) => TarEntry[] | Buffer): Promise<string> {
  const file = join(root, `${name.replace(/\W+/g, '-')}.tar.gz`);
  const result = spoil([...valid], await readFile(validFile));
  if (Buffer.isBuffer(result)) await writeFile(file, result);
  else await writeTarGz(file, result);
  return file;
}

const exists = (path: string) => access(path).then(() => true, () => false);

describe('hearth import of a tampered archive', () => {
  it('the untampered archive, repacked by the same writer, imports (the cases below differ only by their defect)', async () => {
    const file = await spoiled('repacked', (e) => e);
    const result = await importFrom(file, join(root, 'repacked-data'));
    expect(result, result.stderr).toMatchObject({ code: 0 });
  });

  it.each(CASES)('refuses $name and changes nothing', async ({ name, spoil, message }) => {
    const file = await spoiled(name, spoil);
    const parent = join(root, `case-${name.replace(/\W+/g, '-')}`);
    const fresh = join(parent, 'fresh');
    const full = join(parent, 'full');
    await mkdir(join(full, 'uploads'), { recursive: true });
    await writeFile(join(full, 'uploads', 'mine.txt'), 'my file');
    await writeFile(join(full, 'hearth.db'), 'not really a database');
    const before = await treeOf(full);

    const intoFresh = await runInProcess(['import', '--file', file, '--data', fresh]);
    const intoFull = await runInProcess(['import', '--file', file, '--data', full, '--force']);
    for (const result of [intoFresh, intoFull]) {
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^hearth: invalid archive: [^\n]+\n$/);
      expect(result.stderr).toMatch(message);
    }
    expect(await exists(fresh)).toBe(false);
    expect(await treeOf(full)).toEqual(before);
    expect((await readdir(parent)).sort()).toEqual(['full']);
    expect(await exists(join(parent, '..', ESCAPED))).toBe(false);
    expect(await exists(join(tmpdir(), ESCAPED))).toBe(false);
  });
});

describe('exit codes of export and import', () => {
  it('2 for a usage error, 1 for a run-time failure, each with one line', async () => {
    const cases: [string[], number, RegExp][] = [
      [['import'], 2, /^hearth: --file is required\n$/],
      [['export', '--data', join(root, 'source')], 2, /^hearth: --file is required\n$/],
      [['import', '--file', validFile, '--data', join(root, 'x'), '--frobnicate=1'], 2, /^hearth: unknown option --frobnicate\n$/],
      [['export', '--file', join(root, 'out.tar.gz'), '--data', join(root, 'nothing-here')], 1, /^hearth: no Hearth data directory at .*nothing-here \(hearth.db not found\)\n$/],
      [['import', '--file', join(root, 'missing.tar.gz'), '--data', join(root, 'y')], 1, /^hearth: cannot read archive .*missing.tar.gz\n$/],
    ];
    for (const [args, code, stderr] of cases) {
      const result = await runHearth(args);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr).toMatch(stderr);
      expect(result.stdout).toBe('');
    }
    expect(await exists(join(root, 'nothing-here'))).toBe(false);
    expect(await exists(join(root, 'out.tar.gz'))).toBe(false);
  });
});
