import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { openDataDir } from '../data-dir.js';
import type { Db } from '../db/database.js';
import { FILES_RELATED_TABLE, FOLDERS_TABLE, LOCALES_TABLE, PERMISSIONS_TABLE, ROLES_TABLE } from '../db/system-tables.js';
import { getMeta } from '../db/migrations.js';
import { newDocumentId } from '../documents/index.js';
import { fileModel } from '../schema/file-model.js';
import { loadProject } from '../schema/load.js';
import { buildRegistry, type Registry } from '../schema/registry.js';
import { FILE_UID, type ContentTypeModel } from '../schema/types.js';
import { createLocalProvider } from '../uploads/local-provider.js';
import type { StorageProvider } from '../uploads/storage-provider.js';
import { roleModel, userModel, USERS_PERMISSIONS } from '../users/models.js';
import { entityData, localizationsLink, morphLinks, relationLinks } from './entities-out.js';
import { FOLDER_UID, LOCALE_UID, PERMISSION_UID } from './entities-in.js';
import { isRecord } from './jsonl.js';
import { stageWriter, type StageWriter } from './jsonl-out.js';
import { schemaLines } from './schemas-out.js';
import { KEPT_CONFIGURATION } from './settings-in.js';
import { strapiCipher } from './source.js';
import { tarStream } from './tar-out.js';

/** An asset's name: a hash and an extension, nothing a path could be made of (also what a push may name one). */
export const SAFE_ASSET = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The Strapi version the archive says it comes from: the one whose layout it follows. */
export const STRAPI_ARCHIVE_VERSION = '5.54.0';

/** What `hearth export --format strapi` is asked to do. */
export interface StrapiExportOptions {
  readonly dataDir: string;
  /** DATABASE_URL: the content is read from this PostgreSQL database. */
  readonly databaseUrl?: string | null;
  readonly schemasDir: string | null;
  /** `.tar`, `.tar.gz`, or `.tar.gz.enc` with `key`. */
  readonly file: string;
  readonly key: string | null;
  readonly progress: (message: string) => void;
  /** The provider media are stored with (UPLOAD_PROVIDER=s3): files it holds are read through it. */
  readonly mediaProvider?: StorageProvider | null;
  readonly now?: () => Date;
}

/** What the archive holds. */
export interface StrapiExportSummary {
  readonly entities: number;
  readonly links: number;
  readonly assets: number;
}

interface Ctx {
  readonly db: Db;
  readonly registry: Registry;
  readonly entities: StageWriter;
  readonly links: StageWriter;
  count: { entities: number; links: number };
}

const emitEntity = async (ctx: Ctx, type: string, id: number, data: Record<string, unknown>) => {
  await ctx.entities.write({ type, id, data });
  ctx.count.entities++;
};
const emitLink = async (ctx: Ctx, link: unknown) => {
  await ctx.links.write(link);
  ctx.count.links++;
};

/** Rows of a content-type model (project types, files, users, roles) as entity lines, their links after. */
async function exportModel(ctx: Ctx, model: ContentTypeModel, uid: string = model.uid): Promise<void> {
  const rows = await ctx.db.selectFrom(model.table).selectAll().orderBy('id').execute();
  for (const row of rows) await emitEntity(ctx, uid, Number(row.id), await entityData(ctx.db, ctx.registry, model, row));
  await relationLinks(ctx.db, ctx.registry, model, (l) => emitLink(ctx, l));
  await morphLinks(ctx.db, model, (l) => emitLink(ctx, l));
  for (const row of rows) await emitLink(ctx, localizationsLink(uid, Number(row.id), String(row.documentId)));
}

/** Position of each child within its parent's list, as the inverse side of a manyToOne. */
function positions(): (parent: number) => number {
  const seen = new Map<number, number>();
  return (parent) => {
    const next = (seen.get(parent) ?? 0) + 1;
    seen.set(parent, next);
    return next;
  };
}

