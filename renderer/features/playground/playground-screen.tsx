import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../api/errors';
import { ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { Field } from '../../components/field';
import { useClient } from '../auth/session';
import { createApiToken } from '../tokens/token-api';
import '../../styles/playground.css';

const GraphiQLPane = lazy(() => import('./graphiql-pane'));

/** The token the playground runs with; its key lives in this screen's memory only. */
interface ChosenToken {
  readonly key: string;
  /** How it was chosen, for the line above the editor. */
  readonly label: string;
}

/** A name for a token made here: unique (token names are) and telling where it came from. */
const temporaryName = (now: Date) => `API playground ${now.toISOString().slice(0, 16).replace('T', ' ')}`;

function TokenPicker({ onChosen }: { readonly onChosen: (token: ChosenToken) => void }) {
  const client = useClient();
  const [pasted, setPasted] = useState('');
  const [pasteError, setPasteError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submitPasted = (event: FormEvent) => {
    event.preventDefault();
    const key = pasted.trim();
    if (key === '') {
      setPasteError('Paste the key of an API token.');
      return;
    }
    onChosen({ key, label: 'the pasted token' });
  };
  const createReadOnly = async () => {
    setBusy(true);
    setError(null);
    try {
      const name = temporaryName(new Date());
      const { accessKey } = await createApiToken({ client, token: { name, description: 'Made by the API playground', type: 'read-only', duration: '7', permissions: new Set() } });
      onChosen({ key: accessKey, label: `the read-only token “${name}” (expires in 7 days)` });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card stack" aria-label="Token for the playground">
      <p>
        The playground sends each operation to <code>/graphql</code> with an API token, as an application would, and shows what that token may read. Hearth
        keeps only a hash of each token, so a key cannot be shown again: paste one you kept, or create a read-only token here.
      </p>
      <form className="input-with-button" onSubmit={submitPasted} noValidate aria-label="Paste a token">
        <Field id="playground-token" label="API token key" error={pasteError}>
          <input
            id="playground-token"
            type="password"
            className="mono"
            value={pasted}
            onChange={(e) => {
              setPasted(e.target.value);
              setPasteError(undefined);
            }}
            aria-invalid={pasteError !== undefined}
            autoComplete="off"
          />
        </Field>
        <button type="submit" className="btn btn-primary">
          Use this token
        </button>
      </form>
      <div className="button-row">
        <button type="button" className="btn" onClick={() => void createReadOnly()} disabled={busy}>
          {busy ? 'Creating…' : 'Create a read-only token (7 days)'}
        </button>
        <span className="field-hint inline">
          It is listed in <Link to="/tokens">API tokens</Link>; revoke it there when you are done.
        </span>
      </div>
      {error ? <ErrorNotice message={describeError(error)} /> : null}
    </section>
  );
}

/** API playground: GraphiQL (bundled, no CDN) against /graphql with an API token the admin chooses. */
export function PlaygroundScreen() {
  const [token, setToken] = useState<ChosenToken | null>(null);
  return (
    <div className="screen playground-screen">
      <PageHeader
        title="API playground"
        subtitle="Run GraphQL queries and mutations against this server with an API token's access."
        actions={
          token ? (
            <button type="button" className="btn" onClick={() => setToken(null)}>
              Change token
            </button>
          ) : undefined
        }
      />
      {token ? (
        <>
          <p className="muted" data-testid="playground-token-label">
            Running with {token.label}.
          </p>
          <Suspense fallback={<Loading label="Loading the GraphQL editor…" />}>
            <GraphiQLPane key={token.key} token={token.key} />
          </Suspense>
        </>
      ) : (
        <TokenPicker onChosen={setToken} />
      )}
    </div>
  );
}
