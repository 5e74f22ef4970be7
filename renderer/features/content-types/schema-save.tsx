import { useState, type ReactNode } from 'react';
import type { ApiClient } from '../../api/client';
import { dataOf, isRecord, object, str } from '../../api/decode';
import { ApiError, describeError } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';

interface Loss {
  readonly uid: string;
  readonly attribute: string | null;
  /** Documents whose data goes (the server also sends `rows`: stored versions and links, which the dialog does not show). */
  readonly documents: number;
}

function dataLossOf(error: unknown): Loss[] | null {
  if (!(error instanceof ApiError) || !isRecord(error.details) || !Array.isArray(error.details.dataLoss)) return null;
  return error.details.dataLoss.flatMap((item: unknown) =>
    isRecord(item) && typeof item.uid === 'string'
      ? [{ uid: item.uid, attribute: typeof item.attribute === 'string' ? item.attribute : null, documents: typeof item.documents === 'number' ? item.documents : 0 }]
      : [],
  );
}

/** The messages of a failed schema save: the error and each offending attribute. */
export function schemaErrorLines(error: unknown): string[] {
  if (!error) return [];
  const lines = [describeError(error)];
  if (error instanceof ApiError) for (const e of error.fieldErrors()) if (e.message !== lines[0]) lines.push(`${e.path.join('.')}: ${e.message}`);
  return lines;
}

const uidDecoder = dataOf(object({ uid: str }));

/** What the builder's editors call to write a schema, and what happens after. */
export interface SchemaTarget {
  /** `content-types` or `components` (the admin API collection) with the body's key and the screen's route. */
  readonly collection: 'content-types' | 'components';
  readonly key: 'contentType' | 'component';
  readonly route: 'types' | 'components';
  /** null: create. */
  readonly uid: string | null;
  readonly displayName: string;
}

/**
 * Replaces (PUT, with renames and confirmDataLoss) or creates (POST) a content type or component,
 * says so, reloads the schemas, and opens a new one's screen.
 */
export async function writeSchema(
  env: { client: ApiClient; notify: (message: string) => void; reload: () => void; navigate: (to: string) => void },
  target: SchemaTarget,
  body: { schema: unknown; renames: unknown; confirmDataLoss: boolean },
): Promise<void> {
  const base = `/admin/api/${target.collection}`;
  if (target.uid !== null) {
    await env.client.put(`${base}/${encodeURIComponent(target.uid)}`, { [target.key]: body.schema, renames: body.renames, confirmDataLoss: body.confirmDataLoss });
    env.notify(`${target.displayName} saved`);
    env.reload();
    return;
  }
  const created = uidDecoder(await env.client.post(base, { [target.key]: body.schema }));
  env.notify(`${target.displayName} created`);
  env.reload();
  env.navigate(`/builder/${target.route}/${encodeURIComponent(created.uid)}`);
}

/** Saves a schema; when the server says data would be lost, asks and saves again with confirmDataLoss. */
export function useSchemaSave(send: (confirmDataLoss: boolean) => Promise<void>): { save: () => Promise<void>; busy: boolean; error: unknown; confirmation: ReactNode } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [loss, setLoss] = useState<Loss[] | null>(null);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await send(false);
    } catch (e) {
      const found = dataLossOf(e);
      if (found) setLoss(found);
      else setError(e);
    } finally {
      setBusy(false);
    }
  };
  const confirmation = loss ? (
    <ConfirmDialog title="Delete stored data?" confirmLabel="Delete data and save" danger onClose={() => setLoss(null)} onConfirm={() => send(true)}>
      <p>This change removes values that are stored today:</p>
      <ul>
        {loss.map((l) => (
          <li key={`${l.uid}:${l.attribute ?? ''}`}>
            <code>{l.attribute ? `${l.uid}.${l.attribute}` : l.uid}</code>: {l.documents} {l.documents === 1 ? 'entry' : 'entries'}
          </li>
        ))}
      </ul>
      <p>This cannot be undone.</p>
    </ConfirmDialog>
  ) : null;
  return { save, busy, error, confirmation };
}

/** The header actions of a type or component editor: Delete (once it exists), then Save. */
export function EditorActions({ deleteLabel, onDelete, onSave, busy, canSave }: { readonly deleteLabel: string | null; readonly onDelete: () => void; readonly onSave: () => void; readonly busy: boolean; readonly canSave: boolean }) {
  return (
    <>
      {deleteLabel !== null ? (
        <button type="button" className="btn btn-danger-ghost" onClick={onDelete}>
          {deleteLabel}
        </button>
      ) : null}
      <button type="button" className="btn btn-primary" onClick={onSave} disabled={busy || !canSave}>
        {busy ? 'Saving…' : 'Save'}
      </button>
    </>
  );
}
