import type { NextFunction, Request, Response } from 'express';
import {
  execute, getOperationAST, GraphQLError, specifiedRules, type ExecutionResult, type GraphQLSchema, type ValidationContext, type ASTVisitor,
} from 'graphql';
import type { Caller } from '../auth/caller.js';
import type { DocumentService } from '../documents/index.js';
import type { PaginationLimits } from '../query/pagination.js';
import type { Registry } from '../schema/registry.js';
import { GRAPHQL_DOCUMENT_CACHE_CHARS, GRAPHQL_DOCUMENT_CACHE_ENTRIES, MAX_GRAPHQL_COST, MAX_GRAPHQL_DEPTH } from '../limits.js';
import { costError } from './cost.js';
import { maxDepthRule } from './depth.js';
import { createDocumentCache } from './document-cache.js';
import type { Prefetched } from './direct.js';
import { executePlain, planOf } from './plain-execute.js';
import { AppError } from '../errors/app-error.js';
import { formatError, requestError } from './errors.js';
import { createRelationLoader } from './loader.js';
import type { MeDeps } from './me.js';
import type { PluginContext, PluginDeps } from './plugin-deps.js';
import type { PopulateScope } from './populate.js';
import { accessOf, envOf, windowOf, type GraphqlContext } from './resolve.js';
import { buildGraphqlSchema } from './schema.js';

/**
 * `POST /graphql` and `GET /graphql` (queries only) with Apollo Server 4's transport rules as
 * Strapi 5 runs it: CSRF prevention, batching off, 400 for parse/validation/variable errors, 200
 * with `errors` + `data` for resolver errors. Authentication runs first, as Strapi's middleware
 * does (an invalid bearer is REST's 401 envelope).
 */
export interface GraphqlRouteDeps {
  readonly registry: () => Registry;
  readonly documents: DocumentService;
  readonly limits: PaginationLimits;
  /** The configured locale codes (the `I18NLocaleCode` scalar accepts these and `*`). */
  readonly localeCodes: () => Promise<readonly string[]>;
  /** The caller's permission check; throws the REST 401 for a bad bearer. */
  readonly authenticate: (req: Request) => Promise<Caller>;
  /** The upload, users & permissions and locale services of the plugin mutations and `i18NLocales` (plugin-deps.ts). */
  readonly plugins: PluginDeps;
  /** Reads the signed-in user for `me` (users-permissions). */
  readonly me: MeDeps;
  /** The JSON body (REST's reader: its 400 SyntaxError and 413). */
  readonly readBody: (req: Request) => Promise<unknown>;
  /** False: introspection refused (`GRAPHQL_INTROSPECTION=false` or production). */
  readonly introspection: boolean;
  readonly log: (message: string) => void;
  /**
   * Team mode: the schema race among a result's errors when the operation is to run again under
   * newer schemas (nothing of it written: http/schema-race.ts); thrown, the route's wrapper runs it again.
   */
  readonly schemaRace?: (req: Request, errors: readonly GraphQLError[]) => Promise<unknown>;
}

const CSRF_MESSAGE =
  "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header (with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n";
const SIMPLE_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** Apollo's CSRF prevention: a request a browser could send without a preflight is refused. */
function preflighted(req: Request): boolean {
  if (req.headers['x-apollo-operation-name'] || req.headers['apollo-require-preflight']) return true;
  const type = req.headers['content-type'];
  if (type === undefined) return false;
  return !SIMPLE_TYPES.has(type.split(';')[0]?.trim().toLowerCase() ?? '');
}

/** Apollo Server's rule when introspection is off: `__schema` or `__type` anywhere is a validation error. */
function noIntrospection(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return;
      context.reportError(
        new GraphQLError(
          'GraphQL introspection is not allowed by Apollo Server, but the query contained __schema or __type. To enable introspection, pass introspection: true to ApolloServer in production',
          { nodes: [node], extensions: { validationErrorCode: 'INTROSPECTION_DISABLED' } },
        ),
      );
    },
  };
}

type Params = { query?: unknown; variables?: unknown; operationName?: unknown };

