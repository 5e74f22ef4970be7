import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import type { Locale } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { describedBy, Field } from '../../components/field';
import { Loading } from '../../components/feedback';
import { TableHead } from '../../components/table-head';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { useSchemas } from '../content-types/schemas-context';
import { ISO_LOCALES, localeDisplayName } from './iso-locales';

/** The i18n locales: add one, make one the default, delete one. */
export function LocalesSection() {
  const client = useClient();
  const { notify } = useToast();
  const { locales, loading, reload } = useSchemas();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  // The display name follows the code (as Strapi's locale picker fills it) until it is typed by hand.
  const [nameTyped, setNameTyped] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Locale | null>(null);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') return;
    setBusy(true);
    setError(null);
    try {
      await client.post('/admin/api/i18n/locales', { code: code.trim(), name: name.trim() || localeDisplayName(code.trim()) || code.trim() });
      notify(`Locale ${code.trim()} added`);
      setCode('');
      setName('');
      setNameTyped(false);
      reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const makeDefault = async (locale: Locale) => {
    setError(null);
    try {
      await client.put(`/admin/api/i18n/locales/${locale.id}`, { isDefault: true });
      notify(`${locale.name} is now the default locale`);
      reload();
    } catch (e) {
      setError(e);
    }
  };
  const codeError = error ? describeError(error) : undefined;

  return (
    <section className="card" aria-labelledby="locales-heading">
      <h2 id="locales-heading">Locales</h2>
      {loading ? <Loading /> : null}
      <table className="table" aria-label="Locales">
        <TableHead columns={['Name', 'Code']} actions />
        <tbody>
          {locales.map((l) => (
            <tr key={l.id} data-testid={`locale-row-${l.code}`}>
              <th scope="row">
                {l.name} {l.isDefault ? <span className="badge badge-default">Default</span> : null}
              </th>
              <td>
                <code>{l.code}</code>
              </td>
              <td className="row-actions">
                {l.isDefault ? null : (
                  <>
                    <button type="button" className="btn btn-small" onClick={() => void makeDefault(l)} aria-label={`Make ${l.name} the default locale`}>
                      Make default
                    </button>
                    <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => setDeleting(l)} aria-label={`Delete locale ${l.name}`}>
                      Delete
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="inline-form" onSubmit={add} aria-label="Add a locale">
        <Field id="locale-code" label="Locale code" error={codeError} hint="An ISO code such as fr or pt-BR: type to search the list.">
          <input
            id="locale-code"
            list="locale-codes"
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              if (!nameTyped) setName(localeDisplayName(e.target.value.trim()));
            }}
            aria-describedby={describedBy('locale-code', true, codeError)} aria-invalid={codeError !== undefined}
            autoComplete="off"
          />
        </Field>
        <datalist id="locale-codes">
          {ISO_LOCALES.filter((c) => !locales.some((l) => l.code === c)).map((c) => (
            <option key={c} value={c}>
              {localeDisplayName(c) || c}
            </option>
          ))}
        </datalist>
        <Field id="locale-name" label="Display name">
          <input
            id="locale-name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameTyped(e.target.value !== '');
            }}
            placeholder="French (fr)"
          />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={busy || code.trim() === ''}>
          Add locale
        </button>
      </form>
      {deleting ? (
        <ConfirmDialog
          title={`Delete the ${deleting.name} locale?`}
          confirmLabel="Delete locale"
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await client.del(`/admin/api/i18n/locales/${deleting.id}`);
            notify(`Locale ${deleting.code} deleted`);
            reload();
          }}
        >
          <p>Entries written in {deleting.name} are no longer reachable through the API.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
