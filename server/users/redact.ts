import { AppError } from '../errors/app-error.js';
import { isRecord } from '../errors/is-record.js';

const PASSWORD_FIELDS = new Set(['password', 'passwordConfirmation', 'currentPassword']);

/**
 * Strapi echoes a rejected value in `details.errors[].value`; Hearth never echoes a password
 * (not even a rejected one) into a response body.
 */
export function withoutPasswordValues(err: AppError): AppError {
  const details = isRecord(err.details) ? err.details : {};
  if (!Array.isArray(details.errors)) return err;
  const errors = details.errors.map((e: unknown) => {
    if (!isRecord(e) || !Array.isArray(e.path) || !PASSWORD_FIELDS.has(String(e.path[0]))) return e;
    const { value: _value, ...rest } = e;
    return rest;
  });
  return new AppError(err.name, err.message, { ...details, errors });
}
