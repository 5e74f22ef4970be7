import { useState, type FormEvent } from 'react';
import { array, bool, dataOf, num, nullable, object, str } from '../../api/decode';
import { describeError } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { ErrorNotice } from '../../components/feedback';
import { Field } from '../../components/field';
import { TableHead } from '../../components/table-head';
import { useToast } from '../../components/toast';
import { useAction } from '../../components/use-action';
import { useClient } from '../auth/session';
import { ImportDone, ImportFailed, ImportProgress, useStrapiImport } from './strapi-import-run';

/** What `POST /admin/api/strapi-archive/inspect` answers. */
interface Inspection {
  readonly id: string;
  readonly fileName: string;
  readonly encrypted: boolean;
  readonly schemas: readonly { readonly uid: string; readonly kind: string; readonly entities: number }[];
  readonly totalEntities: number;
  readonly links: number;
  readonly assets: number;
  readonly strapiVersion: string | null;
  /** Whether this server imports while it runs (SQLite); otherwise the import answers with `command`. */
  readonly liveImport: boolean;
  /** The project's schemas the archive's differ from: the import replaces them. */
  readonly conflicts: readonly string[];
  readonly command: string;
}

const inspectionDecoder = dataOf<Inspection>(
  object<Inspection>({
    id: str,
    fileName: str,
    encrypted: bool,
    schemas: array(object({ uid: str, kind: str, entities: num })),
    totalEntities: num,
    links: num,
    assets: num,
    strapiVersion: nullable(str),
    liveImport: bool,
    conflicts: array(str),
    command: str,
  }),
);

const KIND_LABELS: Readonly<Record<string, string>> = { collectionType: 'Collection type', singleType: 'Single type', component: 'Component' };

/** Saves a downloaded blob under its name through a temporary link. */
function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The command block: the exact CLI line, with a copy button. */
function CommandLine({ command }: { readonly command: string }) {
  return (
    <p>
      <code data-testid="strapi-import-command">{command}</code> <CopyButton text={command} label="Copy command" />
    </p>
  );
}

