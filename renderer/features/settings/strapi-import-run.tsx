import { useState } from 'react';
import { array, dataOf, nullable, num, object, str } from '../../api/decode';
import { ApiError, describeError } from '../../api/errors';
import { ErrorNotice } from '../../components/feedback';
import { useClient } from '../auth/session';
import { useSchemas } from '../content-types/schemas-context';

/** What a finished import brought in (`POST /admin/api/strapi-archive/import`). */
export interface ImportResult {
  readonly types: number;
  readonly documents: number;
  readonly files: number;
  readonly entities: number;
  readonly links: number;
}

/** What `GET /admin/api/strapi-archive/import` says while an import runs. */
interface ImportStatus {
  readonly state: string;
  readonly stage: string | null;
  readonly steps: readonly string[];
}

const resultDecoder = dataOf<ImportResult>(object<ImportResult>({ types: num, documents: num, files: num, entities: num, links: num }));
const statusDecoder = dataOf<ImportStatus>(object<ImportStatus>({ state: str, stage: nullable(str), steps: array(str) }));

/** The server's stages, in order, as the progress list names them. */
const STAGES: readonly (readonly [string, string])[] = [
  ['reading', 'Reading the archive'],
  ['schemas', 'Schemas'],
  ['entities', 'Entries'],
  ['links', 'Relations'],
  ['locales', 'Locales and roles'],
  ['assets', 'Media files'],
  ['applying', 'Putting it in place'],
];

/** How often the screen asks how far the import is. */
const POLL_MS = 300;

/** A refused import that says what to do instead (PostgreSQL: the CLI command). */
export interface Refusal {
  readonly message: string;
  readonly command: string | null;
}

function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const details = error.details;
  const command = typeof details === 'object' && details !== null && 'command' in details && typeof details.command === 'string' ? details.command : null;
  return command === null ? null : { message: error.message, command };
}

/** A live import: run it, poll its stage meanwhile, keep its result or refusal; the schemas are reloaded after it. */
export function useStrapiImport() {
  const client = useClient();
  const schemas = useSchemas();
  const [running, setRunning] = useState(false);
  const [status, setStatus] = useState<ImportStatus | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const reset = () => {
    setResult(null);
    setError(null);
    setRefusal(null);
    setStatus(null);
  };
  const start = async (body: Readonly<Record<string, unknown>>): Promise<boolean> => {
    reset();
    setRunning(true);
    const timer = setInterval(() => {
      client.get('/admin/api/strapi-archive/import').then(
        (answer) => {
          const seen = statusDecoder(answer);
          if (seen.state === 'running') setStatus(seen);
        },
        () => {},
      );
    }, POLL_MS);
    try {
      setResult(resultDecoder(await client.post('/admin/api/strapi-archive/import', body)));
      schemas.reload();
      return true;
    } catch (e) {
      const refused = refusalOf(e);
      if (refused === null) setError(e);
      else setRefusal(refused);
      return false;
    } finally {
      clearInterval(timer);
      setRunning(false);
      setStatus(null);
    }
  };
  return { running, status, result, error, refusal, start, reset };
}

/** The stage list while an import runs: done, current (with the server's last line) and still to come. */
export function ImportProgress({ status }: { readonly status: ImportStatus | null }) {
  const current = STAGES.findIndex(([stage]) => stage === status?.stage);
  const lineOf = (stage: string) => [...(status?.steps ?? [])].reverse().find((s) => s.startsWith(`${stage}:`))?.slice(stage.length + 1).trim() ?? '';
  return (
    <div className="notice notice-info" role="status" aria-live="polite" data-testid="strapi-import-progress">
      <p>
        <strong>Importing…</strong> The server keeps answering meanwhile; the content changes all at once at the end.
      </p>
      <ol>
        {STAGES.map(([stage, label], i) => {
          const state = i < current ? 'done' : i === current ? 'current' : 'waiting';
          return (
            <li key={stage} data-stage={stage} data-state={state}>
              {state === 'done' ? '✓ ' : state === 'current' ? '… ' : ''}
              {label}
              {state !== 'waiting' && lineOf(stage) !== '' ? `: ${lineOf(stage)}` : ''}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** What the finished import brought in. */
export function ImportDone({ result }: { readonly result: ImportResult }) {
  return (
    <div className="notice notice-info" role="status" data-testid="strapi-import-result">
      <p>
        Imported {result.types} content types, {result.documents} documents and {result.files} media files ({result.entities} entities, {result.links} links). The content screens show them now.
      </p>
    </div>
  );
}

/** A failed import: the server's reason (nothing was changed). */
export function ImportFailed({ error }: { readonly error: unknown }) {
  return <ErrorNotice message={`Nothing was imported: ${describeError(error)}`} />;
}
