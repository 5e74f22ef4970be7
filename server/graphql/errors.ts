import type { GraphQLError } from 'graphql';
import { AppError } from '../errors/app-error.js';

/**
 * Errors as Strapi's GraphQL plugin formats them: `extensions.code` from the error class
 * (ValidationError -> BAD_USER_INPUT, Forbidden/Unauthorized -> FORBIDDEN, other Strapi errors
 * STRAPI_<NAME>, anything else INTERNAL_SERVER_ERROR) and `extensions.error` for Strapi errors.
 * Never a stack trace.
 */

type Formatted = { message: string; locations?: unknown; path?: unknown; extensions: Record<string, unknown> };

const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** A transport error (no locations, no path): `{ errors: [{ message, extensions: { code } }] }`. */
export const requestError = (message: string, code: string) => ({ errors: [{ message, extensions: { code } }] });

/** One error of a GraphQL answer; `code` for errors before execution, null to derive it from the original error. */
export function formatError(error: GraphQLError, code: string | null, log?: (message: string) => void): Formatted {
  const original = error.originalError;
  if (code !== null || !original) {
    // Apollo puts the error's own extensions (validationErrorCode) before its code.
    const own = typeof error.extensions.code === 'string' ? error.extensions.code : undefined;
    const out: Formatted = { message: error.message, extensions: { ...error.extensions, code: own ?? code ?? 'INTERNAL_SERVER_ERROR' } };
    if (error.locations) out.locations = error.locations;
    if (error.path) out.path = error.path;
    return { message: out.message, ...(out.locations ? { locations: out.locations } : {}), ...(out.path ? { path: out.path } : {}), extensions: out.extensions };
  }
  if (original instanceof AppError && original.safe && original.status < 500) {
    const forbidden = original.name === 'ForbiddenError' || original.name === 'UnauthorizedError' || original.name === 'PolicyError';
    const errorCode = forbidden ? 'FORBIDDEN' : original.name === 'ValidationError' ? 'BAD_USER_INPUT' : `STRAPI_${snake(original.name)}`;
    const name = forbidden ? 'ForbiddenError' : original.name;
    const message = forbidden ? 'Forbidden access' : original.message;
    return { message, path: error.path, extensions: { code: errorCode, error: { name, message, details: original.details ?? {} } } };
  }
  // Not a Strapi error: its message only when it is one a client may see (a field's serialisation); else logged.
  const shown = original instanceof AppError ? original.safe : original.name === 'GraphQLError' || original instanceof TypeError;
  if (!shown) log?.(`graphql: ${original.stack ?? original.message}`);
  return {
    message: shown ? error.message : 'Internal Server Error',
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}
