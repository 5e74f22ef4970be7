import { archiveError } from './manifest.js';
import { isRecord } from '../errors/is-record.js';

/**
 * Column values as the archive stores them, the same whichever database wrote or reads them:
 * JSON numbers, strings, booleans and null as they are; what JSON cannot carry exactly goes in an
 * object whose one key names its type.
 */

/** A value as one JSON line of the archive holds it. */
export type PortableValue =
  | null
  | boolean
  | number
  | string
  | { readonly $bigint: string }
  | { readonly $blob: string }
  | { readonly $real: 'Infinity' | '-Infinity' | 'NaN' };

/** Encodes a value read from a database: integers beyond 2^53 keep every digit, blobs become base64. */
export function encodeValue(value: unknown): PortableValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    return { $real: Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity' };
  }
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $blob: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  // A driver handed over a type no database column holds: a bug, never user input.
  throw new Error(`cannot archive a value of type ${typeof value}`);
}

const BIGINT = /^-?\d{1,19}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes an archived value for a driver to bind; anything an export never writes is an invalid archive (`where` says where). */
export function decodeValue(value: unknown, where: string): null | boolean | number | string | bigint | Buffer {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
  if (isRecord(value)) {
    const [key, ...more] = Object.keys(value);
    const inner = key === undefined ? undefined : value[key];
    if (more.length === 0 && typeof inner === 'string') {
      if (key === '$bigint' && BIGINT.test(inner)) return BigInt(inner);
      if (key === '$blob' && inner.length % 4 === 0 && BASE64.test(inner)) return Buffer.from(inner, 'base64');
      if (key === '$real' && (inner === 'Infinity' || inner === '-Infinity' || inner === 'NaN')) return Number(inner);
    }
  }
  throw archiveError(`${where} is not an archived value: ${JSON.stringify(value).slice(0, 80)}`);
}
