import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Caller } from '../auth/caller.js';
import { AppError, forbidden, notFound, validationError } from '../errors/app-error.js';
import { queryOfObject } from '../query/query-string.js';
import { paginationMeta } from '../query/pagination.js';
import { readFileInfos } from '../uploads/file-info.js';
import { pageWindowOf, readFileQuery } from '../uploads/file-query.js';
import { UPLOAD_TEMP_PREFIX } from '../uploads/uploads.js';
import { answer, pick, queryEnv, textArg, writeAnswer, type Args, type McpContext, type ToolAnswer } from './context.js';

/** The upload plugin's Content API actions this server's tools perform. */
export const FILE_ACTIONS = { find: 'plugin::upload.content-api.find', upload: 'plugin::upload.content-api.upload' } as const;

const canRead = (caller: Caller) => (uid: string) => caller.allows(`${uid}.find`);
const fileTooBig = () => new AppError('PayloadTooLargeError', 'FileTooBig', {});
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

async function allowed(ctx: McpContext, action: string): Promise<Caller> {
  const caller = await ctx.caller();
  if (!caller.allows(action)) throw forbidden();
  return caller;
}

/** `find_files`: what `GET /api/upload/files/page` answers (`{ data, meta: { pagination } }`), pages capped as every list here is. */
export async function findFiles(ctx: McpContext, args: Args): Promise<ToolAnswer> {
  const caller = await allowed(ctx, FILE_ACTIONS.find);
  const { services } = ctx;
  const registry = services.registry();
  const raw = queryOfObject(pick(args, ['filters', 'sort', 'pagination']));
  const query = readFileQuery(raw, registry, canRead(caller));
  const pagination = pageWindowOf(raw, queryEnv(services, registry, caller).limits);
  const { items, total } = await services.uploads.reads.list(query, pagination, canRead(caller));
  return answer({ data: items, meta: { pagination: paginationMeta(pagination, total) } });
}

/** Puts the file to upload in the request's temp dir: a local path's copy (stdio only), or base64 bytes. */
async function stage(ctx: McpContext, args: Args, dir: string): Promise<{ path: string; filename: string; size: number }> {
  const { sizeLimit } = ctx.services.uploads;
  const localPath = args.path;
  const name = textArg(args, 'name', false);
  if (localPath !== undefined) {
    if (ctx.transport !== 'stdio') throw validationError('upload_file over HTTP takes name and base64 only, never a path');
    if (typeof localPath !== 'string' || localPath === '') throw validationError('path must be a string');
    const source = resolve(localPath);
    const info = await stat(source).catch(() => null);
    if (!info?.isFile()) throw notFound(`No file at ${localPath}`);
    if (info.size > sizeLimit) throw fileTooBig();
    const filename = name ?? basename(source);
    const path = join(dir, 'file');
    await copyFile(source, path);
    return { path, filename, size: info.size };
  }
  const base64 = textArg(args, 'base64', false);
  if (base64 === undefined || name === undefined || name.trim() === '') {
    throw validationError(ctx.transport === 'stdio' ? 'upload_file needs path, or name and base64' : 'upload_file needs name and base64');
  }
  if (!BASE64.test(base64)) throw validationError('base64 is not base64 text');
  if (Math.floor((base64.replace(/\s/g, '').length * 3) / 4) > sizeLimit + 2) throw fileTooBig();
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > sizeLimit) throw fileTooBig();
  if (bytes.length === 0) throw validationError('Files are empty');
  const path = join(dir, 'file');
  await writeFile(path, bytes);
  return { path, filename: basename(name.replace(/\\/g, '/')), size: bytes.length };
}

/** `upload_file`: `POST /api/upload` with one file; answers `{ data: [file] }` (REST answers the bare array). */
export async function uploadFile(ctx: McpContext, args: Args): Promise<ToolAnswer> {
  const caller = await allowed(ctx, FILE_ACTIONS.upload);
  const { uploads } = ctx.services;
  await mkdir(uploads.tmpRoot, { recursive: true });
  const dir = await mkdtemp(join(uploads.tmpRoot, `${UPLOAD_TEMP_PREFIX}${process.pid}-`));
  try {
    const file = await stage(ctx, args, dir);
    const infos = await readFileInfos(args.fileInfo, 1);
    const { ids } = await uploads.service.upload({ files: [file], infos, link: null, path: null, workDir: dir });
    const files: Record<string, unknown>[] = [];
    for (const id of ids) {
      const found = await uploads.reads.one(id, null, canRead(caller));
      if (found) files.push(found);
    }
    return writeAnswer({ data: files });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
