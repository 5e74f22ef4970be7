import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { describeError, fieldErrorMap } from '../../api/errors';
import { useLoad } from '../../api/use-load';
import { describedBy, Field } from '../../components/field';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { SettingsNav } from '../settings/settings-nav';
import { HeadersEditor } from './headers-editor';
import { checkForm, createWebhook, EMPTY_FORM, EVENT_GROUPS, formOf, updateWebhook, webhookDecoder, type WebhookForm } from './webhook-api';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookTrigger } from './webhook-trigger';
import '../../styles/webhooks.css';

/** The event checkboxes, one group per Strapi category (Entry, Media). */
function EventPicker({ value, onChange }: { readonly value: ReadonlySet<string>; readonly onChange: (events: Set<string>) => void }) {
  const set = (events: readonly string[], on: boolean) => {
    const next = new Set(value);
    for (const e of events)
      if (on) next.add(e);
      else next.delete(e);
    onChange(next);
  };
  return (
    <fieldset className="field field-group">
      <legend className="field-label">Events</legend>
      <div className="permissions">
        {EVENT_GROUPS.map((g) => {
          const values = g.events.map((e) => e.value);
          const all = values.every((e) => value.has(e));
          const some = values.some((e) => value.has(e));
          const id = `webhook-events-${g.name.toLowerCase()}`;
          return (
            <fieldset key={g.name} className="permission-group">
              <legend>{g.name}</legend>
              <div className="check permission-all">
                <input
                  id={`${id}-all`}
                  type="checkbox"
                  checked={all}
                  ref={(el) => {
                    if (el) el.indeterminate = some && !all;
                  }}
                  onChange={(e) => set(values, e.target.checked)}
                />
                <label htmlFor={`${id}-all`}>
                  All <span className="visually-hidden">{g.name} events</span>
                </label>
              </div>
              {g.events.map((e) => (
                <div className="check" key={e.value}>
                  <input id={`webhook-event-${e.value}`} type="checkbox" checked={value.has(e.value)} onChange={(ev) => set([e.value], ev.target.checked)} />
                  <label htmlFor={`webhook-event-${e.value}`}>
                    <span className="visually-hidden">{g.name} </span>
                    {e.label}
                  </label>
                </div>
              ))}
            </fieldset>
          );
        })}
      </div>
    </fieldset>
  );
}

/** Creates a webhook or edits one; an existing one also gets "Send a test event" and its delivery log. */
export function WebhookEditor() {
  const { id } = useParams();
  const client = useClient();
  const navigate = useNavigate();
  const { notify } = useToast();
  const existing = useLoad(async () => (id ? webhookDecoder(await client.get(`/admin/api/webhooks/${id}`)) : null), `webhook:${id ?? 'new'}`);
  const [form, setForm] = useState<WebhookForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const webhook = existing.data;
  useEffect(() => {
    if (webhook) setForm(formOf(webhook));
  }, [webhook]);

  /** Changes the form; the field's error goes, as the person is fixing it. */
  const edit = (patch: Partial<WebhookForm>, field: string) => {
    setForm({ ...form, ...patch });
    if (errors.has(field)) setErrors(new Map([...errors].filter(([key]) => key !== field)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = checkForm(form);
    setErrors(problems);
    setError(null);
    if (problems.size > 0) return;
    setBusy(true);
    try {
      if (webhook) {
        await updateWebhook({ client, id: webhook.id, form });
        notify('Webhook saved');
        existing.reload();
      } else {
        const created = await createWebhook({ client, form });
        notify('Webhook created');
        void navigate(`/settings/webhooks/${created.id}`, { replace: true });
      }
    } catch (e) {
      setErrors(fieldErrorMap(e));
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  if (id && existing.loading && !webhook) return <Loading />;
  if (id && existing.error && !webhook) return <ErrorNotice message={describeError(existing.error)} onRetry={existing.reload} />;
  if (id && !webhook) return <EmptyState title="Webhook not found" action={<Link to="/settings/webhooks">Back to webhooks</Link>} />;
  const back = (
    <Link to="/settings/webhooks" className="back-link">
      ← Webhooks
    </Link>
  );
  const nameError = errors.get('name');
  const urlError = errors.get('url');
  const headerErrors = new Map([...errors].flatMap(([key, message]) => (key.startsWith('headers.') ? [[Number(key.slice(8)), message] as const] : [])));
  return (
    <div className="screen">
      <PageHeader title={webhook ? webhook.name : 'New webhook'} back={back} actions={webhook ? <WebhookTrigger webhookId={webhook.id} /> : undefined} />
      <SettingsNav />
      <form className="card stack" onSubmit={submit} noValidate aria-label="Webhook settings">
        <div className="row-2">
          <Field id="webhook-name" label="Name" required error={nameError}>
            <input
              id="webhook-name"
              value={form.name}
              onChange={(e) => edit({ name: e.target.value }, 'name')}
              aria-invalid={nameError !== undefined}
              aria-describedby={describedBy('webhook-name', null, nameError)}
              autoComplete="off"
            />
          </Field>
          <Field id="webhook-url" label="URL" required error={urlError} hint="http or https; a receiver on this machine (localhost) is fine.">
            <input
              id="webhook-url"
              type="url"
              className="mono"
              value={form.url}
              onChange={(e) => edit({ url: e.target.value }, 'url')}
              aria-invalid={urlError !== undefined}
              aria-describedby={describedBy('webhook-url', true, urlError)}
              placeholder="http://localhost:3000/api/revalidate"
              autoComplete="off"
            />
          </Field>
        </div>
        <HeadersEditor rows={form.headers} onChange={(headers) => setForm({ ...form, headers })} errors={headerErrors} />
        <EventPicker value={form.events} onChange={(events) => setForm({ ...form, events })} />
        <div className="row-2">
          <Field
            id="webhook-secret"
            label="Signing secret"
            hint={
              webhook
                ? 'Leave empty to keep the current secret, if any. Each call is signed with X-Hearth-Signature: sha256=HMAC of "<X-Hearth-Timestamp>.<body>".'
                : 'Optional. Each call is then signed with X-Hearth-Signature: sha256=HMAC of "<X-Hearth-Timestamp>.<body>".'
            }
          >
            <input
              id="webhook-secret"
              type="password"
              className="mono"
              value={form.secret}
              onChange={(e) => setForm({ ...form, secret: e.target.value, removeSecret: false })}
              aria-describedby="webhook-secret-hint"
              autoComplete="new-password"
            />
          </Field>
          <div className="stack">
            {webhook ? (
              <div className="check">
                <input
                  id="webhook-remove-secret"
                  type="checkbox"
                  checked={form.removeSecret}
                  disabled={form.secret !== ''}
                  onChange={(e) => setForm({ ...form, removeSecret: e.target.checked })}
                />
                <label htmlFor="webhook-remove-secret">Remove the signing secret</label>
              </div>
            ) : null}
            <div className="check">
              <input id="webhook-enabled" type="checkbox" checked={form.isEnabled} onChange={(e) => setForm({ ...form, isEnabled: e.target.checked })} />
              <label htmlFor="webhook-enabled">Enabled</label>
            </div>
          </div>
        </div>
        {error ? <ErrorNotice message={describeError(error)} /> : null}
        <div className="button-row">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : webhook ? 'Save' : 'Create webhook'}
          </button>
        </div>
      </form>
      {webhook ? <WebhookDeliveries webhookId={webhook.id} /> : null}
    </div>
  );
}
