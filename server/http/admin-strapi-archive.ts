import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import express from 'express';
import { AppError, notFound, validationError } from '../errors/app-error.js';
import { STRAPI_ARCHIVE_KEEP_MS, STRAPI_ARCHIVE_UPLOAD_LIMIT } from '../limits.js';
import type { Services } from '../services.js';
import { createImportTracker } from '../transfer/import-status.js';
import { objectBody, optionalBoolean, optionalString, requiredString } from './admin-input.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { sendJson } from './respond.js';
import { readUploadForm } from './upload-form.js';

/** An uploaded archive's id: the name of its folder under `<data>/tmp/strapi-archive`. */
const ARCHIVE_ID = /^req-[A-Za-z0-9_-]+$/;

/** The suffix `strapi import` tells an archive's format by; the uploaded file is stored under it. */
function archiveSuffix(name: string): string {
  for (const suffix of ['.tar.gz.enc', '.tar.gz', '.tgz', '.tar']) if (name.toLowerCase().endsWith(suffix)) return suffix === '.tgz' ? '.tar.gz' : suffix;
  throw validationError(`${name} is not a Strapi export: expected a .tar, .tar.gz or .tar.gz.enc file`);
}

/** The key form field: absent or empty is no key. */
function keyOf(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw validationError('key must be a string', { errors: [{ path: ['key'], message: 'key must be a string', name: 'ValidationError' }] });
  return value;
}

/** The command that imports the archive with the server stopped (the key is left for the person to type). */
function importCommand(fileName: string, encrypted: boolean, dataDir: string): string {
  const quote = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
  return `hearth import --from-strapi ${quote(fileName)}${encrypted ? ' --key <key>' : ''} --data ${quote(dataDir)} --force`;
}

/**
 * `/strapi-archive/*`: look into a Strapi export before importing it (what it brings, which of the
 * project's schemas it would replace), import it into the running server (one at a time; the
 * answer comes when it is done, and `GET /strapi-archive/import` tells the stage meanwhile), and
 * download this server's content as one. On PostgreSQL the import answers 409 with the CLI command
 * to run with the server stopped.
 */
