/** Every limit of Hearth in one place: change them here, never inline. */

/** qs parsing as Strapi configures it (`core/src/middlewares/query.ts`). */
export const QS_DEPTH = 20;
export const QS_ARRAY_LIMIT = 100;
export const QS_PARAMETER_LIMIT = 1000;

/** Default and maximum page size (`api.rest.defaultLimit` / `api.rest.maxLimit`). */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/**
 * Largest start or limit of a list (`page` x `pageSize` included): beyond it a number is no longer
 * exact, and past 2^63 the database refuses it. A larger value is a 400 ValidationError.
 */
export const MAX_PAGINATION_VALUE = Number.MAX_SAFE_INTEGER;

/** Largest JSON request body, as koa-body's default `jsonLimit` (1 MB). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/**
 * Deepest nesting of arrays and objects in JSON a request carries (body, multipart `fileInfo`):
 * far above what a blocks editor writes, far below what overflows the stack of recursive code.
 */
export const MAX_JSON_DEPTH = 100;

/** Largest upload accepted unless UPLOAD_SIZE_LIMIT says otherwise (200 MB). */
export const DEFAULT_UPLOAD_SIZE_LIMIT = 209_715_200;

/** Deepest populate tree accepted (levels of nested `populate`). */
export const MAX_POPULATE_DEPTH = 10;

/**
 * Populate (REST, MCP; GraphQL's relation lists too, beside its cost limit): most entries
 * (relations, media, components, zone entries, localizations, counted across levels and every time
 * they are printed) one read may answer when the populate has a list below a relation, media or
 * localizations level, where the answer can outgrow the data (100 books x an author x its 100
 * books x ...); more is a 400 ValidationError before the answer is built. Other populates (one
 * level, components inside components) print what is stored for the page. Far above every
 * recorded Strapi transcript (the most populated entries in one answer: 6) and about 18 MB of
 * JSON (scripts/measure-populate-fanout.ts: 1,020,200 entries were 187 MB and 3.4 s, 2,020,200
 * about 1 GB of RSS).
 */
export const MAX_POPULATED_ROWS = 100_000;

/** GraphQL: deepest selection accepted (levels of nested fields, fragments expanded); deeper is a 400 BAD_USER_INPUT. */
export const MAX_GRAPHQL_DEPTH = 10;
/**
 * GraphQL: most entities one operation may return by its estimate (each list level multiplied by
 * its page size: `pagination`, else the default limit), checked before anything runs; more is a 400
 * BAD_USER_INPUT. Above every recorded Strapi transcript (the highest, 139, 8 levels over
 * categories/articles at the default page, estimates 813,775) and far below the 50-books x 10 levels
 * query that ran a test worker out of memory (about 21 million).
 */
export const MAX_GRAPHQL_COST = 1_000_000;
/**
 * GraphQL: parsed and validated documents kept by query text (graphql/document-cache.ts), as
 * Apollo's document store: most documents, and most characters of query text all together (the
 * parsed form takes some 10-20 times its text). A longer text is parsed and validated every time.
 */
export const GRAPHQL_DOCUMENT_CACHE_ENTRIES = 1000;
export const GRAPHQL_DOCUMENT_CACHE_CHARS = 1024 * 1024;
/** Most nodes (operators and attributes) in one filters tree. */
export const MAX_FILTER_NODES = 500;
/** Longest value list for `$in`, `$notIn` and array values. */
export const MAX_FILTER_LIST = 1000;
/** Deepest nesting of a filters tree. */
export const MAX_FILTER_DEPTH = 20;

/** Prepared statements kept per connection. */
export const STATEMENT_CACHE_SIZE = 500;
/** Statement shapes (SQL text compiled once, then only values bound) the compiler keeps. */
export const MAX_STATEMENT_SHAPES = 1000;
/** Write statements binding more values than this are compiled each time, not kept as a shape (long IN lists and batches rarely repeat). */
export const WRITE_SHAPE_MAX_PARAMETERS = 256;
/** SQLite waits this long for a lock held by another process before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
/** Rows SQLite samples per index when it refreshes planner statistics (PRAGMA optimize): milliseconds, not a full scan. */
export const SQLITE_ANALYSIS_LIMIT = 1000;
/** Pages up to this size are read as ids first, then rows by id (bound parameters: SQLite allows 32,766). */
export const TWO_STEP_PAGE_MAX = 1000;
/** A content-API list whose rows and total take this long to read is logged with the index that would answer it. */
export const SLOW_LIST_MS = 100;
/**
 * How often a running server that has written since refreshes stale planner statistics (SQLite
 * analyses a table only when it has none or its size changed tenfold: a no-op costs microseconds).
 */
export const OPTIMIZE_INTERVAL_MS = 60 * 1000;
/** Connections one Hearth keeps open to PostgreSQL (DATABASE_URL). */
export const PG_POOL_SIZE = 10;

