import type { Database } from '../db/database.js';
import type { EventSink } from '../documents/index.js';
import { mediaTransaction } from './media-events.js';
import { FILES_TABLE } from '../db/system-tables.js';
import { notFound } from '../errors/app-error.js';
import { extensionDefaults } from '../documents/index.js';
import { FILE_MODEL, fileModel } from '../schema/file-model.js';
import type { Registry } from '../schema/registry.js';
import { checkPath, type FileInfo, type LinkRequest } from './file-info.js';
import { bytesToKilobytes, rerollHash } from './file-names.js';
import { deleteFileRow, fileRow, insertFile, storedFile, updateFile, type FileValues, type FormatRecord, type StoredFile } from './file-rows.js';
import { uploadFolder, type UploadFolder } from './folder.js';
import type { ImageProcessor } from './image-formats.js';
import { applyLink, resolveLink } from './link.js';
import { prepareFile, type IncomingFile, type PreparedFile } from './prepare.js';
import type { StorageProvider } from './storage-provider.js';

/** What the upload service is built from. */
export interface UploadDeps {
  readonly database: Database;
  readonly registry: () => Registry;
  readonly provider: StorageProvider;
  readonly now: () => Date;
  readonly log: (message: string) => void;
  readonly defaultLocale: () => Promise<string>;
  /** Image processing, bounded in pixels and in images at once. */
  readonly images: ImageProcessor;
  /** Where media webhook events are recorded, in the transaction that writes the file row; absent: none. */
  readonly events?: EventSink;
}

/** `POST /api/upload` with files. */
export interface UploadInput {
  readonly files: readonly IncomingFile[];
  /** One per file, in order (missing ones are empty). */
  readonly infos: readonly FileInfo[];
  readonly link: LinkRequest | null;
  /** The `path` field as sent: a folder prefix on object storage, ignored on local disk (as in Strapi). */
  readonly path: string | null;
  /** The request's temp dir, for processed variants. */
  readonly workDir: string;
  /** Where the files go: "API Uploads" when left out (the content API), else the admin's folder or the root. */
  readonly folder?: UploadFolder;
}

/** `POST /api/upload?id=` with a file. */
export interface ReplaceInput {
  readonly id: number;
  readonly file: IncomingFile;
  readonly info: FileInfo;
  readonly workDir: string;
}

/** What an upload did: the new files' ids, and what image processing left out (`files[<i>] ...`). */
export interface UploadOutcome {
  readonly ids: number[];
  readonly notices: string[];
}

/** Notices of prepared files, named by their position in the request. */
const noticesOf = (files: readonly PreparedFile[]): string[] => files.flatMap((file, i) => (file.notice === null ? [] : [`files[${i}] ${file.notice}`]));

/** Strapi's NotFoundError default message, which upload updates and replacements answer with (transcript 148). */
const entityNotFound = () => notFound('Entity not found');

/**
 * Media writes: upload, replace, update file info, delete. Every write is all or nothing: files
 * are checked and processed before the first storage write, rows are written in one transaction,
 * and objects stored for a failed upload are removed again.
 */
