import type { Request } from 'express';
import { AppError, fieldError, notFound } from '../errors/app-error.js';
import { readBody } from './body.js';
import { isRecord as isJson } from '../errors/is-record.js';

/** A JSON object of a request body or a part of it. */
export type Json = Record<string, unknown>;

/** A plain JSON object (not an array, not null). */
export { isJson };

/** 400 ValidationError naming one offending field (errors/app-error.ts's, re-exported for the admin routes). */
export { fieldError };

/** The request body as an object (an absent body is `{}`); anything else is a 400. */
export async function objectBody(req: Request): Promise<Json> {
  const body = await readBody(req);
  if (body === undefined) return {};
  if (!isJson(body)) throw new AppError('ValidationError', 'The request body must be a JSON object', {});
  return body;
}

/** A required non-empty string field. */
export function requiredString(body: Json, key: string, path: readonly string[] = [key]): string {
  const value = body[key];
  if (typeof value !== 'string' || value.trim() === '') throw fieldError(path, `${key} is a required field`);
  return value;
}

/** An optional string field: undefined when absent, null when null and `nullable`. */
export function optionalString(body: Json, key: string, options: { nullable?: boolean } = {}): string | null | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (value === null && options.nullable) return null;
  if (typeof value !== 'string') throw fieldError([key], `${key} must be a \`string\` type`);
  return value;
}

/** An optional boolean field. */
export function optionalBoolean(body: Json, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw fieldError([key], `${key} must be a \`boolean\` type`);
  return value;
}

/** A numeric path id (`/api-tokens/12`); anything but digits matches no record: 404 `<what> not found`. */
export function idParam(value: unknown, what: string): number {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw notFound(`${what} not found`);
  return Number(value);
}

/** A positive whole number from a query string value, or the fallback when absent. */
export function queryInteger(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = typeof raw === 'string' ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1) throw fieldError([name], `${name} must be a positive integer`);
  return Math.min(n, max);
}
