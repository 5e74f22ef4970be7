import { hashPassword } from '../auth/passwords.js';
import { validationError } from '../errors/app-error.js';
import type { Model, ScalarAttribute } from '../schema/types.js';
import { isValueError, storedTemporal, toBigInteger } from '../schema/values.js';

/**
 * The stored form of one validated scalar value; Strapi's conversion errors become 400s. A password
 * is hashed off the event loop, so it has no synchronous stored form: `storedScalar` hashes it.
 */
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
        // A programming error (logged, answered as the generic 500): passwords go through storedScalar.
        throw new Error(`${attr.name}: a password has no synchronous stored form (use storedScalar)`);
      default:
        return String(value);
    }
  } catch (err) {
    // Strapi names the attribute in a biginteger's message (`count must be a valid integer`), not in a date's.
    if (attr.type === 'biginteger' && isValueError(err) && err instanceof Error) throw validationError(`${attr.name} ${err.message}`);
    throw err;
  }
}

/**
 * Stored defaults of the scalar attributes of `model` that `builtIn` does not declare, as Strapi's
 * database layer fills them on create (`processData` with defaults): the extra attributes of a
 * plugin type's extension get them wherever Hearth writes its rows itself (users, roles, files).
 */
export async function extensionDefaults(model: Model, builtIn: Model): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const attr of model.attributes.values()) {
    if (builtIn.attributes.has(attr.name) || attr.kind !== 'scalar' || attr.default === undefined) continue;
    out[attr.name] = await storedScalar(attr, attr.default);
  }
  return out;
}

/** The stored form of one validated scalar value, passwords included (hashed on the thread pool, in the compact scrypt format). */
export async function storedScalar(attr: ScalarAttribute, value: unknown): Promise<unknown> {
  if (attr.type === 'password' && value !== null && value !== undefined) return hashPassword(String(value), 'compact');
  return toStorage(attr, value);
}

/** Stored values of the scalar attributes present in `data` (schema order, first bad value fails). */
export async function scalarColumns(model: Model, data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const attr of model.attributes.values()) {
    if (attr.kind !== 'scalar' || data[attr.name] === undefined) continue;
    out[attr.name] = await storedScalar(attr, data[attr.name]);
  }
  return out;
}
