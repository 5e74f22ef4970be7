/** Every limit of Hearth in one place: change them here, never inline. */

/** qs parsing as Strapi configures it (`core/src/middlewares/query.ts`). */
export const QS_DEPTH = 20;
export const QS_ARRAY_LIMIT = 100;
export const QS_PARAMETER_LIMIT = 1000;

/** Default and maximum page size (`api.rest.defaultLimit` / `api.rest.maxLimit`). */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** Largest JSON request body, as koa-body's default `jsonLimit` (1 MB). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Largest upload accepted unless UPLOAD_SIZE_LIMIT says otherwise (200 MB). */
export const DEFAULT_UPLOAD_SIZE_LIMIT = 209_715_200;

/** Deepest populate tree accepted (levels of nested `populate`). */
export const MAX_POPULATE_DEPTH = 10;
/** Most nodes (operators and attributes) in one filters tree. */
export const MAX_FILTER_NODES = 500;
/** Longest value list for `$in`, `$notIn` and array values. */
export const MAX_FILTER_LIST = 1000;
/** Deepest nesting of a filters tree. */
export const MAX_FILTER_DEPTH = 20;

/** Prepared statements kept per connection. */
export const STATEMENT_CACHE_SIZE = 500;
/** SQLite waits this long for a lock held by another process before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Longest SQL identifier we generate (PostgreSQL's limit). */
export const MAX_IDENTIFIER_LENGTH = 63;

/** API token `lastUsedAt` is refreshed at most this often (as Strapi does: hourly). */
export const TOKEN_LAST_USED_REFRESH_MS = 60 * 60 * 1000;

/** Time a graceful shutdown waits for requests in flight. */
export const SHUTDOWN_GRACE_MS = 10_000;
