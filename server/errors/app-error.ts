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
  | 'InternalServerError'
  // Hearth's own, for the operator (the CLI and start-up), never a client: not safe to show by default.
  | 'UsageError'
  | 'ConfigError'
  | 'ListenError'
  | 'SchemaError'
  // Strapi's transfer protocol's (answered over its WebSocket as `{ code, message, details }`, never as an HTTP body).
  | 'TransferError'
  | 'ProviderTransferError'
  | 'ProviderValidationError';

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
  UsageError: 500,
  ConfigError: 500,
  ListenError: 500,
  SchemaError: 500,
  TransferError: 500,
  ProviderTransferError: 500,
  ProviderValidationError: 500,
};

/** The names whose message is for the operator only: the CLI prints them; an HTTP client would get the generic 500. */
const OPERATOR_NAMES: ReadonlySet<ErrorName> = new Set([
  'UsageError',
  'ConfigError',
  'ListenError',
  'SchemaError',
  'TransferError',
  'ProviderTransferError',
  'ProviderValidationError',
]);

/** The error envelope every failed request answers with. */
export interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details?: unknown };
}

/**
 * The one error class of Hearth: its `name` says which Strapi error it is and decides the status.
 * `details` is omitted from the body when undefined (Strapi omits it for SyntaxError and 500s).
 * `safe` says whether a client may see it: the error handler answers an unsafe one with the
 * generic 500 and logs it (with its `cause`). Field paths travel as data in `details.errors[].path`.
 */
export class AppError extends Error {
  override readonly name: ErrorName;
  readonly status: number;
  readonly details: unknown;
  readonly safe: boolean;

  constructor(name: ErrorName, message: string, details?: unknown, options?: { cause?: unknown; safe?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.status = STATUS[name];
    this.details = details;
    this.safe = options?.safe ?? !OPERATOR_NAMES.has(name);
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

/** 400 ValidationError naming one offending field, in Strapi's `details.errors` shape (the path is data, never parsed back from the message). */
export function fieldError(path: readonly string[], message: string): AppError {
  return new AppError('ValidationError', message, { errors: [{ path: [...path], message, name: 'ValidationError' }] });
}

/** A mistake in how a `hearth` command was called: the CLI prints the message and exits 2. */
export const usageError = (message: string): AppError => new AppError('UsageError', message);
/** A setting Hearth cannot use: exit code 2, like any usage error. */
export const configError = (message: string): AppError => new AppError('ConfigError', message);
/** The port is taken (or the address unusable): the CLI exits 1 with this one-line reason. */
export const listenError = (message: string, cause?: unknown): AppError => new AppError('ListenError', message, undefined, { cause });

/** Whether `err` is Hearth's error of that name. */
export const isAppError = (err: unknown, name?: ErrorName): err is AppError => err instanceof AppError && (name === undefined || err.name === name);
