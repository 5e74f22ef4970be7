import { isRecord } from './decode';

/** One offending field of a ValidationError: `path` as the server names it. */
export interface FieldError {
  readonly path: readonly string[];
  readonly message: string;
}

/** A failed request, carrying Strapi's error envelope (`{ status, name, message, details }`). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
    readonly details: unknown,
  ) {
    super(message);
  }

  /** The per-field errors of a ValidationError (`details.errors[]`). */
  fieldErrors(): FieldError[] {
    const errors = isRecord(this.details) ? this.details.errors : undefined;
    if (!Array.isArray(errors)) return [];
    return errors.flatMap((item: unknown) => {
      if (!isRecord(item) || typeof item.message !== 'string') return [];
      const path = Array.isArray(item.path) ? item.path.map((p: unknown) => String(p)) : [];
      return [{ path, message: item.message }];
    });
  }
}

/** Reads the error envelope of a failed response body; falls back to the HTTP status text. */
export function errorFromBody(status: number, body: unknown, statusText = ''): ApiError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : null;
  if (error) {
    const name = typeof error.name === 'string' ? error.name : 'Error';
    const message = typeof error.message === 'string' ? error.message : statusText || `Request failed (${status})`;
    return new ApiError(status, name, message, error.details);
  }
  if (status === 0) return new ApiError(0, 'NetworkError', 'The server cannot be reached. Is Hearth still running?', null);
  return new ApiError(status, 'Error', statusText || `Request failed (${status})`, null);
}

/** A sentence for any thrown value, fit to show a person. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return 'Too many attempts. Wait a minute, then try again.';
    if (error.status === 404 && error.message === 'Not Found') return 'The server does not offer this (404 Not Found). Is Hearth up to date?';
    return error.message;
  }
  if (error instanceof TypeError) return 'The server cannot be reached. Is Hearth still running?';
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** Field errors keyed by their dotted path (`seo.metaTitle`, `blocks.0.text`). */
export function fieldErrorMap(error: unknown): Map<string, string> {
  const map = new Map<string, string>();
  if (!(error instanceof ApiError)) return map;
  for (const e of error.fieldErrors()) {
    const key = e.path.join('.');
    if (!map.has(key)) map.set(key, e.message);
  }
  return map;
}
