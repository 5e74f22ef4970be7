import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestServer } from '../helpers/server.js';
import { STRAPI_FIXTURES_DIR } from '../helpers/transcripts.js';

/** The bytes of one of the recorded session's fixture files (red-400x300.png, blue-64x48.jpg, notes.txt, evil.svg). */
export const fixture = (name: string): Buffer => readFileSync(join(STRAPI_FIXTURES_DIR, name));

/** One multipart part: a file (bytes, client file name, claimed type) or a text field. */
export type Part =
  | { readonly name: string; readonly filename: string; readonly bytes: Uint8Array; readonly type?: string }
  | { readonly name: string; readonly value: string };

/** A multipart body as a browser or curl sends it. */
export function form(parts: readonly Part[]): FormData {
  const body = new FormData();
  for (const part of parts) {
    if ('value' in part) body.append(part.name, part.value);
    else body.append(part.name, new Blob([part.bytes], { type: part.type ?? 'application/octet-stream' }), part.filename);
  }
  return body;
}

/** A `files` part holding a fixture file under its own name. */
export const fixturePart = (name: string, type?: string): Part => ({ name: 'files', filename: name, bytes: fixture(name), ...(type ? { type } : {}) });

/** `POST /api/upload[?query]` with a multipart body. */
export function postUpload(server: TestServer, token: string | undefined, parts: readonly Part[], query = ''): Promise<Response> {
  return server.request(`/api/upload${query}`, { method: 'POST', ...(token ? { token } : {}), body: form(parts) });
}

/** Reads a JSON body, failing with it when the status is not the expected one. */
export async function json<T = unknown>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A file object as the upload endpoints print it. */
export type FileObject = Record<string, unknown> & {
  id: number;
  documentId: string;
  name: string;
  hash: string;
  ext: string;
  mime: string;
  url: string;
  formats: Record<string, Record<string, unknown> & { url: string; hash: string }> | null;
};

/** Every file name under a folder (recursively, relative paths), sorted; [] when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
      .sort();
  } catch {
    return [];
  }
}

/** How many rows a table of the server's database holds. */
export async function countRows(server: TestServer, table: string): Promise<number> {
  const row = await server.server.services.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** What a failed upload must leave behind: nothing in the media folder, the temp folder or the file table. */
export async function leftovers(server: TestServer): Promise<{ uploads: string[]; temp: string[]; rows: number }> {
  return {
    uploads: await filesUnder(join(server.dataDir, 'uploads')),
    temp: await readdir(join(server.dataDir, 'tmp', 'uploads')),
    rows: await countRows(server, 'hearth_files'),
  };
}

/** The Strapi error envelope. */
export const errorBody = (status: number, name: string, message: string, details: unknown = {}) => ({
  data: null,
  error: { status, name, message, details },
});
