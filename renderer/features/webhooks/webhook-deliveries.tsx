import { useEffect } from 'react';
import { describeError } from '../../api/errors';
import { useLoad } from '../../api/use-load';
import { ErrorNotice, Loading } from '../../components/feedback';
import { TableHead } from '../../components/table-head';
import { useAction } from '../../components/use-action';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { deliveriesDecoder, deliveryDecoder, type Delivery, type DeliveryStatus } from './webhook-api';

/** How often an open delivery log asks for news (one small GET; only while the page is visible). */
const LOG_REFRESH_MS = 2000;

const STATUS: Record<DeliveryStatus, { label: string; badge: string }> = {
  delivered: { label: 'Delivered', badge: 'badge-published' },
  pending: { label: 'Retrying', badge: 'badge-modified' },
  failed: { label: 'Failed', badge: 'badge-failed' },
  skipped: { label: 'Skipped', badge: 'badge' },
};

const time = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A pending delivery not yet tried is "Queued"; one tried and waiting for its next attempt is "Retrying". */
function statusLabel(d: Delivery): string {
  return d.status === 'pending' && d.attempts === 0 ? 'Queued' : STATUS[d.status].label;
}

/** What the receiver said: its HTTP status, else the error of the last attempt. */
function ResponseCell({ delivery }: { readonly delivery: Delivery }) {
  return (
    <>
      <span data-testid="delivery-response">{delivery.responseStatus ?? '—'}</span>
      {delivery.error ? <span className="muted block webhook-error">{delivery.error}</span> : null}
      {delivery.status === 'pending' && delivery.nextAttemptAt && delivery.attempts > 0 ? (
        <span className="muted block">Next attempt {time(delivery.nextAttemptAt)}</span>
      ) : null}
    </>
  );
}

/** A webhook's delivery log, newest first, refreshed while open, with "Redeliver" per line. */
export function WebhookDeliveries({ webhookId }: { readonly webhookId: string }) {
  const client = useClient();
  const { notify } = useToast();
  const log = useLoad(async () => deliveriesDecoder(await client.get(`/admin/api/webhooks/${webhookId}/deliveries`)), `deliveries:${webhookId}`);
  const redeliver = useAction();
  const { reload } = log;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, LOG_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const list = log.data ?? [];
  return (
    <section className="card stack" aria-labelledby="webhook-deliveries-heading">
      <div className="card-header">
        <h2 id="webhook-deliveries-heading" className="section-title">
          Deliveries
        </h2>
        <button type="button" className="btn btn-small" onClick={reload}>
          Refresh
        </button>
      </div>
      <p className="field-hint">Each event is sent in order and retried with growing waits until the receiver answers 2xx. The newest come first.</p>
      {log.error ? <ErrorNotice message={describeError(log.error)} onRetry={reload} /> : null}
      {redeliver.error ? <ErrorNotice message={describeError(redeliver.error)} /> : null}
      {log.loading && !log.data ? <Loading label="Loading deliveries…" /> : null}
      {log.data && list.length === 0 ? (
        <p className="muted">No deliveries yet. They appear here when content changes with one of the webhook's events.</p>
      ) : null}
      {list.length > 0 ? (
        <table className="table" aria-label="Deliveries">
          <TableHead columns={['Event', 'Status', 'Attempts', 'Response', 'Time']} actions />
          <tbody>
            {list.map((d) => (
              <tr key={d.id} data-testid={`delivery-${d.id}`}>
                <th scope="row" className="mono">
                  {d.event}
                </th>
                <td>
                  <span className={`badge ${STATUS[d.status].badge}`} data-testid="delivery-status">
                    {statusLabel(d)}
                  </span>
                </td>
                <td data-testid="delivery-attempts">{d.attempts}</td>
                <td>
                  <ResponseCell delivery={d} />
                </td>
                <td>
                  <time dateTime={d.deliveredAt ?? d.updatedAt}>{time(d.deliveredAt ?? d.updatedAt)}</time>
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={redeliver.busy}
                    aria-label={`Redeliver ${d.event} #${d.id}`}
                    onClick={() =>
                      void redeliver.run(async () => {
                        deliveryDecoder(await client.post(`/admin/api/webhooks/${webhookId}/deliveries/${d.id}/redeliver`));
                        notify(`${d.event} queued again`);
                        reload();
                      })
                    }
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
