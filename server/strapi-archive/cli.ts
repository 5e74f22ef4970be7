import { resolveConfig } from '../config.js';
import { only, required, text, type Io, type Parsed } from '../cli-args.js';
import { usageError } from '../errors/app-error.js';
import type { StorageProvider } from '../uploads/storage-provider.js';
import { exportStrapiArchive } from './export.js';
import { importStrapiArchive } from './import.js';

/**
 * `hearth import --from-strapi FILE [--key KEY] [--data DIR] [--schemas DIR] [--force]`: stages
 * on stderr, one summary line at the end.
 */
export async function strapiImportCommand(parsed: Parsed, io: Io, mediaProvider: () => Promise<StorageProvider | null>): Promise<number> {
  only(parsed, ['from-strapi', 'key', 'data', 'schemas', 'force']);
  const file = required(parsed, 'from-strapi');
  const config = resolveConfig({ data: text(parsed, 'data'), schemas: text(parsed, 'schemas') });
  const provider = await mediaProvider();
  try {
    const summary = await importStrapiArchive({
      dataDir: config.dataDir,
      file,
      key: text(parsed, 'key') ?? null,
      schemasDir: text(parsed, 'schemas') === undefined ? null : config.schemasDir,
      force: parsed.flags.get('force') === true,
      mediaProvider: provider,
      databaseUrl: config.databaseUrl,
      progress: (m) => io.err(`${m}\n`),
    });
    io.err(`imported ${summary.entities} entities, ${summary.links} links and ${summary.assets} assets from ${file} into ${config.dataDir}\n`);
    return 0;
  } finally {
    provider?.close();
  }
}

/**
 * The archive's file name, completed as `strapi export -f NAME` completes it: a bare name gets
 * `.tar.gz`, and an encrypted archive (`--key`) ends with `.enc`.
 */
export function archiveName(file: string, encrypted: boolean): string {
  if (file.endsWith('.enc')) {
    if (!encrypted) throw usageError(`${file} names an encrypted archive: give its key with --key`);
    return file;
  }
  const archive = /\.tar(\.gz)?$/.test(file) ? file : `${file}.tar.gz`;
  return encrypted ? `${archive}.enc` : archive;
}

/** `hearth export --format strapi --file F.tar.gz [--key KEY] [--data DIR]`: an archive `strapi import -f` reads. */
export async function strapiExportCommand(parsed: Parsed, io: Io, mediaProvider: () => Promise<StorageProvider | null>): Promise<number> {
  only(parsed, ['format', 'file', 'key', 'data', 'schemas']);
  const key = text(parsed, 'key') ?? null;
  const file = archiveName(required(parsed, 'file'), key !== null);
  const config = resolveConfig({ data: text(parsed, 'data'), schemas: text(parsed, 'schemas') });
  const provider = await mediaProvider();
  try {
    const summary = await exportStrapiArchive({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, schemasDir: text(parsed, 'schemas') ?? null, file, key, mediaProvider: provider, progress: (m) => io.err(`${m}\n`) });
    io.err(`exported ${summary.entities} entities, ${summary.links} links and ${summary.assets} assets to ${file}\n`);
    return 0;
  } finally {
    provider?.close();
  }
}