function send(res: Response, status: number, body: unknown): void {
  res.status(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export function graphqlRoute(deps: GraphqlRouteDeps) {
  const schemas = new WeakMap<Registry, GraphQLSchema>();
  let codes: ReadonlySet<string> = new Set();
  const schemaOf = (registry: Registry): GraphQLSchema => {
    let schema = schemas.get(registry);
    if (!schema) {
      schema = buildGraphqlSchema({ registry, localeCodes: () => codes });
      schemas.set(registry, schema);
    }
    return schema;
  };
  const rules = [...specifiedRules, maxDepthRule(MAX_GRAPHQL_DEPTH), ...(deps.introspection ? [] : [noIntrospection])];
  const documents = createDocumentCache({ rules, limits: { entries: GRAPHQL_DOCUMENT_CACHE_ENTRIES, chars: GRAPHQL_DOCUMENT_CACHE_CHARS } });

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      if (req.method !== 'GET' && req.method !== 'POST') {
        res.status(405).set('Allow', 'GET, POST').end();
        return;
      }
      const caller = await deps.authenticate(req);
      if (!preflighted(req)) return send(res, 400, requestError(CSRF_MESSAGE, 'BAD_REQUEST'));
      let params: Params;
      if (req.method === 'GET') {
        const url = new URL(req.originalUrl, 'http://localhost');
        const variables = url.searchParams.get('variables');
        let parsed: unknown;
        try {
          parsed = variables ? (JSON.parse(variables) as unknown) : undefined;
        } catch {
          return send(res, 400, requestError('The variables search parameter contains invalid JSON.', 'BAD_REQUEST'));
        }
        params = { query: url.searchParams.get('query') ?? undefined, operationName: url.searchParams.get('operationName') ?? undefined, variables: parsed };
      } else {
        const body = await deps.readBody(req);
        if (Array.isArray(body)) return send(res, 400, requestError('Operation batching disabled.', 'BAD_REQUEST'));
        if (typeof body !== 'object' || body === null || Object.keys(body).length === 0) {
          return send(res, 400, requestError('POST body missing, invalid Content-Type, or JSON object has no keys.', 'BAD_REQUEST'));
        }
        params = body as Params;
      }
      if (typeof params.query !== 'string' || params.query === '') {
        return send(res, 400, requestError('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.', 'BAD_REQUEST'));
      }
      const parsed = documents.parse(params.query);
      if (parsed.kind === 'syntax') return send(res, 400, { errors: [formatError(parsed.error, 'GRAPHQL_PARSE_FAILED')] });
      const listed = await deps.localeCodes();
      codes = new Set(listed);
      const registry = deps.registry();
      const schema = schemaOf(registry);
      const checked = documents.validate(schema, listed, parsed);
      if (checked.kind === 'invalid') return send(res, 400, { errors: checked.errors.map((e) => formatError(e, 'GRAPHQL_VALIDATION_FAILED')) });
      const { document, memo } = checked;
      const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
      const operation = getOperationAST(document, operationName);
      if (!operation) {
        const message = operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.';
        return send(res, 400, requestError(message, 'OPERATION_RESOLUTION_FAILURE'));
      }
      if (req.method === 'GET' && operation.operation !== 'query') {
        res.set('Allow', 'POST');
        return send(res, 405, requestError(`GET requests only support query operations, not ${operation.operation} operations`, 'BAD_REQUEST'));
      }
      const variableValues = typeof params.variables === 'object' && params.variables !== null ? (params.variables as Record<string, unknown>) : undefined;
      // An operation without variables costs the same every time: costed once per kept document.
      const costKey = (operation.variableDefinitions?.length ?? 0) === 0 ? `cost:${operation.name?.value ?? ''}` : null;
      const known = costKey === null ? undefined : (memo.get(costKey) as GraphQLError | null | undefined);
      const tooCostly = known !== undefined ? known : costError({ schema, document, operation, variables: variableValues, limits: deps.limits, max: MAX_GRAPHQL_COST });
      if (costKey !== null && known === undefined) memo.set(costKey, tooCostly);
      if (tooCostly) return send(res, 400, { errors: [formatError(tooCostly, 'BAD_USER_INPUT')] });
      const base = { allows: (action: string) => caller.allows(action), registry, limits: deps.limits };
      const scope: PopulateScope = { registry, limits: deps.limits, populated: new WeakSet(), window: (p) => windowOf(p, deps.limits) };
      const loader = createRelationLoader({ documents: deps.documents, env: envOf(base), scope, access: accessOf(base) });
      const plugins: PluginContext = { ...deps.plugins, req, res, caller };
      const prefetched = new Map<string, Prefetched>();
      const context: GraphqlContext & { plugins: PluginContext } = { ...base, caller: { kind: caller.kind, id: caller.id }, me: deps.me, documents: deps.documents, scope, loader, plugins, prefetched };
      // A query of the plain shape runs on plain-execute.ts (planned once per kept document); anything else, or what it hands back, on graphql-js.
      const planKey = `plan:${operation.name?.value ?? ''}`;
      let plan = memo.get(planKey) as ReturnType<typeof planOf> | undefined;
      if (plan === undefined) memo.set(planKey, (plan = planOf(schema, document, operation)));
      const plain = plan === null ? null : await executePlain({ schema, document, operation, plan, variableValues, contextValue: context });
      const result: ExecutionResult = plain ?? (await execute({ schema, document, contextValue: context, variableValues, operationName }));
      if (plain && deps.documents.verifiesReads()) {
        // Tests: graphql-js completes the same root values (replayed from `prefetched`); any difference is a 500 with both answers.
        const slow = await execute({ schema, document, contextValue: context, variableValues, operationName });
        if (JSON.stringify(slow) !== JSON.stringify(plain)) {
          throw new AppError('InternalServerError', `verifyReads: the plain GraphQL answer differs from graphql-js's\nplain:      ${JSON.stringify(plain)}\ngraphql-js: ${JSON.stringify(slow)}`, undefined, { safe: false });
        }
      }
      const race = result.errors && deps.schemaRace ? await deps.schemaRace(req, result.errors) : null;
      if (race !== null) throw race;
      if (!('data' in result) || result.data === undefined) {
        return send(res, 400, { errors: (result.errors ?? []).map((e) => formatError(e, 'BAD_USER_INPUT')) });
      }
      const body: Record<string, unknown> = {};
      if (result.errors) body.errors = result.errors.map((e) => formatError(e, null, deps.log));
      body.data = result.data;
      send(res, 200, body);
    } catch (err) {
      next(err);
    }
  };
}
