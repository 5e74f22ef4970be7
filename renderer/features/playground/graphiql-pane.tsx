// Loaded only by the playground screen (React.lazy): GraphiQL and monaco stay out of the other screens' bundle.
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { GraphiQL } from 'graphiql';
import { useMemo } from 'react';
import { playgroundFetcher } from './playground-fetcher';

/** The operation the editor opens with: the first page of a collection type's documents. */
const FIRST_QUERY = `# Operations run against /graphql with the API token chosen above.
# Ctrl+Space completes, Ctrl+Enter runs; the Docs button lists the schema.
query {
  __typename
}
`;

/** GraphiQL bound to /graphql with one API token. Remounted (key) when the token changes. */
export default function GraphiQLPane({ token }: { readonly token: string }) {
  const fetcher = useMemo(() => playgroundFetcher({ token }), [token]);
  return (
    <div className="playground-ide" data-testid="playground-ide">
      <GraphiQL fetcher={fetcher} defaultQuery={FIRST_QUERY} shouldPersistHeaders={false} isHeadersEditorEnabled={false} />
    </div>
  );
}
