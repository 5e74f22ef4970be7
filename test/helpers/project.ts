import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Json = Record<string, unknown>;

/** A content-type schema as Strapi writes it, from the few fields tests care about. */
export function collection(singular: string, plural: string, attributes: Json, options: { draftAndPublish?: boolean; localized?: boolean; kind?: 'collectionType' | 'singleType' } = {}): Json {
  return {
    kind: options.kind ?? 'collectionType',
    collectionName: plural.replace(/-/g, '_'),
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: options.draftAndPublish ?? false },
    pluginOptions: options.localized ? { i18n: { localized: true } } : {},
    attributes,
  };
}

/** Writes a Strapi project folder (`src/api/...`, `src/components/...`) and returns its root. */
export async function writeProject(spec: { types?: Record<string, Json>; components?: Record<string, Json> }, root?: string): Promise<string> {
  const dir = root ?? (await mkdtemp(join(tmpdir(), 'hearth-project-')));
  for (const [name, schema] of Object.entries(spec.types ?? {})) {
    const folder = join(dir, 'src', 'api', name, 'content-types', name);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'schema.json'), JSON.stringify(schema, null, 2));
  }
  for (const [uid, schema] of Object.entries(spec.components ?? {})) {
    const [category = 'shared', name = uid] = uid.split('.');
    const folder = join(dir, 'src', 'components', category);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, `${name}.json`), JSON.stringify({ collectionName: `components_${category}_${name}`.replace(/-/g, '_'), info: { displayName: name }, options: {}, ...schema }, null, 2));
  }
  return dir;
}

/** A document as the API prints it. */
export type Doc = Record<string, unknown> & { id: number; documentId: string };

/** Reads a JSON response, failing with the body when the status is not the expected one. */
export async function expectJson<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The `data` of a single-document response. */
export const dataOf = async (res: Response, status = 200): Promise<Doc> => (await expectJson<{ data: Doc }>(res, status)).data;
/** The `data` of a list response. */
export const listOf = async (res: Response, status = 200): Promise<Doc[]> => (await expectJson<{ data: Doc[] }>(res, status)).data;