/** Longest SQL identifier we generate (PostgreSQL's limit). */
export const MAX_IDENTIFIER_LENGTH = 63;

/** API token `lastUsedAt` is refreshed at most this often (as Strapi does: hourly). */
export const TOKEN_LAST_USED_REFRESH_MS = 60 * 60 * 1000;

/** Time a graceful shutdown waits for requests in flight. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Longest HEARTH_SHUTDOWN_DRAIN_MS: the time /_health answers 503 before a stopping server stops accepting. */
export const SHUTDOWN_DRAIN_MAX_MS = 5 * 60 * 1000;

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
/**
 * Largest image (width x height) Hearth decodes unless UPLOAD_MAX_IMAGE_PIXELS says otherwise:
 * 100 megapixels, above every common camera and phone photo (24-61 MP) yet far below sharp's own
 * 268 MP. A larger image is stored as received, with its width and height but without formats:
 * its file is a few hundred kB on disk and gigabytes of pixels to decode (a decompression bomb).
 */
export const DEFAULT_UPLOAD_MAX_IMAGE_PIXELS = 100_000_000;
/**
 * Memory the image steps that hold a whole decoded image may take (the validity check, Strapi's
 * quality-80 re-encode): 128 MB on a server of about 75 MB keeps one image's peak near 210 MB, under
 * 300 MB (glibc's allocator may keep freed memory between images: MALLOC_ARENA_MAX=1 stops that).
 * A larger image (a JPEG over 14 MP, a PNG over 16 MP) gets its formats from resizes that decode it
 * line by line and is stored as received (see uploads/image-plan.ts).
 */
export const IMAGE_WHOLE_IMAGE_BYTES = 128 * 1024 * 1024;
/** Images one server processes at once; other uploads wait their turn (memory is per image). */
export const IMAGE_WORK_CONCURRENCY = 1;
/** libvips worker threads per image (sharp.concurrency): each holds buffers of the image. */
export const IMAGE_THREADS = 2;

/**
 * Read threads on SQLite by default on a machine of two cores or more (documents/read-pool.ts;
 * HEARTH_READ_THREADS overrides; 0 runs every read on the server's thread).
 */
export const DEFAULT_READ_THREADS_MAX = 2;
/** The most read threads HEARTH_READ_THREADS may ask for (each holds a connection and a JS heap). */
export const READ_THREADS_MAX = 16;
/** Read threads end after this long without a statement (about 11 MB each); the next computed read starts them again (tens of ms). */
export const READ_THREADS_IDLE_MS = 60_000;

/** An admin session ends after this long without a request (renewed by use). */
export const ADMIN_SESSION_IDLE_MS = 30 * 60 * 1000;
/** An admin session ends this long after login, however busy. */
export const ADMIN_SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** A session's last use is written at most this often (one write per minute, not per request). */
export const ADMIN_SESSION_TOUCH_MS = 60 * 1000;
/** Login attempts one IP may make per window before getting 429. */
export const ADMIN_LOGIN_RATE_LIMIT = 10;
export const ADMIN_LOGIN_RATE_WINDOW_MS = 60 * 1000;
/** Admin passwords: Strapi admin's minimum, and a cap that bounds the work of hashing. */
export const ADMIN_PASSWORD_MIN_LENGTH = 8;
export const ADMIN_PASSWORD_MAX_LENGTH = 256;
/** scrypt cost parameters for admin passwords (N, r, p) and the derived key length in bytes. */
export const ADMIN_SCRYPT_COST = 16384;
export const ADMIN_SCRYPT_BLOCK_SIZE = 8;
export const ADMIN_SCRYPT_PARALLELISM = 1;
export const ADMIN_SCRYPT_KEY_BYTES = 64;
/** Page size of the content manager and media library lists when none is asked for. */
export const ADMIN_DEFAULT_PAGE_SIZE = 10;
/** Page sizes the content manager's list offers (Strapi's 10/20/50/100), and the one a list opens with until a type is set otherwise. */
export const LIST_VIEW_PAGE_SIZES: readonly number[] = [10, 20, 50, 100];
export const LIST_VIEW_DEFAULT_PAGE_SIZE = 20;
/** Most columns a content manager list may be set to show. */
export const LIST_VIEW_MAX_COLUMNS = 20;
/** Quiet time after the last change in the schemas folder before it is reloaded. */
export const SCHEMA_WATCH_DEBOUNCE_MS = 250;
/**
 * How long the registry pin's AsyncLocalStorage stays enabled after the last pinned request (not
 * a content-API one) ends: disabled, its promise hooks cost no request; toggled at each request,
 * the switch itself would cost more than the hooks.
 */