/** Folders, locales and role permissions: kept in Hearth's own tables, written as Strapi's plugin entities. */
async function exportPluginRows(ctx: Ctx): Promise<void> {
  const folders = await ctx.db.selectFrom(FOLDERS_TABLE).selectAll().orderBy('id').execute();
  for (const f of folders) {
    const data = { documentId: f.documentId, name: f.name, pathId: Number(f.pathId), path: f.path, createdAt: f.createdAt, updatedAt: f.updatedAt, publishedAt: f.publishedAt ?? f.createdAt, locale: f.locale ?? null };
    await emitEntity(ctx, FOLDER_UID, Number(f.id), data);
  }
  const childPos = positions();
  for (const f of folders) {
    if (f.parent_id === null || f.parent_id === undefined) continue;
    const right = { type: FOLDER_UID, field: 'children', ref: Number(f.parent_id), pos: childPos(Number(f.parent_id)) };
    await emitLink(ctx, { kind: 'relation.basic', relation: 'manyToOne', left: { type: FOLDER_UID, field: 'parent', ref: Number(f.id) }, right });
  }
  for (const f of folders) await emitLink(ctx, localizationsLink(FOLDER_UID, Number(f.id), String(f.documentId)));
  const locales = await ctx.db.selectFrom(LOCALES_TABLE).selectAll().orderBy('id').execute();
  for (const [i, l] of locales.entries()) {
    const data = { documentId: newDocumentId(), name: l.name, code: l.code, createdAt: l.created_at, updatedAt: l.updated_at, publishedAt: l.created_at, locale: null };
    await emitEntity(ctx, LOCALE_UID, i + 1, data);
    await emitLink(ctx, localizationsLink(LOCALE_UID, i + 1, data.documentId));
  }
  const roles = new Map((await ctx.db.selectFrom(ROLES_TABLE).select(['id', 'type']).execute()).map((r) => [r.type, r.id]));
  const permissions = await ctx.db.selectFrom(PERMISSIONS_TABLE).selectAll().orderBy('role').orderBy('action').execute();
  const rolePos = positions();
  let id = 0;
  for (const p of permissions) {
    const role = roles.get(String(p.role));
    if (role === undefined) continue;
    const documentId = newDocumentId();
    await emitEntity(ctx, PERMISSION_UID, ++id, { documentId, action: p.action, createdAt: p.created_at, updatedAt: p.created_at, publishedAt: p.created_at, locale: null });
    await emitLink(ctx, { kind: 'relation.basic', relation: 'manyToOne', left: { type: PERMISSION_UID, field: 'role', ref: id }, right: { type: 'plugin::users-permissions.role', field: 'permissions', ref: role, pos: rolePos(role) } });
    await emitLink(ctx, localizationsLink(PERMISSION_UID, id, documentId));
  }
}

/** Where the bytes of files come from: the local uploads folder, or the configured provider (S3) read through its URLs. */
interface MediaSource {
  readonly uploadsDir: string;
  readonly provider: StorageProvider | null;
}

/** The bytes behind a file or format URL, staged at `target`; false when they cannot be had. */
async function stageBytes(source: MediaSource, provider: unknown, url: unknown, target: string): Promise<boolean> {
  if (typeof url !== 'string') return false;
  const local = createLocalProvider({ dir: source.uploadsDir });
  const localKey = provider === local.name ? local.keyOf(url) : null;
  if (localKey !== null) return copyFile(join(source.uploadsDir, localKey), target).then(() => true, () => false);
  const remote = source.provider;
  const key = remote !== null && provider === remote.name ? remote.keyOf(url) : null;
  if (remote === null || key === null) return false;
  const res = await fetch(await remote.readUrl(key));
  if (!res.ok) return false;
  await writeFile(target, Buffer.from(await res.arrayBuffer()));
  return true;
}

