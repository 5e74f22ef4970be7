import type { Request } from 'express';
import { checkInput } from '../documents/index.js';
import { validationError } from '../errors/app-error.js';
import type { DocumentQuery, Pagination } from '../query/ast.js';
import { readListQuery, readOneQuery, validateQuery, type QueryEnv } from '../query/read-query.js';
import { writeQuery } from '../query/write-query.js';
import type { ContentTypeModel } from '../schema/types.js';
import { readBody } from './body.js';

/**
 * A content-API request parsed into the one document-service call it makes, in Strapi's check
 * order: the query (validated for collection types), then the body's `data`, then its keys, then
 * the strict parameters (status, locale, pagination).
 */
export type ContentCall =
  | { readonly kind: 'findMany'; readonly query: DocumentQuery; readonly pagination: Pagination }
  | { readonly kind: 'findOne'; readonly documentId: string | null; readonly query: DocumentQuery }
  | { readonly kind: 'create'; readonly data: unknown; readonly query: DocumentQuery }
  | { readonly kind: 'update'; readonly documentId: string | null; readonly data: unknown; readonly query: DocumentQuery }
  | { readonly kind: 'remove'; readonly documentId: string | null; readonly query: DocumentQuery; readonly statusGiven: boolean };

/** Where a request landed: the type, and the documentId of `/api/:plural/:documentId` (null for lists and single types). */
export interface ContentTarget {
  readonly model: ContentTypeModel;
  readonly documentId: string | null;
}

type Raw = Record<string, unknown>;
const isObjectLike = (v: unknown) => typeof v === 'object' && v !== null;
const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Strapi's check before any write: `data` must be an object (arrays pass, and fail validation later). */
async function bodyData(req: Request): Promise<unknown> {
  const body = await readBody(req);
  const data = isObjectLike(body) ? (body as Raw).data : undefined;
  if (!isObjectLike(data)) throw validationError('Missing "data" payload in the request body');
  return data;
}

/** Parses a content-API request (method already allowed for its route) into its document-service call. */
export async function parseContentCall(args: { req: Request; method: string; target: ContentTarget; raw: Raw; env: QueryEnv }): Promise<ContentCall> {
  const { req, method, raw, env } = args;
  const { model, documentId } = args.target;
  const single = model.kind === 'singleType';
  if (method === 'GET') {
    if (!single && documentId === null) return { kind: 'findMany', ...readListQuery(raw, model, env) };
    return { kind: 'findOne', documentId, query: readOneQuery(raw, model, env) };
  }
  const parts = single ? null : validateQuery(raw, model, env);
  if (method === 'DELETE') return { kind: 'remove', documentId, query: writeQuery(raw, model, env, parts), statusGiven: !isEmpty(raw.status) };
  const data = await bodyData(req);
  checkInput(data, model, env.registry, env.canRead);
  const query = writeQuery(raw, model, env, parts);
  return method === 'POST' ? { kind: 'create', data, query } : { kind: 'update', documentId, data, query };
}
