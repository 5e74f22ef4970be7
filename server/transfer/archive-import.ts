import { join } from 'node:path';
import { AppError } from '../errors/app-error.js';
import type { Services } from '../services.js';
import type { StrapiImportSummary } from '../strapi-archive/import.js';
import { readStage, stageLines } from '../strapi-archive/jsonl.js';
import { conflictingSchemas, parseArchiveSchemas } from '../strapi-archive/schemas.js';
import { openStrapiArchive } from '../strapi-archive/source.js';
import { applyDataset } from './apply.js';

/**
 * A Strapi export imported into the running server (the admin API's Strapi card): the archive is
 * opened and checked as the CLI import checks it, then applied as a transfer push is (apply.ts):
 * built into a scratch data dir, then its schemas and content put in place in one transaction.
 * A bad archive fails before anything of the server changes.
 */

/** What a live import brought in. */
export interface LiveImportResult extends StrapiImportSummary {
  /** Content types of the project (`api::`) the archive holds. */
  readonly types: number;
  /** Documents of those types (distinct documentIds). */
  readonly documents: number;
  /** Media files (upload file entities). */
  readonly files: number;
  readonly conflicts: readonly string[];
}

/** Documents of the project's types and media files among the archive's entity lines. */
async function countDocuments(dir: string): Promise<{ documents: number; files: number }> {
  const documents = new Set<string>();
  let files = 0;
  for await (const { value } of stageLines(dir, 'entities')) {
    const type = typeof value.type === 'string' ? value.type : '';
    const data = typeof value.data === 'object' && value.data !== null ? (value.data as Record<string, unknown>) : {};
    if (type === 'plugin::upload.file') files++;
    if (type.startsWith('api::')) documents.add(`${type} ${String(data.documentId ?? value.id)}`);
  }
  return { documents: documents.size, files };
}

/**
 * Imports `file` into the running server. Schemas of the project that differ from the archive's
 * are refused by name (409) unless `force`; every archive problem is the CLI's 400 naming the
 * member and line.
 */
export async function importIntoRunningServer(options: {
  services: Services;
  file: string;
  /** The name messages give the archive (the uploaded file's). */
  name: string;
  key: string | null;
  force: boolean;
  work: string;
  progress: (message: string) => void;
}): Promise<LiveImportResult> {
  const { services, work, progress } = options;
  if (services.database.kind !== 'sqlite') throw new AppError('ConflictError', 'A server on PostgreSQL cannot import a Strapi archive while it runs');
  progress('reading: unpacking the archive');
  const tree = await openStrapiArchive({ file: options.file, name: options.name, key: options.key, workDir: join(work, 'archive') });
  const schemas = parseArchiveSchemas(await readStage(tree.dir, 'schemas'));
  const conflicts = await conflictingSchemas(services.config.schemasDir, schemas);
  if (conflicts.length > 0 && !options.force) {
    throw new AppError('ConflictError', `The project's schemas differ from the archive's: ${conflicts.join(', ')}. Send force: true to replace them.`, { conflicts });
  }
  const counted = await countDocuments(tree.dir);
  const summary = await applyDataset({ services, tree: tree.dir, work: join(work, 'apply'), schemas, progress });
  const types = schemas.filter((s) => s.modelType === 'contentType' && s.path !== null).length;
  return { ...summary, ...counted, types, conflicts };
}
