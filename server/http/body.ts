import type { Request } from 'express';
import { AppError } from '../errors/app-error.js';
import { MAX_JSON_BODY_BYTES } from '../limits.js';
import { assertJsonDepth } from './json-depth.js';
import { parseQueryString } from './query-string.js';

const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');

async function readText(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new AppError('PayloadTooLargeError', 'request entity too large');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) {
      req.resume();
      throw new AppError('PayloadTooLargeError', 'request entity too large');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * qs's null-prototype objects rebuilt as ordinary ones, as JSON.parse makes them (keys such as
 * `__proto__` stay own data properties): the document service coerces body values with String()
 * and yup, which throw a TypeError (a 500) on an object without a prototype.
 */
function ordinary(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordinary);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ordinary(v)]));
}

/** Body texts already read: a content-API call run again after a schema change (content-api.ts) reads its body again. */
const bodyTexts = new WeakMap<Request, Promise<string>>();

function bodyText(req: Request): Promise<string> {
  let text = bodyTexts.get(req);
  if (text === undefined) {
    text = readText(req, MAX_JSON_BODY_BYTES);
    bodyTexts.set(req, text);
  }
  return text;
}

/**
 * Reads a JSON (or urlencoded) body as koa-body does for Strapi: other content types leave the
 * body empty; malformed JSON is a 400 `SyntaxError` whose message is the parser's, and JSON
 * nested past MAX_JSON_DEPTH a 400 `ValidationError` (checked on the text, before parsing).
 */
export async function readBody(req: Request): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (isJsonType(type)) {
    const text = await bodyText(req);
    if (text.trim() === '') return undefined;
    assertJsonDepth(text, 'The request body');
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new AppError('SyntaxError', (err as Error).message);
    }
  }
  if (type === 'application/x-www-form-urlencoded') return ordinary(parseQueryString(await bodyText(req)));
  req.resume();
  return undefined;
}