export function strapiArchiveRoutes(services: Services): express.Router {
  const router = express.Router();
  const { config } = services;
  const root = join(config.dataDir, 'tmp', 'strapi-archive');
  const imports = createImportTracker(services.now);
  const liveImport = services.database.kind === 'sqlite';

  /** The stored archive of an upload id (its one `archive.*` file). */
  async function storedArchive(id: string): Promise<{ dir: string; file: string; fileName: string }> {
    if (!ARCHIVE_ID.test(id)) throw notFound('No uploaded Strapi archive with this id');
    const dir = join(root, id);
    const name = (await readdir(dir).catch(() => [] as string[])).find((n) => n.startsWith('archive.'));
    if (name === undefined) throw notFound('No uploaded Strapi archive with this id');
    const saved: unknown = await readFile(join(dir, 'name.json'), 'utf8').then((t) => JSON.parse(t) as unknown, () => null);
    const fileName = typeof saved === 'object' && saved !== null && typeof (saved as { fileName?: unknown }).fileName === 'string' ? (saved as { fileName: string }).fileName : name;
    return { dir, file: join(dir, name), fileName };
  }

  /** Removes uploads (and exports) left behind longer than STRAPI_ARCHIVE_KEEP_MS: a screen closed without Discard. */
  async function sweep(): Promise<void> {
    const now = services.now().getTime();
    for (const name of await readdir(root).catch(() => [] as string[])) {
      const info = await stat(join(root, name)).catch(() => null);
      if (info !== null && now - info.mtimeMs > STRAPI_ARCHIVE_KEEP_MS) await rm(join(root, name), { recursive: true, force: true });
    }
  }

  router.post('/strapi-archive/inspect', async (req, res) => {
    await mkdir(root, { recursive: true });
    await sweep();
    const form = await readUploadForm(req, res, { tmpRoot: root, sizeLimit: STRAPI_ARCHIVE_UPLOAD_LIMIT });
    let kept = false;
    try {
      const [upload, ...rest] = form.files;
      if (upload === undefined || rest.length > 0) throw validationError('Send one Strapi archive in the "files" part');
      const key = keyOf(form.fields.key);
      const file = join(form.dir, `archive${archiveSuffix(upload.filename)}`);
      await rename(upload.path, file);
      // The archive code (tar, the Strapi import) is loaded by the first request that needs it, not at start.
      const { inspectStrapiArchive } = await import('../strapi-archive/inspect.js');
      const inspection = await inspectStrapiArchive({ file, key, name: upload.filename, workDir: join(form.dir, 'unpacked'), schemasDir: config.schemasDir });
      await writeFile(join(form.dir, 'name.json'), JSON.stringify({ fileName: upload.filename }));
      kept = true;
      const encrypted = file.endsWith('.enc');
      sendJson(res, 200, {
        data: {
          id: basename(form.dir),
          fileName: upload.filename,
          size: upload.size,
          encrypted,
          ...inspection,
          liveImport,
          command: importCommand(upload.filename, encrypted, config.dataDir),
        },
      });
    } finally {
      if (!kept) await rm(form.dir, { recursive: true, force: true });
    }
  });

  router.get('/strapi-archive/import', (_req, res) => {
    sendJson(res, 200, { data: imports.status() });
  });

  router.post('/strapi-archive/import', async (req, res) => {
    const body = await objectBody(req);
    const id = requiredString(body, 'id');
    const key = keyOf(optionalString(body, 'key', { nullable: true }));
    const force = optionalBoolean(body, 'force') ?? false;
    const { dir, file, fileName } = await storedArchive(id);
    if (!liveImport) {
      throw new AppError(
        'ConflictError',
        'A server on PostgreSQL cannot import a Strapi archive while it runs. Stop the server and run the command in details.command.',
        { command: importCommand(fileName, file.endsWith('.enc'), config.dataDir) },
      );
    }
    if (file.endsWith('.enc') && key === null) throw validationError(`${fileName} is encrypted: send its key`, { errors: [{ path: ['key'], message: 'key is required for an encrypted archive', name: 'ValidationError' }] });
    const run = imports.start(id, fileName);
    const work = join(dir, 'work');
    const progress = (message: string) => {
      run.progress(message);
      services.log(`strapi import: ${message}`);
    };
    try {
      const { importIntoRunningServer } = await import('../transfer/archive-import.js');
      const result = await importIntoRunningServer({ services, file, name: fileName, key, force, work, progress });
      run.succeed(result);
      await rm(dir, { recursive: true, force: true });
      sendJson(res, 200, { data: result });
    } catch (err) {
      run.fail(err);
      throw err;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  router.delete('/strapi-archive/:id', async (req, res) => {
    const { dir } = await storedArchive(String(req.params.id));
    await rm(dir, { recursive: true, force: true });
    sendJson(res, 200, { data: { id: req.params.id } });
  });

  router.get('/strapi-archive/export', async (req, res) => {
    const key = keyOf(parseQueryString(rawQuery(req.originalUrl)).key);
    await mkdir(root, { recursive: true });
    const work = await mkdtemp(join(root, 'export-'));
    const name = `hearth-strapi-export.tar.gz${key === null ? '' : '.enc'}`;
    const file = join(work, name);
    try {
      const { exportStrapiArchive } = await import('../strapi-archive/export.js');
      await exportStrapiArchive({
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        schemasDir: config.schemasDir,
        file,
        key,
        mediaProvider: config.uploadProvider === 'local' ? null : services.uploads.provider,
        progress: () => {},
      });
      await new Promise<void>((resolve, reject) => res.download(file, name, (err) => (err ? reject(err) : resolve())));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
  return router;
}