/** Files: entity lines, their media and folder links, and each stored binary (main and formats) as an asset named `<hash><ext>`, as Strapi names them. */
async function exportFiles(ctx: Ctx, source: MediaSource, stageDir: string, assets: string[], progress: (m: string) => void): Promise<void> {
  const model = fileModel(ctx.registry);
  const rows = await ctx.db.selectFrom(model.table).selectAll().orderBy('id').execute();
  const addAsset = async (provider: unknown, url: unknown, metadata: Record<string, unknown>) => {
    const name = `${String(metadata.hash)}${String(metadata.ext ?? '')}`;
    if (!SAFE_ASSET.test(name) || assets.includes(`assets/uploads/${name}`)) return;
    if (!(await stageBytes(source, provider, url, join(stageDir, 'assets', 'uploads', name)))) {
      progress(`warning: the bytes of ${name} (${String(url)}) cannot be read; its asset is left out`);
      return;
    }
    await writeFile(join(stageDir, 'assets', 'metadata', `${name}.json`), JSON.stringify(metadata));
    assets.push(`assets/metadata/${name}.json`, `assets/uploads/${name}`);
  };
  await mkdir(join(stageDir, 'assets', 'metadata'), { recursive: true });
  await mkdir(join(stageDir, 'assets', 'uploads'), { recursive: true });
  for (const row of rows) {
    const data = await entityData(ctx.db, ctx.registry, model, row);
    await emitEntity(ctx, FILE_UID, Number(row.id), data);
    await addAsset(row.provider, row.url, { id: Number(row.id), ...data });
    const formats = isRecord(data.formats) ? data.formats : {};
    for (const [type, format] of Object.entries(formats)) {
      if (isRecord(format)) await addAsset(row.provider, format.url, { ...format, type, id: Number(row.id), mainHash: row.hash });
    }
  }
  const related = await ctx.db.selectFrom(FILES_RELATED_TABLE).selectAll().orderBy('id').execute();
  for (const r of related) {
    const right = { ref: r.related_id, pos: r.ord, type: r.related_type, field: r.field };
    await emitLink(ctx, { kind: 'relation.morph', relation: 'morphToMany', left: { type: FILE_UID, field: 'related', ref: r.file_id }, right });
  }
  const folderPos = positions();
  for (const row of rows) {
    if (row.folder_id === null || row.folder_id === undefined) continue;
    const right = { type: FOLDER_UID, field: 'files', ref: Number(row.folder_id), pos: folderPos(Number(row.folder_id)) };
    await emitLink(ctx, { kind: 'relation.basic', relation: 'manyToOne', left: { type: FILE_UID, field: 'folder', ref: Number(row.id) }, right });
  }
  for (const row of rows) await emitLink(ctx, localizationsLink(FILE_UID, Number(row.id), String(row.documentId)));
}

/**
 * The configuration stage: the core-store rows kept from the Strapi archive this data dir was
 * imported from (strapi import deletes the core-store and restores the archive's), with the
 * default locale as it is now; else that one row.
 */
async function configurationLines(dataDir: string, defaultLocale: string): Promise<Record<string, unknown>[]> {
  const kept = await readFile(join(dataDir, KEPT_CONFIGURATION), 'utf8').catch(() => '');
  const out: Record<string, unknown>[] = [];
  let found = false;
  for (const text of kept.split('\n')) {
    if (text === '') continue;
    const line: unknown = JSON.parse(text);
    if (!isRecord(line)) continue;
    const value = line.value;
    if (line.type === 'core-store' && isRecord(value) && value.key === 'plugin_i18n_default_locale') {
      found = true;
      out.push({ ...line, value: { ...value, value: defaultLocale } });
    } else out.push(line);
  }
  if (!found) out.push({ type: 'core-store', value: { id: out.length + 1, key: 'plugin_i18n_default_locale', value: defaultLocale, type: 'string', environment: null, tag: null } });
  return out;
}

