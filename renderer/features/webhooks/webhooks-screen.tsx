import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../api/errors';
import { useLoad } from '../../api/use-load';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { SettingsNav } from '../settings/settings-nav';
import { deleteWebhooks, EVENT_GROUPS, setEnabled, webhooksDecoder, type Webhook } from './webhook-api';
import '../../styles/webhooks.css';

/** "Entry: Create, Update · Media: Delete" for a webhook's events. */
export function eventsSummary(events: readonly string[]): string {
  const parts = EVENT_GROUPS.flatMap((g) => {
    const labels = g.events.filter((e) => events.includes(e.value)).map((e) => e.label);
    return labels.length > 0 ? [`${g.name}: ${labels.join(', ')}`] : [];
  });
  return parts.length > 0 ? parts.join(' · ') : 'No events';
}

/** Settings → Webhooks: the list, with an on/off switch and delete per webhook; create and edit on their own screen. */
export function WebhooksScreen() {
  const client = useClient();
  const { notify } = useToast();
  const webhooks = useLoad(async () => webhooksDecoder(await client.get('/admin/api/webhooks')), 'webhooks');
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deletingSelected, setDeletingSelected] = useState(false);
  // A switch shows its new state at once; the list read after the change replaces it.
  const [switched, setSwitched] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [toggleError, setToggleError] = useState<unknown>(null);
  const list = webhooks.data ?? [];
  useEffect(() => setSwitched(new Map()), [webhooks.data]);
  const chosen = list.filter((w) => selected.has(w.id));
  const allChosen = list.length > 0 && chosen.length === list.length;
  const choose = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const toggle = async (webhook: Webhook, isEnabled: boolean) => {
    setSwitched((m) => new Map(m).set(webhook.id, isEnabled));
    setToggleError(null);
    try {
      await setEnabled({ client, webhook, isEnabled });
      notify(`${webhook.name} ${isEnabled ? 'enabled' : 'disabled'}`);
    } catch (e) {
      setToggleError(e);
    }
    webhooks.reload();
  };

  return (
    <div className="screen">
      <PageHeader
        title="Webhooks"
        subtitle="Hearth calls these URLs when content or media changes, and retries until the receiver answers."
        actions={
          <Link to="/settings/webhooks/new" className="btn btn-primary">
            Create new webhook
          </Link>
        }
      />
      <SettingsNav />
      {webhooks.error ? <ErrorNotice message={describeError(webhooks.error)} onRetry={webhooks.reload} /> : null}
      {toggleError ? <ErrorNotice message={describeError(toggleError)} /> : null}
      {webhooks.loading && !webhooks.data ? <Loading label="Loading webhooks…" /> : null}
      {webhooks.data && list.length === 0 ? (
        <EmptyState
          title="No webhooks yet"
          action={
            <Link to="/settings/webhooks/new" className="btn btn-primary">
              Create a webhook
            </Link>
          }
        >
          A webhook tells a frontend (a Next.js or Astro build, a cache) that content changed.
        </EmptyState>
      ) : null}
      {chosen.length > 0 ? (
        <div className="bulk-bar" role="region" aria-label="Selected webhooks">
          <span aria-live="polite">{chosen.length} selected</span>
          <button type="button" className="btn btn-small btn-danger" onClick={() => setDeletingSelected(true)}>
            Delete
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSelected(new Set())}>
            Clear selection
          </button>
        </div>
      ) : null}
      {list.length > 0 ? (
        <table className="table webhooks-table" aria-label="Webhooks">
          <thead>
            <tr>
              <th scope="col" className="select-cell">
                <input
                  type="checkbox"
                  aria-label="Select all webhooks"
                  checked={allChosen}
                  ref={(box) => {
                    if (box) box.indeterminate = chosen.length > 0 && !allChosen;
                  }}
                  onChange={(e) => setSelected(e.target.checked ? new Set(list.map((w) => w.id)) : new Set())}
                />
              </th>
              {['Name', 'URL', 'Events', 'Enabled'].map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((w) => {
              const on = switched.get(w.id) ?? w.isEnabled;
              return (
                <tr key={w.id} data-testid={`webhook-row-${w.name}`}>
                  <td className="select-cell">
                    <input type="checkbox" aria-label={`Select ${w.name}`} checked={selected.has(w.id)} onChange={(e) => choose(w.id, e.target.checked)} />
                  </td>
                  <th scope="row">
                    <Link to={`/settings/webhooks/${w.id}`}>{w.name}</Link>
                  </th>
                  <td className="mono webhook-url">{w.url}</td>
                  <td>{eventsSummary(w.events)}</td>
                  <td>
                    <label className="check switch">
                      <input type="checkbox" role="switch" checked={on} onChange={(e) => void toggle(w, e.target.checked)} aria-label={`${w.name} enabled`} />
                      <span aria-hidden="true">{on ? 'On' : 'Off'}</span>
                    </label>
                  </td>
                  <td className="row-actions">
                    <Link to={`/settings/webhooks/${w.id}`} className="btn btn-small" aria-label={`Edit ${w.name}`}>
                      Edit
                    </Link>
                    <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => setDeleting(w)} aria-label={`Delete ${w.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {deletingSelected ? (
        <ConfirmDialog
          title={`Delete ${chosen.length} ${chosen.length === 1 ? 'webhook' : 'webhooks'}?`}
          confirmLabel="Delete webhooks"
          danger
          onClose={() => setDeletingSelected(false)}
          onConfirm={async () => {
            await deleteWebhooks({ client, ids: chosen.map((w) => w.id) });
            notify(`${chosen.length} ${chosen.length === 1 ? 'webhook' : 'webhooks'} deleted`);
            setSelected(new Set());
            webhooks.reload();
          }}
        >
          <p>{chosen.map((w) => w.name).join(', ')}: their URLs are no longer called, and deliveries not yet sent are dropped. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete webhook"
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await client.del(`/admin/api/webhooks/${deleting.id}`);
            notify(`${deleting.name} deleted`);
            webhooks.reload();
          }}
        >
          <p>{deleting.url} is no longer called, and deliveries not yet sent are dropped. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