export const SCHEMA_PIN_IDLE_MS = 1000;
/**
 * Team mode (PostgreSQL): how often an instance reads the database's schema stamp, besides the
 * `hearth_schema` notification, so a change made by another instance is followed within a second
 * even when a notification was lost.
 */
export const SCHEMA_POLL_MS = 500;
/**
 * Times a request (any route) or MCP tool call refused because the schemas changed under it is run
 * again under the new ones (then the 409 is answered). Each re-run follows a schema change committed
 * during the run before, so it is bounded by the changes made meanwhile; a slow write (a password
 * hash) during a burst of builder edits can meet several.
 */
export const SCHEMA_RACE_RETRIES = 10;
/** A LISTEN connection that failed is opened again after this long. */
export const PG_LISTEN_RETRY_MS = 1000;
/** Longest folder name of the media library. */
export const MAX_FOLDER_NAME_LENGTH = 255;

/** Users & permissions, refresh mode: access-token lifetime (Strapi's `sessions.accessTokenLifespan`), in seconds. */
export const UP_ACCESS_TOKEN_LIFESPAN_S = 10 * 60;
/** A refresh token not used for this long expires (`sessions.idleRefreshTokenLifespan`), in seconds. */
export const UP_IDLE_REFRESH_LIFESPAN_S = 7 * 24 * 60 * 60;
/** A session ends this long after login however it is refreshed (`sessions.maxRefreshTokenLifespan`), in seconds. */
export const UP_MAX_REFRESH_LIFESPAN_S = 30 * 24 * 60 * 60;
/** Users & permissions, legacy-support mode: lifetime of the one JWT (`jwt.expiresIn: '30d'`), in seconds. */
export const UP_LEGACY_JWT_LIFESPAN_S = 30 * 24 * 60 * 60;
/** Login, register and password routes: requests per key and window before 429 (Strapi's `ratelimit`). */
export const UP_RATE_LIMIT_MAX = 10;
export const UP_RATE_LIMIT_WINDOW_MS = 60 * 1000;
/** Rate limits in memory (SQLite): ended windows are swept once more keys than this are held. */
export const RATE_LIMIT_MEMORY_MAX_KEYS = 10_000;
/** Rate limits in the database (PostgreSQL): ended windows are deleted once every this many hits of an instance. */
export const RATE_LIMIT_SWEEP_EVERY = 500;
/** Team mode (PostgreSQL): how often an instance writes its heartbeat, and how long one stays live without it. */
export const INSTANCE_HEARTBEAT_MS = 10 * 1000;
export const INSTANCE_STALE_MS = 30 * 1000;
/** Longest end-user password, in UTF-8 bytes (Strapi: "Password must be less than 73 bytes"). */
export const UP_PASSWORD_MAX_BYTES = 72;
/** Random bytes of a password reset code. */
export const UP_RESET_CODE_BYTES = 64;
/** Expired sessions are swept once every this many new sessions (as Strapi's session manager does). */
export const UP_SESSION_SWEEP_EVERY = 50;

/** Backup archives: most bound parameters in one INSERT of a restore (SQLite allows 32766, PostgreSQL 65535). */
export const BACKUP_MAX_INSERT_PARAMETERS = 10_000;
/** Longest JSON line (one row) an import reads; a longer one means a damaged or hostile archive. */
export const BACKUP_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Largest manifest, secrets file or schema file an import reads into memory. */
export const BACKUP_MAX_SMALL_FILE_BYTES = 16 * 1024 * 1024;
/** Export retries its snapshot when a media file its rows reference vanishes meanwhile (deleted by a running server). */
export const BACKUP_EXPORT_ATTEMPTS = 5;
/** Largest Strapi export the admin UI's "Import from Strapi" accepts as an upload (4 GB); the CLI reads any size. */
export const STRAPI_ARCHIVE_UPLOAD_LIMIT = 4 * 1024 * 1024 * 1024;
/** An inspected Strapi archive is kept in `<data>/tmp/strapi-archive` this long (a day) unless discarded; the next inspect removes older ones. */
export const STRAPI_ARCHIVE_KEEP_MS = 24 * 60 * 60 * 1000;

/** Bytes of serialised GET answers the response cache may hold. */
export const RESPONSE_CACHE_MAX_BYTES = 32 * 1024 * 1024;
/** Larger answers are computed every time rather than cached. */
export const RESPONSE_CACHE_MAX_ENTRY_BYTES = 2 * 1024 * 1024;
/** How long a resolved credential is trusted without a write in between (see auth/caller-memo.ts). */
export const CALLER_MEMO_TTL_MS = 1000;
/** Distinct credentials remembered at once; past this the memo starts over. */
export const CALLER_MEMO_MAX_ENTRIES = 1000;
/** Largest WebSocket message a `strapi transfer` client may send (a push batch); larger closes the socket. */
export const TRANSFER_MAX_MESSAGE_BYTES = 100 * 1024 * 1024;
/** A pull batch of entities, links or configuration is sent once its JSON passes this size (Strapi's pull handler: 1 MB). */
export const TRANSFER_BATCH_MAX_BYTES = 1024 * 1024;
/** Bytes of a file per `stream` chunk of a pulled asset (a file read stream's default chunk). */
export const TRANSFER_ASSET_CHUNK_BYTES = 64 * 1024;

