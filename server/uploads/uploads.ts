import { mkdir, readdir, rm } from 'node:fs/promises';
import type { EventSink } from '../documents/index.js';
import { join } from 'node:path';
import type { HearthConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { Registry } from '../schema/registry.js';
import { createFileUrls, type FileUrls } from './file-access.js';
import { createFileReads, type FileReads } from './file-reads.js';
import { createImageProcessor } from './image-formats.js';
import { createLocalProvider } from './local-provider.js';
import { reconcileLocalUploads } from './reconcile.js';
import type { StorageProvider } from './storage-provider.js';
import { createUploadService, type UploadService } from './upload-service.js';

/** The media backend of one running Hearth. */
export interface Uploads {
  readonly service: UploadService;
  readonly reads: FileReads;
  /** URL finishing for file objects (also the document service's `files` hook). */
  readonly urls: FileUrls;
  readonly provider: StorageProvider;
  /** `<data>/uploads`: the local provider's files, served at `/uploads`. */
  readonly localDir: string;
  /** `<data>/tmp/uploads`: one directory per upload request while it runs. */
  readonly tmpRoot: string;
  /** UPLOAD_SIZE_LIMIT: the largest file part accepted, in bytes. */
  readonly sizeLimit: number;
  close(): void;
}

/** The configured provider; the AWS SDK (tens of MB) is loaded only when S3 is configured. */
async function createProvider(config: HearthConfig, localDir: string): Promise<StorageProvider> {
  if (config.uploadProvider !== 's3' || !config.s3) return createLocalProvider({ dir: localDir });
  const { createS3Provider } = await import('./s3-provider.js');
  return createS3Provider({ config: config.s3 });
}

/** The folder of in-flight uploads inside a data dir. */
export const uploadTempRoot = (dataDir: string): string => join(dataDir, 'tmp', 'uploads');

/** Per-request temp dirs are `req-<pid>-<random>`, so a process can tell its own from a dead one's. */
export const UPLOAD_TEMP_PREFIX = 'req-';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temp dirs of processes that died mid-upload; those of another live Hearth on the same data dir stay. */
async function removeStaleTemp(tmpRoot: string): Promise<void> {
  await mkdir(tmpRoot, { recursive: true });
  for (const name of await readdir(tmpRoot)) {
    const pid = Number(new RegExp(`^${UPLOAD_TEMP_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    await rm(join(tmpRoot, name), { recursive: true, force: true });
  }
}

/**
 * Builds the media backend from the configuration: the storage provider (UPLOAD_PROVIDER), the
 * service, the reads and the URL finishing. Temp files left by a process that died mid-upload are
 * removed here, before the first request.
 */
export async function openUploads(deps: {
  config: HearthConfig;
  database: Database;
  registry: () => Registry;
  now: () => Date;
  log: (message: string) => void;
  defaultLocale: () => Promise<string>;
  /** Where media webhook events are recorded (the webhooks outbox). */
  events?: EventSink;
}): Promise<Uploads> {
  const { config } = deps;
  const localDir = join(config.dataDir, 'uploads');
  const tmpRoot = uploadTempRoot(config.dataDir);
  await removeStaleTemp(tmpRoot);
  await mkdir(localDir, { recursive: true });
  await reconcileLocalUploads({ database: deps.database, localDir, tmpRoot, log: deps.log });
  const provider = await createProvider(config, localDir);
  const urls = createFileUrls({ provider, publicUrl: config.publicUrl });
  return {
    service: createUploadService({
      database: deps.database,
      registry: deps.registry,
      provider,
      now: deps.now,
      log: deps.log,
      defaultLocale: deps.defaultLocale,
      images: createImageProcessor({ maxPixels: config.uploadMaxImagePixels }),
      events: deps.events,
    }),
    reads: createFileReads({ database: deps.database, registry: deps.registry, provider, urls }),
    urls,
    provider,
    localDir,
    tmpRoot,
    sizeLimit: config.uploadSizeLimit,
    close: () => provider.close(),
  };
}
