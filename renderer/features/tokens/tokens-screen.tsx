import { useState } from 'react';
import { Link } from 'react-router';
import { array, dataOf } from '../../api/decode';
import { describeError } from '../../api/errors';
import { tokenDecoder, tokenWithKeyDecoder, type ApiToken } from '../../api/types';
import { useLoad } from '../../api/use-load';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { TableHead } from '../../components/table-head';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { TokenReveal } from './token-reveal';

const TYPE_LABEL: Record<ApiToken['type'], string> = { 'read-only': 'Read-only', 'full-access': 'Full access', custom: 'Custom' };

/** When a date-time happened or will happen, briefly. */
export function when(iso: string | null, never: string): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : never;
}

/** The API tokens: list, regenerate, revoke; creation on its own screen. */
export function TokensScreen() {
  const client = useClient();
  const { notify } = useToast();
  const tokens = useLoad(async () => dataOf(array(tokenDecoder))(await client.get('/admin/api/api-tokens')), 'tokens');
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [regenerating, setRegenerating] = useState<ApiToken | null>(null);
  const [revealed, setRevealed] = useState<{ name: string; accessKey: string } | null>(null);
  const list = tokens.data ?? [];
  return (
    <div className="screen">
      <PageHeader
        title="API tokens"
        subtitle="Tokens let applications read or write content through the API."
        actions={
          <Link to="/tokens/new" className="btn btn-primary">
            Create new token
          </Link>
        }
      />
      {tokens.error ? <ErrorNotice message={describeError(tokens.error)} onRetry={tokens.reload} /> : null}
      {tokens.loading && !tokens.data ? <Loading label="Loading tokens…" /> : null}
      {tokens.data && list.length === 0 ? (
        <EmptyState title="No API tokens yet" action={<Link to="/tokens/new" className="btn btn-primary">Create a token</Link>}>
          Create one for each application that reads your content, with only the access it needs.
        </EmptyState>
      ) : null}
      {list.length > 0 ? (
        <table className="table" aria-label="API tokens">
          <TableHead columns={['Name', 'Type', 'Expires', 'Last used']} actions />
          <tbody>
            {list.map((t) => (
              <tr key={t.id} data-testid={`token-row-${t.name}`}>
                <th scope="row">
                  <Link to={`/tokens/${t.id}`}>{t.name}</Link>
                  {t.description ? <span className="muted block">{t.description}</span> : null}
                </th>
                <td>{TYPE_LABEL[t.type]}</td>
                <td>{when(t.expiresAt, 'Never')}</td>
                <td>{when(t.lastUsedAt, 'Not yet')}</td>
                <td className="row-actions">
                  <button type="button" className="btn btn-small" onClick={() => setRegenerating(t)} aria-label={`Regenerate ${t.name}`}>
                    Regenerate
                  </button>
                  <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          confirmLabel="Revoke token"
          danger
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await client.del(`/admin/api/api-tokens/${revoking.id}`);
            notify(`${revoking.name} revoked`);
            tokens.reload();
          }}
        >
          <p>Applications using this token are refused at once. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
      {regenerating ? (
        <ConfirmDialog
          title={`Regenerate “${regenerating.name}”?`}
          confirmLabel="Regenerate"
          onClose={() => setRegenerating(null)}
          onConfirm={async () => {
            const answer = tokenWithKeyDecoder(await client.post(`/admin/api/api-tokens/${regenerating.id}/regenerate`));
            setRevealed({ name: answer.token.name, accessKey: answer.accessKey });
            tokens.reload();
          }}
        >
          <p>The current token stops working at once; applications need the new one.</p>
        </ConfirmDialog>
      ) : null}
      {revealed ? (
        <Dialog title={`New token for “${revealed.name}”`} onClose={() => setRevealed(null)} footer={<button type="button" className="btn" onClick={() => setRevealed(null)}>Done</button>}>
          <TokenReveal accessKey={revealed.accessKey} />
        </Dialog>
      ) : null}
    </div>
  );
}