/** Packs the staged members in order into `file` as Strapi's tar, gzipped and encrypted as the name says (tar, gzip, then aes-128-ecb). */
async function pack(stageDir: string, members: readonly string[], file: string, key: string | null, mtime: Date): Promise<void> {
  const gzip = /\.gz(\.enc)?$/.test(file);
  const steps: NodeJS.ReadWriteStream[] = [];
  if (gzip) steps.push(createGzip());
  if (key !== null) steps.push(strapiCipher(key));
  const partial = `${file}.partial-${process.pid}`;
  try {
    await pipeline([tarStream(stageDir, members, mtime), ...steps, createWriteStream(partial, { flags: 'wx', mode: 0o644 })]);
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

/** What staging an archive's tree is asked to do: an export's options but the file and key, and the folder to write into. */
export type StrapiStageOptions = Omit<StrapiExportOptions, 'file' | 'key'> & { readonly stageDir: string };

/**
 * Writes the data dir's archive members, unpacked, into `stageDir` (an existing folder): the tree
 * `strapi export --format dir` writes. Resolves to the members in Strapi's order (schemas,
 * entities, assets, links, configuration, metadata.json last) and what they hold.
 */
export async function stageStrapiArchive(options: StrapiStageOptions): Promise<{ members: string[]; summary: StrapiExportSummary }> {
  const { stageDir } = options;
  const now = (options.now ?? (() => new Date()))();
  const dir = await openDataDir(resolve(options.dataDir), { databaseUrl: options.databaseUrl ?? null });
  try {
    const root = options.schemasDir ?? (await getMeta(dir.database.db, 'last_schemas_dir')) ?? join(dir.path, 'schema');
    const registry = buildRegistry(await loadProject(root, USERS_PERMISSIONS));
    const members: string[] = [];
    const schemas = stageWriter(stageDir, 'schemas');
    for (const line of schemaLines(registry)) await schemas.write(line);
    members.push(...(await schemas.end()));
    const ctx: Ctx = { db: dir.database.db, registry, entities: stageWriter(stageDir, 'entities'), links: stageWriter(stageDir, 'links'), count: { entities: 0, links: 0 } };
    const assets: string[] = [];
    await exportFiles(ctx, { uploadsDir: join(dir.path, 'uploads'), provider: options.mediaProvider ?? null }, stageDir, assets, options.progress);
    await exportPluginRows(ctx);
    await exportModel(ctx, roleModel(registry));
    await exportModel(ctx, userModel(registry));
    for (const model of registry.contentTypes) await exportModel(ctx, model);
    members.push(...(await ctx.entities.end()), ...assets, ...(await ctx.links.end()));
    options.progress(`entities: ${ctx.count.entities}, links: ${ctx.count.links}, assets: ${assets.length / 2}`);
    const configuration = stageWriter(stageDir, 'configuration');
    for (const line of await configurationLines(dir.path, await dir.locales.defaultCode())) await configuration.write(line);
    members.push(...(await configuration.end()));
    await writeFile(join(stageDir, 'metadata.json'), JSON.stringify({ createdAt: now.toISOString(), strapi: { version: STRAPI_ARCHIVE_VERSION } }, null, 2));
    members.push('metadata.json');
    return { members, summary: { entities: ctx.count.entities, links: ctx.count.links, assets: assets.length / 2 } };
  } finally {
    await dir.database.close();
  }
}

/**
 * `hearth export --format strapi`: the data dir as `strapi export` would have written it from a
 * Strapi project with the same schemas: its members staged beside the file, then packed.
 */
export async function exportStrapiArchive(options: StrapiExportOptions): Promise<StrapiExportSummary> {
  const now = (options.now ?? (() => new Date()))();
  const file = resolve(options.file);
  const stageDir = await mkdtemp(join(dirname(file), `.${basename(file)}.stage-`));
  try {
    const { members, summary } = await stageStrapiArchive({ ...options, now: () => now, stageDir });
    await pack(stageDir, members, file, options.key, now);
    return summary;
  } finally {
    await rm(stageDir, { recursive: true, force: true });
  }
}
