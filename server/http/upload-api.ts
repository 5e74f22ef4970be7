import { rm } from 'node:fs/promises';
import express, { type Request, type Response } from 'express';
import { notFound, validationError } from '../errors/app-error.js';
import { paginationMeta } from '../query/pagination.js';
import type { Services } from '../services.js';
import { readFileInfos, readLink, singleField } from '../uploads/file-info.js';
import { listWindow, pageWindowOf, readFileQuery } from '../uploads/file-query.js';
import { readBody } from './body.js';
import { authenticate, authorize, type Caller } from './caller.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { methodNotAllowed, sendError, sendJson } from './respond.js';
import { appendNotices, readUploadForm, type UploadForm } from './upload-form.js';
import { isRecord } from '../errors/is-record.js';

/** The upload plugin's Content API actions (`plugin::upload.content-api.*`). */
const ACTION = {
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  upload: 'plugin::upload.content-api.upload',
  destroy: 'plugin::upload.content-api.destroy',
} as const;

type Raw = Record<string, unknown>;
/** A response computed before the request's temp files are removed. */
interface Outcome {
  readonly status: number;
  readonly body: unknown;
  /** What image processing left out (an image over UPLOAD_MAX_IMAGE_PIXELS...): one `Hearth-Notice` header each. */
  readonly notices?: readonly string[];
}
const isNil = (v: unknown) => v === undefined || v === null || v === '';
const fileNotFound = () => notFound('file.notFound');
const isMultipart = (req: Request) => /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');

/** A path id: digits only, else no file can match (`/files/abc` is a 404, as in Strapi). */
const pathId = (value: unknown): number => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN);

/** `?id=`: one value (Strapi's check), looked up as a number (so `abc` finds nothing: 404). */
function queryId(raw: Raw): number | null {
  const id = raw.id;
  if (isNil(id)) return null;
  if (typeof id !== 'string') throw validationError('File id is required and must be a single value');
  return /^\d+$/.test(id) ? Number(id) : Number.NaN;
}

/** Answers OPTIONS with the route's methods and other methods with a 405, as the content API does. */
const only = (allow: readonly string[]) => (req: Request, res: Response) => {
  if (req.method === 'OPTIONS') {
    res.status(200).set('Allow', allow.join(', ')).end();
    return;
  }
  methodNotAllowed(res, allow);
};

/**
 * The upload plugin's Content API under `/api/upload`: upload, replace, update file info, list
 * (bare array), paginated list, read and delete files, with Strapi's statuses and bodies. Every
 * route authenticates and checks its permission before it reads a byte of the body.
 */
export function uploadApi(services: Services): express.Router {
  const router = express.Router();
  const { uploads } = services;
  const canRead = (caller: Caller) => (uid: string) => caller.allows(`${uid}.find`);
  const query = (req: Request) => parseQueryString(rawQuery(req.originalUrl));

  async function caller(req: Request, action: string): Promise<Caller> {
    const who = await authenticate(req, services);
    authorize(who, action);
    return who;
  }

  /** Files re-read as stored, for the response. */
  async function filesOf(ids: readonly number[], who: Caller): Promise<Record<string, unknown>[]> {
    const files: Record<string, unknown>[] = [];
    for (const id of ids) {
      const file = await uploads.reads.one(id, null, canRead(who));
      if (!file) throw fileNotFound();
      files.push(file);
    }
    return files;
  }

  async function updateInfo(id: number, fields: Raw, who: Caller): Promise<Outcome> {
    const [info = {}] = await readFileInfos(fields.fileInfo, 1);
    await uploads.service.updateInfo(id, info);
    return { status: 200, body: (await filesOf([id], who))[0] };
  }

  /** Upload (201, bare array), replace or update file info (200, bare object), in Strapi's order of checks. */
  async function handleForm(form: UploadForm, id: number | null, who: Caller): Promise<Outcome> {
    const { files, fields } = form;
    if (files.length === 0 || (files.length === 1 && files[0]?.size === 0)) {
      if (id === null) throw validationError('Files are empty');
      return updateInfo(id, fields, who);
    }
    if (id !== null) {
      const [file] = files;
      if (files.length > 1 || !file) throw validationError('Cannot replace a file with multiple ones');
      const [info = {}] = await readFileInfos(fields.fileInfo, 1);
      const notices = await uploads.service.replace({ id, file, info, workDir: form.dir });
      return { status: 200, body: (await filesOf([id], who))[0], notices };
    }
    const infos = await readFileInfos(fields.fileInfo, files.length);
    const { ids, notices } = await uploads.service.upload({ files, infos, link: readLink(fields), path: singleField(fields, 'path'), workDir: form.dir });
    return { status: 201, body: await filesOf(ids, who), notices };
  }

  router.post('/', async (req, res) => {
    const who = await caller(req, ACTION.upload);
    const id = queryId(query(req));
    if (!isMultipart(req)) {
      const body = await readBody(req);
      if (id === null) throw validationError('Files are empty');
      const outcome = await updateInfo(id, isRecord(body) ? body : {}, who);
      sendJson(res, outcome.status, outcome.body);
      return;
    }
    const form = await readUploadForm(req, res, { tmpRoot: uploads.tmpRoot, sizeLimit: uploads.sizeLimit });
    let outcome: Outcome;
    try {
      outcome = await handleForm(form, id, who);
    } finally {
      // Gone before the client hears back, success or not.
      await rm(form.dir, { recursive: true, force: true });
    }
    appendNotices(res, outcome.notices ?? []);
    sendJson(res, outcome.status, outcome.body);
  });
  router.all('/', only(['POST']));

  router.get('/files', async (req, res) => {
    const who = await caller(req, ACTION.find);
    const raw = query(req);
    const fileQuery = readFileQuery(raw, services.registry(), canRead(who));
    const { items } = await uploads.reads.list(fileQuery, listWindow(raw), canRead(who));
    sendJson(res, 200, items);
  });
  router.all('/files', only(['HEAD', 'GET']));

  router.get('/files/page', async (req, res) => {
    const who = await caller(req, ACTION.find);
    const raw = query(req);
    const fileQuery = readFileQuery(raw, services.registry(), canRead(who));
    const { config } = services;
    const pagination = pageWindowOf(raw, { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit });
    const { items, total } = await uploads.reads.list(fileQuery, pagination, canRead(who));
    sendJson(res, 200, { data: items, meta: { pagination: paginationMeta(pagination, total) } });
  });

  router.get('/files/:id', async (req, res) => {
    const who = await caller(req, ACTION.findOne);
    const fileQuery = readFileQuery(query(req), services.registry(), canRead(who));
    const file = await uploads.reads.one(pathId(req.params.id), fileQuery.related, canRead(who));
    if (!file) throw fileNotFound();
    sendJson(res, 200, file);
  });

  router.delete('/files/:id', async (req, res) => {
    const who = await caller(req, ACTION.destroy);
    const id = pathId(req.params.id);
    const file = await uploads.reads.one(id, null, canRead(who));
    if (!file || !(await uploads.service.remove(id))) throw fileNotFound();
    sendJson(res, 200, file);
  });
  router.all('/files/:id', only(['HEAD', 'GET', 'DELETE']));

  // Express refuses an `:id` that is not valid percent-encoding with a URIError (a 500 by default);
  // koa-router keeps the raw text, so Strapi looks that id up and finds no file.
  router.use((err: unknown, _req: Request, res: Response, next: (err?: unknown) => void) => {
    if (err instanceof URIError) sendError(res, fileNotFound());
    else next(err);
  });

  return router;
}
