/** Where the playground sends its operations: the server's GraphQL endpoint (same origin). */
export const GRAPHQL_PATH = '/graphql';

/** What GraphiQL hands the fetcher: one operation. */
export interface GraphQLParams {
  readonly query: string;
  readonly variables?: unknown;
  readonly operationName?: string | null;
}

/** The JSON the endpoint answered: a GraphQL result, or Strapi's error envelope shown as it came. */
export type GraphQLAnswer = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A fetcher that POSTs each operation to /graphql with the chosen API token as a bearer, so the
 * playground answers exactly what an application with that token gets. The admin session is not sent.
 */
export function playgroundFetcher({ token, fetchImpl = fetch }: { readonly token: string; readonly fetchImpl?: typeof fetch }) {
  return async (params: GraphQLParams): Promise<GraphQLAnswer> => {
    const response = await fetchImpl(GRAPHQL_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(params),
      credentials: 'omit',
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    // Not JSON (a proxy's page, an empty answer): shown as a GraphQL error rather than thrown away.
    return isObject(body) ? body : { errors: [{ message: `HTTP ${response.status}: ${text.slice(0, 200)}` }] };
  };
}
