import { AppError } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import { unknownActions } from './actions.js';
import { isRecord } from '../errors/is-record.js';

/** A role as written by the admin API: every field optional on update. */
export interface RoleInput {
  readonly name?: string;
  readonly description?: string;
  readonly permissions?: readonly string[];
}

interface FieldError {
  readonly path: (string | number)[];
  readonly message: string;
  readonly name: 'ValidationError';
}

const MIN_NAME_LENGTH = 3;

/** 400 ValidationError naming each offending field, as the admin API answers bad input. */
export function invalidFields(errors: readonly FieldError[]): AppError {
  const first = errors[0]?.message ?? 'Invalid input';
  return new AppError('ValidationError', errors.length > 1 ? `${errors.length} errors occurred` : first, { errors });
}

const fieldError = (path: (string | number)[], message: string): FieldError => ({ path, message, name: 'ValidationError' });

/**
 * A role's type from its name, as Strapi derives it (`_.snakeCase(_.deburr(_.toLower(name)))`):
 * `Éditeurs en chef` -> `editeurs_en_chef`.
 */
export function roleTypeOf(name: string): string {
  const plain = name.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const words = plain.match(/[a-z]+|[0-9]+/g) ?? [];
  return words.join('_');
}

function checkPermissions(value: unknown, registry: Registry, errors: FieldError[]): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((a): a is string => typeof a === 'string')) {
    errors.push(fieldError(['permissions'], 'permissions must be a list of action names'));
    return undefined;
  }
  const unknown = unknownActions(registry, value);
  for (const action of unknown) errors.push(fieldError(['permissions', value.indexOf(action)], `Unknown action: ${action}`));
  return value;
}

/** Checks a role body; `creating` makes `name` required. Unknown action names are refused, each named. */
export function readRoleInput(body: unknown, registry: Registry, creating: boolean): RoleInput {
  if (!isRecord(body)) throw invalidFields([fieldError([], 'The body must be a JSON object')]);
  const errors: FieldError[] = [];
  const { name, description } = body;
  if (name === undefined || name === null) {
    if (creating) errors.push(fieldError(['name'], 'name is a required field'));
  } else if (typeof name !== 'string') {
    errors.push(fieldError(['name'], 'name must be a `string` type'));
  } else if (name.trim().length < MIN_NAME_LENGTH) {
    errors.push(fieldError(['name'], `name must be at least ${MIN_NAME_LENGTH} characters`));
  } else if (roleTypeOf(name) === '') {
    errors.push(fieldError(['name'], 'name must contain a letter or a digit'));
  }
  if (description !== undefined && description !== null && typeof description !== 'string') {
    errors.push(fieldError(['description'], 'description must be a `string` type'));
  }
  const permissions = checkPermissions(body.permissions, registry, errors);
  if (errors.length > 0) throw invalidFields(errors);
  return {
    ...(typeof name === 'string' ? { name: name.trim() } : {}),
    ...(typeof description === 'string' ? { description } : description === null ? { description: '' } : {}),
    ...(permissions ? { permissions } : {}),
  };
}
