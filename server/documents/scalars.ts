import { scryptSync, randomBytes } from 'node:crypto';
import { validationError } from '../errors/app-error.js';
import type { Model, ScalarAttribute } from '../schema/types.js';
import { storedTemporal, toBigInteger, ValueError } from '../schema/values.js';

/** Passwords are stored as scrypt hashes and never returned. */
export function hashPassword(plain: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(plain, salt, 64);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** The stored form of one validated scalar value; Strapi's conversion errors become 400s. */
export function toStorage(attr: ScalarAttribute, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  try {
    switch (attr.type) {
      case 'integer':
      case 'float':
      case 'decimal':
        return typeof value === 'number' ? value : Number(value);
      case 'biginteger':
        return toBigInteger(value);
      case 'boolean':
        return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
      case 'date':
      case 'time':
      case 'datetime':
      case 'timestamp':
        return storedTemporal(attr.type, value);
      case 'json':
      case 'blocks':
        return JSON.stringify(value);
      case 'password':
        return hashPassword(String(value));
      default:
        return String(value);
    }
  } catch (err) {
    if (err instanceof ValueError) {
      throw attr.type === 'biginteger'
        ? validationError(`${attr.name} ${err.message}`)
        : validationError(err.message);
    }
    throw err;
  }
}

/**
 * Stored defaults of the scalar attributes of `model` that `builtIn` does not declare, as Strapi's
 * database layer fills them on create (`processData` with defaults): the extra attributes of a
 * plugin type's extension get them wherever Hearth writes its rows itself (users, roles, files).
 */
export function extensionDefaults(model: Model, builtIn: Model): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const attr of model.attributes.values()) {
    if (builtIn.attributes.has(attr.name) || attr.kind !== 'scalar' || attr.default === undefined) continue;
    out[attr.name] = toStorage(attr, attr.default);
  }
  return out;
}

/** Stored values of the scalar attributes present in `data` (schema order, first bad value fails). */
export function scalarColumns(model: Model, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const attr of model.attributes.values()) {
    if (attr.kind !== 'scalar' || data[attr.name] === undefined) continue;
    out[attr.name] = toStorage(attr, data[attr.name]);
  }
  return out;
}
