import { resolveConfig } from '../config.js';
import { only, required, text, type Io, type Parsed } from '../cli-args.js';
import { usageError } from '../errors/app-error.js';
import type { StorageProvider } from '../uploads/storage-provider.js';
import { exportArchive } from './export.js';
import { importArchive } from './import.js';

/** The provider an import stores media with: S3 when configured (UPLOAD_PROVIDER=s3), else none (local files). */
async function mediaProviderOf(config: ReturnType<typeof resolveConfig>): Promise<StorageProvider | null> {
  if (config.uploadProvider !== 's3' || config.s3 === null) return null;
  // The AWS SDK is loaded only when S3 is configured, as uploads/uploads.ts does.
  const { createS3Provider } = await import('../uploads/s3-provider.js');
  return createS3Provider({ config: config.s3 });
}

/** The media provider of the data dir `--data` names, made when asked (the Strapi archive commands take it too). */
export function mediaProviderOfData(parsed: Parsed): () => Promise<StorageProvider | null> {
  return () => mediaProviderOf(resolveConfig({ data: text(parsed, 'data') }));
}

/** `hearth export --file F.tar.gz [--data DIR]`: the archive is written; a summary goes to stderr. DATABASE_URL: read from PostgreSQL. */
export async function exportCommand(parsed: Parsed, io: Io): Promise<number> {
  const format = text(parsed, 'format');
  if (format !== undefined && format !== 'hearth') throw usageError('--format must be hearth or strapi');
  only(parsed, ['file', 'data', 'format']);
  const file = required(parsed, 'file');
  const config = resolveConfig({ data: text(parsed, 'data') });
  const summary = await exportArchive({ dataDir: config.dataDir, file, databaseUrl: config.databaseUrl, log: (m) => io.err(`${m}\n`) });
  io.err(`exported ${summary.tables} tables (${summary.rows} rows) and ${summary.media} media files to ${file}\n`);
  return 0;
}

/**
 * `hearth import --file F.tar.gz [--data DIR] [--force]`: refuses a non-empty data dir (or
 * PostgreSQL database, with DATABASE_URL) unless --force; with UPLOAD_PROVIDER=s3 the media go
 * into the bucket.
 */
export async function importCommand(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['file', 'data', 'force']);
  const file = required(parsed, 'file');
  const config = resolveConfig({ data: text(parsed, 'data') });
  const mediaProvider = await mediaProviderOf(config);
  try {
    const summary = await importArchive({ dataDir: config.dataDir, file, force: parsed.flags.get('force') === true, databaseUrl: config.databaseUrl, mediaProvider });
    const where = mediaProvider === null ? '' : ` (media stored with ${mediaProvider.name})`;
    io.err(`imported ${summary.tables} tables (${summary.rows} rows) and ${summary.media} media files into ${config.dataDir}${where}\n`);
    return 0;
  } finally {
    mediaProvider?.close();
  }
}
