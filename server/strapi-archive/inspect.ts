import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord, readStage, stageLines } from './jsonl.js';
import { conflictingSchemas, parseArchiveSchemas } from './schemas.js';
import { openStrapiArchive } from './source.js';

/** One schema of an archive as the import screen lists it. */
export interface InspectedSchema {
  readonly uid: string;
  /** `collectionType`, `singleType` or `component`. */
  readonly kind: string;
  /** Entity lines of this uid in the archive (0 for components: they live inside their owners). */
  readonly entities: number;
}

/** What an import would bring, read without touching any data dir. */
export interface StrapiArchiveInspection {
  readonly schemas: readonly InspectedSchema[];
  /** Entity lines per type, including plugin and admin types the archive holds (users, roles, files, locales). */
  readonly entities: Readonly<Record<string, number>>;
  readonly totalEntities: number;
  readonly links: number;
  readonly assets: number;
  /** `metadata.json`'s `strapi.version`, when given. */
  readonly strapiVersion: string | null;
  /** Schemas of the project at `schemasDir` that the archive's differ from (an import replaces them only when forced). */
  readonly conflicts: readonly string[];
}

/**
 * Unpacks a Strapi export into `workDir` (removed afterwards) and counts what it holds: its
 * schemas (uid and kind), entity lines per type, links and asset files. A damaged archive or a
 * wrong key fails as the import would, with the same one-line reason. With `schemasDir`, the
 * project's schema files that differ from the archive's are named.
 */
export async function inspectStrapiArchive(options: { file: string; key: string | null; workDir: string; name?: string; schemasDir?: string }): Promise<StrapiArchiveInspection> {
  const tree = await openStrapiArchive(options);
  try {
    const schemas = parseArchiveSchemas(await readStage(tree.dir, 'schemas'));
    const entities = new Map<string, number>();
    for await (const { value } of stageLines(tree.dir, 'entities')) {
      const type = typeof value.type === 'string' ? value.type : '?';
      entities.set(type, (entities.get(type) ?? 0) + 1);
    }
    let links = 0;
    for await (const _line of stageLines(tree.dir, 'links')) links++;
    const assets = (await readdir(join(tree.dir, 'assets', 'uploads')).catch(() => [] as string[])).length;
    return {
      schemas: schemas.map((s) => ({ uid: s.uid, kind: s.modelType === 'component' ? 'component' : String(s.raw.kind ?? 'collectionType'), entities: entities.get(s.uid) ?? 0 })),
      entities: Object.fromEntries(entities),
      totalEntities: [...entities.values()].reduce((a, b) => a + b, 0),
      links,
      assets,
      strapiVersion: await strapiVersion(tree.dir),
      conflicts: options.schemasDir === undefined ? [] : await conflictingSchemas(options.schemasDir, schemas),
    };
  } finally {
    if (tree.owned) await rm(tree.dir, { recursive: true, force: true });
  }
}

/** The Strapi version `metadata.json` names, or null. */
async function strapiVersion(dir: string): Promise<string | null> {
  const parsed: unknown = await readFile(join(dir, 'metadata.json'), 'utf8').then((t) => JSON.parse(t) as unknown, () => null);
  const strapi = isRecord(parsed) ? parsed.strapi : null;
  return isRecord(strapi) && typeof strapi.version === 'string' ? strapi.version : null;
}
