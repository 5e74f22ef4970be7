import { rm } from 'node:fs/promises';
import express from 'express';
import { createMediaFolders } from '../admin/media-folders.js';
import { whereUsed } from '../admin/where-used.js';
import { notFound, validationError } from '../errors/app-error.js';
import { ADMIN_DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../limits.js';
import type { FilterNode } from '../query/ast.js';
import { boundedPagination, paginationMeta } from '../query/pagination.js';
import type { Services } from '../services.js';
import { readFileInfos } from '../uploads/file-info.js';
import { readFileQuery } from '../uploads/file-query.js';
import { fieldError, idParam, objectBody, queryInteger, requiredString, type Json } from './admin-input.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { sendJson } from './respond.js';
import { appendNotices, readUploadForm } from './upload-form.js';

type Raw = Record<string, unknown>;
const everything = () => true;
const MIME_GROUPS = ['image', 'video', 'audio'] as const;

const compare = (name: string, type: 'string', operator: '$eq' | '$startsWith' | '$containsi', value: string): FilterNode => ({
  kind: 'compare',
  field: { name, type },
  operator,
  value,
});

/** `mime=image|video|audio|file`: the first three by MIME prefix, `file` everything else. */
function mimeFilter(mime: unknown): FilterNode | null {
  if (mime === undefined || mime === null || mime === '') return null;
  if (typeof mime === 'string' && (MIME_GROUPS as readonly string[]).includes(mime)) return compare('mime', 'string', '$startsWith', `${mime}/`);
  if (mime === 'file') return { kind: 'not', child: { kind: 'or', children: MIME_GROUPS.map((g) => compare('mime', 'string', '$startsWith', `${g}/`)) } };
  throw fieldError(['mime'], 'mime must be one of the following values: image, video, audio, file');
}

/** `parent`/`folder` in a body: a folder id or null. */
function folderRef(body: Json, key: string): number | null | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw fieldError([key], `${key} must be a folder id or null`);
  return value;
}

/** Media library routes the admin alone has: folders, a paged and filtered file list, moves, and where a file is used. */
export function mediaRoutes(services: Services): express.Router {
  const router = express.Router();
  const folders = createMediaFolders({ db: services.database.db, now: services.now });
  const { uploads } = services;
  const query = (req: express.Request): Raw => parseQueryString(rawQuery(req.originalUrl));

  router.get('/upload/folders', async (req, res) => {
    const parent = query(req).parent;
    const id = parent === undefined || parent === null || parent === '' ? null : idParam(parent, 'Folder');
    if (id !== null && !(await folders.get(id))) throw notFound('Folder not found');
    sendJson(res, 200, { data: await folders.list(id) });
  });
  router.get('/upload/folders/:id', async (req, res) => {
    const folder = await folders.get(idParam(req.params.id, 'Folder'));
    if (!folder) throw notFound('Folder not found');
    sendJson(res, 200, { data: folder });
  });
  router.post('/upload/folders', async (req, res) => {
    const body = await objectBody(req);
    const folder = await folders.create({ name: requiredString(body, 'name'), parent: folderRef(body, 'parent') ?? null });
    sendJson(res, 201, { data: folder });
  });
  router.put('/upload/folders/:id', async (req, res) => {
    const id = idParam(req.params.id, 'Folder');
    const body = await objectBody(req);
    if (body.name !== undefined && typeof body.name !== 'string') throw fieldError(['name'], 'name must be a `string` type');
    const parent = folderRef(body, 'parent');
    const input = { ...(typeof body.name === 'string' ? { name: body.name } : {}), ...(parent !== undefined ? { parent } : {}) };
    const folder = await folders.update(id, input);
    if (!folder) throw notFound('Folder not found');
    sendJson(res, 200, { data: folder });
  });
  router.delete('/upload/folders/:id', async (req, res) => {
    const id = idParam(req.params.id, 'Folder');
    const folder = await folders.get(id);
    if (!folder) throw notFound('Folder not found');
    for (const fileId of await folders.filesWithin(id)) await uploads.service.remove(fileId);
    await folders.removeRow(id);
    sendJson(res, 200, { data: folder });
  });

  router.get('/upload/files', async (req, res) => {
    const raw = query(req);
    const fileQuery = readFileQuery({ sort: raw.sort ?? 'createdAt:desc' }, services.registry(), everything);
    const filters: FilterNode[] = [];
    if (raw.folder === 'root') filters.push(compare('folderPath', 'string', '$eq', '/'));
    else if (raw.folder !== undefined && raw.folder !== null && raw.folder !== '') {
      const path = await folders.pathOf(idParam(raw.folder, 'Folder'));
      if (path === undefined) throw notFound('Folder not found');
      filters.push(compare('folderPath', 'string', '$eq', path));
    }
    const mime = mimeFilter(raw.mime);
    if (mime) filters.push(mime);
    if (typeof raw._q === 'string' && raw._q !== '') filters.push(compare('name', 'string', '$containsi', raw._q));
    const max = services.config.maxLimit ?? MAX_PAGE_SIZE;
    const page = queryInteger(raw.page, 'page', 1, Number.MAX_SAFE_INTEGER);
    const pageSize = queryInteger(raw.pageSize, 'pageSize', ADMIN_DEFAULT_PAGE_SIZE, max);
    const pagination = boundedPagination({ mode: 'page', start: (page - 1) * pageSize, limit: pageSize, withCount: true });
    const { items, total } = await uploads.reads.list({ ...fileQuery, filters: filters.length === 0 ? null : { kind: 'and', children: filters } }, pagination, everything);
    sendJson(res, 200, { data: items, meta: { pagination: paginationMeta(pagination, total) } });
  });

  // The media library's own upload (Strapi's admin POST /upload with fileInfo.folder): the files go
  // into ?folder=<id> or the root, where the person is looking, not into "API Uploads".
  router.post('/upload', async (req, res) => {
    const raw = query(req).folder;
    const folder = raw === undefined || raw === null || raw === '' || raw === 'root' ? null : idParam(raw, 'Folder');
    const form = await readUploadForm(req, res, { tmpRoot: uploads.tmpRoot, sizeLimit: uploads.sizeLimit });
    try {
      if (form.files.length === 0) throw validationError('Files are empty');
      const infos = await readFileInfos(form.fields.fileInfo, form.files.length);
      const { ids, notices } = await uploads.service.upload({ files: form.files, infos, link: null, path: null, workDir: form.dir, folder: { id: folder } });
      appendNotices(res, notices);
      sendJson(res, 201, await Promise.all(ids.map((id) => uploads.reads.one(id, null, everything))));
    } finally {
      await rm(form.dir, { recursive: true, force: true });
    }
  });

  router.post('/upload/files/:id/move', async (req, res) => {
    const id = idParam(req.params.id, 'File');
    const body = await objectBody(req);
    const folder = folderRef(body, 'folder');
    if (folder === undefined) throw fieldError(['folder'], 'folder is a required field (a folder id, or null for the root)');
    if (!(await folders.moveFile(id, folder))) throw notFound('File not found');
    sendJson(res, 200, { data: await uploads.reads.one(id, null, everything) });
  });

  router.get('/upload/files/:id/where-used', async (req, res) => {
    const id = idParam(req.params.id, 'File');
    if (!(await uploads.reads.one(id, null, everything))) throw notFound('File not found');
    sendJson(res, 200, { data: await whereUsed({ database: services.database, registry: services.registry(), fileId: id }) });
  });
  return router;
}

