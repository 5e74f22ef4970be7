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

/** Most file parts one upload request may carry. */
export const MAX_UPLOAD_FILES = 100;
/** Most text fields (fileInfo, ref, refId, field, path, ...) one upload request may carry. */
export const MAX_UPLOAD_FIELDS = 200;
/** Largest text field of an upload form (a fileInfo JSON string): 1 MB, busboy's default. */
export const MAX_UPLOAD_FIELD_BYTES = 1024 * 1024;
/** Longest slug kept from a file name in stored names, so `<slug>_<10 hex><ext>` fits any file system. */
export const MAX_FILE_SLUG_LENGTH = 180;
/** Longest `path` folder prefix accepted for object storage. */
export const MAX_UPLOAD_PATH_LENGTH = 200;
/** Bytes read from the start of a file to recognise text, SVG and HTML that have no binary signature. */
export const TEXT_SNIFF_BYTES = 8192;
/** Largest image (width x height) sharp decodes: its default, a guard against decompression bombs. */
export const MAX_IMAGE_PIXELS = 268_402_689;