export function createUploadService(deps: UploadDeps) {
  const { database, provider } = deps;
  const db = database.db;

  async function removeQuietly(keys: readonly string[], why: string): Promise<void> {
    for (const key of keys) {
      try {
        await provider.remove(key);
      } catch (err) {
        deps.log(`upload: could not remove ${key} (${why}): ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  function logged(notices: string[]): string[] {
    for (const notice of notices) deps.log(`upload: ${notice}`);
    return notices;
  }

  /**
   * Makes each new file's hash unique among stored files and this batch: 40 random bits make a
   * clash rare, but a library with a million `image.png` would otherwise overwrite a file some day.
   */
  async function withUniqueHashes(files: readonly PreparedFile[]): Promise<PreparedFile[]> {
    const taken = new Set<string>();
    const out: PreparedFile[] = [];
    for (const file of files) {
      let hash = file.hash;
      while (taken.has(hash) || (await db.selectFrom(FILES_TABLE).select('id').where('hash', '=', hash).executeTakeFirst())) hash = rerollHash(hash);
      taken.add(hash);
      out.push(hash === file.hash ? file : { ...file, hash });
    }
    return out;
  }

  /** Stores a prepared file and its variants under `prefix`; records every key written in `written`. */
  async function store(file: PreparedFile, prefix: string, written: string[]): Promise<{ url: string; formats: Record<string, FormatRecord> }> {
    const key = `${prefix}${file.hash}${file.ext}`;
    const url = await provider.put({ key, source: file.tempPath, mime: file.mime, size: file.sizeInBytes });
    written.push(key);
    const formats: Record<string, FormatRecord> = {};
    for (const variant of file.variants) {
      const variantKey = `${prefix}${variant.key}_${file.hash}${file.ext}`;
      const variantUrl = await provider.put({ key: variantKey, source: variant.tempPath, mime: file.mime, size: variant.sizeInBytes });
      written.push(variantKey);
      formats[variant.key] = {
        name: `${variant.key}_${file.name}`,
        hash: `${variant.key}_${file.hash}`,
        ext: file.ext,
        mime: file.mime,
        path: prefix === '' ? null : prefix.slice(0, -1),
        width: variant.width,
        height: variant.height,
        size: bytesToKilobytes(variant.sizeInBytes),
        sizeInBytes: variant.sizeInBytes,
        url: variantUrl,
      };
    }
    return { url, formats };
  }

  async function upload(input: UploadInput): Promise<UploadOutcome> {
    const registry = deps.registry();
    const path = provider.supportsPaths ? checkPath(input.path) : null;
    const link = input.link ? await resolveLink(db, registry, input.link) : null;
    const processed: PreparedFile[] = [];
    for (const [i, file] of input.files.entries()) {
      processed.push(await prepareFile({ file, info: input.infos[i] ?? {}, workDir: input.workDir, images: deps.images }));
    }
    const prepared = await withUniqueHashes(processed);
    const prefix = path ? `${path}/` : '';
    const written: string[] = [];
    try {
      const values: FileValues[] = [];
      for (const file of prepared) {
        const { url, formats } = await store(file, prefix, written);
        values.push({
          name: file.name,
          alternativeText: file.info.alternativeText ?? null,
          caption: file.info.caption ?? null,
          focalPoint: file.info.focalPoint ?? null,
          width: file.width,
          height: file.height,
          formats: file.variants.length > 0 ? formats : null,
          hash: file.hash,
          ext: file.ext,
          mime: file.mime,
          size: bytesToKilobytes(file.sizeInBytes),
          url,
          provider: provider.name,
        });
      }
      const defaultLocale = await deps.defaultLocale();
      // A project's file extension (src/extensions/upload/content-types/file) gets its scalars'
      // defaults, as Strapi's database layer fills them; never values from fileInfo (Strapi's
      // content-API validator refuses unknown keys, its admin one drops them).
      const extras = await extensionDefaults(fileModel(registry), FILE_MODEL);
      const ids = await mediaTransaction(db, deps.events, deps.registry, async (trx, raise) => {
        const folder = await uploadFolder(trx, input.folder ?? 'api-uploads', deps.now().toISOString());
        const inserted: number[] = [];
        for (const value of values) inserted.push(await insertFile(trx, value, folder, deps.now().toISOString(), extras));
        if (link) await applyLink({ db: trx, registry, now: () => deps.now().toISOString(), defaultLocale }, link, inserted);
        for (const id of inserted) await raise('media.create', id);
        return inserted;
      });
      return { ids, notices: logged(noticesOf(prepared)) };
    } catch (err) {
      await removeQuietly(written, 'rolling back a failed upload');
      throw err;
    }
  }

  async function existing(id: number): Promise<StoredFile> {
    const row = Number.isSafeInteger(id) ? await fileRow(db, id) : undefined;
    if (!row) throw entityNotFound();
    return storedFile(row);
  }

  /** Where a replacement goes: the old object's key prefix when it lives on the active provider. */
  function replacementPrefix(old: StoredFile): string {
    if (old.provider !== provider.name) return '';
    const key = provider.keyOf(old.url);
    const name = `${old.hash}${old.ext}`;
    return key !== null && key.endsWith(name) ? key.slice(0, -name.length) : '';
  }

  /**
   * Replaces a file's bytes, keeping its hash and extension so its URL does not change (Strapi's
   * replace). The objects are overwritten in place; formats the new file no longer has are
   * deleted once the row no longer mentions them.
   */
  async function replace(input: ReplaceInput): Promise<string[]> {
    const old = await existing(input.id);
    const file = await prepareFile({ file: input.file, info: input.info, workDir: input.workDir, images: deps.images, keep: { hash: old.hash, ext: old.ext } });
    const { url, formats } = await store(file, replacementPrefix(old), []);
    await mediaTransaction(db, deps.events, deps.registry, async (trx, raise) => {
      await updateFile(
        trx,
        old.id,
        {
          name: file.name,
          alternativeText: input.info.alternativeText,
          caption: input.info.caption,
          focalPoint: input.info.focalPoint,
          width: file.width,
          height: file.height,
          formats,
          mime: file.mime,
          size: bytesToKilobytes(file.sizeInBytes),
          url,
          provider: provider.name,
        },
        deps.now().toISOString(),
      );
      await raise('media.update', old.id);
    });
    if (old.provider !== provider.name) return logged(noticesOf([file]));
    const obsolete = [...old.formatUrls].filter(([key]) => formats[key] === undefined).map(([, formatUrl]) => provider.keyOf(formatUrl));
    await removeQuietly(
      obsolete.filter((k): k is string => k !== null),
      'dropping formats of a replaced file',
    );
    return logged(noticesOf([file]));
  }

  /** Updates name, alternativeText, caption and focalPoint; absent or null values keep the old ones. */
  async function updateInfo(id: number, info: FileInfo): Promise<void> {
    const old = await existing(id);
    await mediaTransaction(db, deps.events, deps.registry, async (trx, raise) => {
      await updateFile(
        trx,
        old.id,
        {
          name: info.name ?? old.name,
          alternativeText: info.alternativeText ?? old.alternativeText,
          caption: info.caption ?? old.caption,
          focalPoint: info.focalPoint ?? old.focalPoint,
        },
        deps.now().toISOString(),
      );
      await raise('media.update', old.id);
    });
  }

  /** Deletes a file: its row and links first (one statement), then its objects and formats. */
  async function remove(id: number): Promise<boolean> {
    const row = Number.isSafeInteger(id) ? await fileRow(db, id) : undefined;
    if (!row) return false;
    const file = storedFile(row);
    await mediaTransaction(db, deps.events, deps.registry, async (trx, raise) => {
      await raise('media.delete', row);
      await deleteFileRow(trx, file.id);
    });
    if (file.provider !== provider.name) {
      deps.log(`upload: file ${file.id} was stored by provider ${file.provider}; its objects were left in place`);
      return true;
    }
    const keys = [file.url, ...file.formatUrls.values()].map((u) => provider.keyOf(u)).filter((k): k is string => k !== null);
    await removeQuietly(keys, 'deleting a file');
    return true;
  }

  return { upload, replace, updateInfo, remove };
}

/** The upload service. */
export type UploadService = ReturnType<typeof createUploadService>;