/** "Import from Strapi": choose an archive, give its key, see what it holds, confirm, watch it import, see what came in. */
function StrapiImport() {
  const client = useClient();
  const [file, setFile] = useState<File | null>(null);
  const [key, setKey] = useState('');
  const { busy, error, run } = useAction();
  const [inspection, setInspection] = useState<Inspection | null>(null);
  const [confirming, setConfirming] = useState(false);
  const importer = useStrapiImport();
  const { refusal } = importer;

  const forget = (previous: Inspection | null) => {
    if (previous !== null) void client.del(`/admin/api/strapi-archive/${previous.id}`).catch(() => {});
  };
  const inspect = async (event: FormEvent) => {
    event.preventDefault();
    if (file === null) return;
    importer.reset();
    forget(inspection);
    setInspection(null);
    await run(async () => {
      const form = new FormData();
      form.append('files', file, file.name);
      if (key !== '') form.append('key', key);
      setInspection(inspectionDecoder(await client.sendForm('/admin/api/strapi-archive/inspect', form)));
    });
  };
  const runImport = async (chosen: Inspection) => {
    // Differing schemas were shown and confirmed: they are replaced.
    if (await importer.start({ id: chosen.id, force: true, ...(key !== '' ? { key } : {}) })) setInspection(null);
  };

  return (
    <div aria-labelledby="strapi-import-heading" role="group">
      <h3 id="strapi-import-heading">Import from Strapi</h3>
      <p className="field-hint">An archive written by <code>strapi export</code> (.tar, .tar.gz, or .tar.gz.enc when encrypted). Inspecting it changes nothing.</p>
      <form className="inline-form" onSubmit={inspect} aria-label="Inspect a Strapi archive">
        <Field id="strapi-archive-file" label="Archive">
          <input id="strapi-archive-file" type="file" accept=".tar,.gz,.tgz,.enc" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </Field>
        <Field id="strapi-archive-key" label="Encryption key" hint="Only for an encrypted (.enc) archive.">
          <input id="strapi-archive-key" type="password" value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" />
        </Field>
        <button type="submit" className="btn" disabled={file === null || busy}>
          {busy ? 'Reading…' : 'Inspect'}
        </button>
      </form>
      {error ? <ErrorNotice message={describeError(error)} /> : null}
      {inspection ? (
        <div data-testid="strapi-inspection">
          <p>
            <strong>{inspection.fileName}</strong>
            {inspection.strapiVersion ? ` (Strapi ${inspection.strapiVersion})` : ''}: <span data-testid="strapi-totals">{inspection.totalEntities} entities, {inspection.links} links, {inspection.assets} media files</span>
          </p>
          <table className="table" aria-label="Types in the archive">
            <TableHead columns={['Type', 'Kind', 'Entries']} />
            <tbody>
              {inspection.schemas.map((s) => (
                <tr key={s.uid} data-testid={`strapi-type-${s.uid}`}>
                  <th scope="row">
                    <code>{s.uid}</code>
                  </th>
                  <td>{KIND_LABELS[s.kind] ?? s.kind}</td>
                  <td>{s.kind === 'component' ? '—' : s.entities}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {inspection.conflicts.length > 0 ? (
            <div className="notice notice-warning" data-testid="strapi-conflicts">
              <p>These types of this project differ from the archive&apos;s; importing replaces them with the archive&apos;s:</p>
              <ul>
                {inspection.conflicts.map((uid) => (
                  <li key={uid}>
                    <code>{uid}</code>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <button type="button" className="btn btn-primary" onClick={() => setConfirming(true)} disabled={importer.running}>
            Import…
          </button>{' '}
          <button
            type="button"
            className="btn"
            disabled={importer.running}
            onClick={() => {
              forget(inspection);
              setInspection(null);
              importer.reset();
            }}
          >
            Discard
          </button>
        </div>
      ) : null}
      {importer.running ? <ImportProgress status={importer.status} /> : null}
      {importer.result ? <ImportDone result={importer.result} /> : null}
      {importer.error ? <ImportFailed error={importer.error} /> : null}
      {refusal ? (
        <div className="notice" role="status" data-testid="strapi-import-refused">
          <p>{refusal.message}</p>
          {refusal.command ? <CommandLine command={refusal.command} /> : null}
        </div>
      ) : null}
      {confirming && inspection ? (
        <ConfirmDialog
          title="Import from Strapi?"
          confirmLabel="Import"
          danger
          onConfirm={async () => {
            // The dialog closes at once; the card shows the import's progress.
            void runImport(inspection);
          }}
          onClose={() => setConfirming(false)}
        >
          <p>
            This replaces all content, media, end users and roles with the archive&apos;s ({inspection.totalEntities} entities, {inspection.assets} media files), and writes its schemas
            {inspection.conflicts.length > 0 ? `, replacing ${inspection.conflicts.length} that differ` : ''}. Admin accounts and API tokens are kept.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** "Export for Strapi": this server's content as an archive `strapi import` reads, optionally encrypted. */
function StrapiExport() {
  const client = useClient();
  const { notify } = useToast();
  const [key, setKey] = useState('');
  const { busy, error, run } = useAction();
  const exportArchive = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const { blob, fileName } = await client.download('/admin/api/strapi-archive/export', key === '' ? {} : { key });
      save(blob, fileName ?? 'hearth-strapi-export.tar.gz');
      notify('Strapi archive exported');
    });
  };
  return (
    <div role="group" aria-labelledby="strapi-export-heading">
      <h3 id="strapi-export-heading">Export for Strapi</h3>
      <p className="field-hint">
        An archive for <code>strapi import -f FILE</code> in a Strapi 5 project with the same schemas.
      </p>
      <form className="inline-form" onSubmit={exportArchive} aria-label="Export for Strapi">
        <Field id="strapi-export-key" label="Encryption key (optional)" hint="With a key the archive is encrypted (.tar.gz.enc): give Strapi the same key.">
          <input id="strapi-export-key" type="password" value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" />
        </Field>
        <button type="submit" className="btn" disabled={busy}>
          {busy ? 'Exporting…' : 'Export for Strapi'}
        </button>
      </form>
      {error ? <ErrorNotice message={describeError(error)} /> : null}
    </div>
  );
}

/** Settings card: move content in from a Strapi export and out to one. */
export function StrapiArchiveSection() {
  return (
    <section className="card" aria-labelledby="strapi-heading">
      <h2 id="strapi-heading">Strapi</h2>
      <StrapiImport />
      <StrapiExport />
    </section>
  );
}
