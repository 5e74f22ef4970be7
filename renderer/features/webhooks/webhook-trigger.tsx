import { useState } from 'react';
import { describeError } from '../../api/errors';
import { useAction } from '../../components/use-action';
import { useClient } from '../auth/session';
import { triggerWebhook, type TriggerResult } from './webhook-api';

/** "Send a test event": POSTs `trigger-test` to the webhook now and shows what the receiver answered. */
export function WebhookTrigger({ webhookId }: { readonly webhookId: string }) {
  const client = useClient();
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<TriggerResult | null>(null);
  const ok = result !== null && result.statusCode >= 200 && result.statusCode < 300;
  return (
    <div className="webhook-trigger">
      <button
        type="button"
        className="btn"
        disabled={busy}
        onClick={() =>
          void run(async () => {
            setResult(null);
            setResult(await triggerWebhook({ client, id: webhookId }));
          })
        }
      >
        {busy ? 'Sending…' : 'Send a test event'}
      </button>
      <div role="status" aria-live="polite" data-testid="webhook-trigger-result">
        {result ? (
          <span className={ok ? 'badge badge-published' : 'badge badge-failed'}>
            {ok ? 'Received' : 'Failed'}: {result.statusCode}
            {result.message ? ` · ${result.message}` : ''}
          </span>
        ) : null}
        {error ? <span className="badge badge-failed">{describeError(error)}</span> : null}
      </div>
    </div>
  );
}
