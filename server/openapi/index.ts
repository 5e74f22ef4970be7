import type { Registry } from '../schema/registry.js';
import { contentPaths } from './content-paths.js';
import { routeSegment } from './models.js';
import type { PageLimits } from './parameters.js';
import type { PathItem } from './responses.js';
import { createSchemaSet, type JsonSchema } from './schema-set.js';
import { uploadPaths } from './upload-paths.js';
import { eventsPath } from './events-path.js';
import { usersPaths } from './users-paths.js';

export type { JsonSchema } from './schema-set.js';

/** The upload plugin's read action: the change stream sends media events to callers that have it. */
const MEDIA_FIND = 'plugin::upload.content-api.find';

/** What a document is built from: the registry of the moment and what its reader may call. */
export interface OpenApiInput {
  readonly registry: Registry;
  /** Whether the reader may call an action (`api::article.article.find`, `plugin::upload.content-api.upload`). */
  readonly canCall: (action: string) => boolean;
  /** Whether the reader came with a credential (its operations then require it). */
  readonly authenticated: boolean;
  readonly limits: PageLimits;
  /** The document's `info.version`: Hearth's own version. */
  readonly version: string;
}

/**
 * The OpenAPI 3.1 document of the content API and the upload API as one reader sees them: only
 * the operations it may call, and only the schemas those operations reach. Pure: the same input
 * gives the same document.
 */
export function buildOpenApi(input: OpenApiInput): JsonSchema {
  const { registry, canCall } = input;
  const set = createSchemaSet();
  const env = { registry, set, canCall, limits: input.limits, canRead: (uid: string) => canCall(`${uid}.find`) };
  const paths: Record<string, PathItem> = {};
  // As content-api.ts routes them: project types only, each at the segment that resolves to it.
  const served = registry.contentTypes.filter((m) => !m.builtIn && registry.routeModel(routeSegment(m)) === m);
  for (const model of served) Object.assign(paths, contentPaths(env, model));
  Object.assign(paths, uploadPaths(env));
  Object.assign(paths, usersPaths(env));
  // The change stream, for a caller it can send something: an entry type it may find, or the media library.
  if (served.some((m) => canCall(`${m.uid}.find`)) || canCall(MEDIA_FIND)) Object.assign(paths, eventsPath(set));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hearth Content API',
      version: input.version,
      description:
        "Strapi 5's REST Content API and Upload API as served by Hearth, generated from the content types at request time. It lists only the operations the caller (the public role without a token, else the token's permissions) may call.",
    },
    servers: [{ url: '/' }],
    security: input.authenticated ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }],
    tags: [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op?.tags ?? [])))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token, a users & permissions JWT, or an admin session token' } },
      schemas: set.all(),
    },
  };
}
