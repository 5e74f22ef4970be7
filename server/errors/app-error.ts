/** Strapi's error names, each answered with a fixed HTTP status. */
export type ErrorName =
  | 'ApplicationError'
  | 'ValidationError'
  | 'PaginationError'
  | 'SyntaxError'
  | 'BadRequestError'
  | 'UnauthorizedError'
  | 'ForbiddenError'
  | 'PolicyError'
  | 'NotFoundError'
  | 'ConflictError'
  | 'PayloadTooLargeError'
  | 'RateLimitError'
  | 'NotImplementedError'
  | 'InternalServerError';

const STATUS: Record<ErrorName, number> = {
  ApplicationError: 400,
  ValidationError: 400,
  PaginationError: 400,
  SyntaxError: 400,
  BadRequestError: 400,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  PolicyError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  PayloadTooLargeError: 413,
  RateLimitError: 429,
  NotImplementedError: 501,
  InternalServerError: 500,
};

/** The error envelope every failed request answers with. */
export interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details?: unknown };
}

/**
 * The one error class of Hearth: its `name` says which Strapi error it is and decides the status.
 * `details` is omitted from the body when undefined (Strapi omits it for SyntaxError and 500s).
 */
export class AppError extends Error {
  override readonly name: ErrorName;
  readonly status: number;
  readonly details: unknown;

  constructor(name: ErrorName, message: string, details?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = name;
    this.status = STATUS[name];
    this.details = details;
  }

  /** The JSON body Strapi sends for this error. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { status: this.status, name: this.name, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { data: null, error };
  }
}

/** 400 ValidationError with Strapi's `details` (an empty object unless given). */
export const validationError = (message: string, details: unknown = {}): AppError =>
  new AppError('ValidationError', message, details);

/** 400 ValidationError `Invalid key <k>` / `Invalid key <k> at <path>` as Strapi's validators throw it. */
export function invalidKey(args: {
  key: string;
  path: string | null;
  source: 'query' | 'body';
  param?: string;
  omitPath?: boolean;
  /** Appended to the message after a colon, as Strapi does for root-only parameters. */
  reason?: string;
}): AppError {
  const { key, path, source, param } = args;
  const location = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  const message = args.reason ? `${location}: ${args.reason}` : location;
  const details: Record<string, unknown> = { key };
  if (!args.omitPath) details.path = path;
  details.source = source;
  if (param !== undefined) details.param = param;
  return new AppError('ValidationError', message, details);
}

export const notFound = (message = 'Not Found', details: unknown = {}): AppError =>
  new AppError('NotFoundError', message, details);
export const forbidden = (message = 'Forbidden', details: unknown = {}): AppError =>
  new AppError('ForbiddenError', message, details);
export const unauthorized = (message = 'Missing or invalid credentials', details: unknown = {}): AppError =>
  new AppError('UnauthorizedError', message, details);
export const paginationError = (message: string): AppError => new AppError('PaginationError', message, {});
export const applicationError = (message: string, details: unknown = {}): AppError =>
  new AppError('ApplicationError', message, details);