/** Document writes: most bound parameters in one batched statement (an `IN` list or a multi-row INSERT). */
export const WRITE_MAX_STATEMENT_PARAMETERS = 10_000;
/** Terms of one compound SELECT (UNION ALL) of the write path: SQLite refuses more than 500 (SQLITE_MAX_COMPOUND_SELECT). */
export const WRITE_MAX_COMPOUND_TERMS = 500;

/** MCP (`hearth mcp`, `/mcp`): most documents or files one tool call answers; a larger pageSize/limit is capped, and meta.pagination says how to ask for the next page. */
export const MCP_MAX_PAGE_SIZE = 50;
/** MCP: most bytes of one tool answer's JSON; a larger answer is refused with a 400 that asks for fewer fields, a smaller page or less populate. */
export const MCP_MAX_RESULT_BYTES = 512 * 1024;
/** MCP over HTTP: most bytes of one JSON-RPC request (an `upload_file` carries base64, about 4/3 of the file). */
export const MCP_MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** A webhook delivery that has no answer after this long is aborted (Strapi's AbortSignal.timeout(10000)) and retried. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Attempts of one delivery (network error, timeout or non-2xx each use one) before it is marked failed. */
export const WEBHOOK_MAX_ATTEMPTS = 10;
/** Wait before the second attempt; each later one waits twice the previous (exponential backoff). */
export const WEBHOOK_RETRY_BASE_MS = 1000;
/** Longest wait between two attempts of a delivery. */
export const WEBHOOK_RETRY_MAX_MS = 10 * 60 * 1000;
/** Deliveries a webhook's log (`GET /admin/api/webhooks/:id/deliveries`) lists, newest first. */
export const WEBHOOK_DELIVERY_LOG_LIMIT = 100;
/** Characters of a receiver's answer kept as a delivery's error or a trigger's `message`. */
export const WEBHOOK_MESSAGE_MAX_CHARS = 1000;
/** MCP over HTTP: open sessions at once; past this the least recently used one is closed. */
export const MCP_MAX_SESSIONS = 64;
/** Delivered, failed and skipped webhook deliveries (and events left without any) are deleted once this old (7 days). */
export const WEBHOOK_DELIVERY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** How often the server deletes webhook deliveries past WEBHOOK_DELIVERY_RETENTION_MS (and once at start). */
export const WEBHOOK_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** A server sending a delivery holds it this long (its timeout and a second); another server sharing the database sends it only after. */
export const WEBHOOK_LEASE_MS = WEBHOOK_TIMEOUT_MS + 1000;
/** Deliveries of one webhook the dispatcher reads, claims and settles with one statement each (sent one at a time, in order, within WEBHOOK_LEASE_MS - WEBHOOK_TIMEOUT_MS of the claim). */
export const WEBHOOK_BATCH_SIZE = 64;
/** The webhook send thread (webhooks/send-thread.ts) ends after this long without a send; the next send starts it again. */
export const WEBHOOK_THREAD_IDLE_MS = 60_000;

/** The change stream (`GET /hearth/events`) resumes from events this recent (24 h); older: a `reset` event. */
export const EVENT_STREAM_RETENTION_MS = 24 * 60 * 60 * 1000;
/** ... and keeps at most this many of them (the oldest go first). */
export const EVENT_STREAM_MAX_EVENTS = 10_000;
/** A comment line is sent this often on an idle stream, so proxies do not close it. */
export const EVENT_STREAM_HEARTBEAT_MS = 15_000;
/** How often open streams look for events another process (a CLI command, another instance) committed. */
export const EVENT_STREAM_POLL_MS = 250;
/** Events one stream reads from the table at a time. */
export const EVENT_STREAM_PAGE_SIZE = 100;
/** A stream whose unsent output passes this many bytes waits for the reader; past EVENT_STREAM_STALL_MS it is dropped. */
export const EVENT_STREAM_MAX_BUFFERED_BYTES = 1024 * 1024;
/** A stream whose reader has not taken its output for this long while events wait is dropped (it resumes with Last-Event-ID). */
export const EVENT_STREAM_STALL_MS = 30_000;
/** Streams one server keeps open at once; one more is answered 429. */
export const EVENT_STREAM_MAX_CONNECTIONS = 100;
/** How often old stream events are deleted (and once per resume). */
export const EVENT_STREAM_PRUNE_INTERVAL_MS = 60 * 1000;
