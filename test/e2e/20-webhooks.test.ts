import { createHmac } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { unlabelledControls } from './support/a11y.js';
import { AppNav, loginAsOwner } from './support/auth-pages.js';
import { data, dataList } from './support/api.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { eventually, visible } from './support/wait.js';

/** The rows of the delivery log for one event, newest first. */
const deliveryRows = (page: Page, event: string): Locator =>
  page
    .getByRole('table', { name: 'Deliveries' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: event, exact: true }) });

/** Status, attempts and response code of a delivery log row, as shown. */
async function shown(row: Locator): Promise<{ status: string; attempts: string; response: string }> {
  if ((await row.count()) === 0) return { status: '', attempts: '', response: '' };
  return {
    status: await row.getByTestId('delivery-status').innerText(),
    attempts: await row.getByTestId('delivery-attempts').innerText(),
    response: await row.getByTestId('delivery-response').innerText(),
  };
}

/** The events (and titles) the receiver got, in order. */
const bodies = (receiver: Receiver) => receiver.received.map((r) => JSON.parse(r.body) as { event: string; entry?: { title?: string } });

describe('20. webhooks', () => {
  let e2e: E2E;
  let session: string;
  let receiver: Receiver;

  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('creates a webhook, sends a test event, logs deliveries, redelivers, disables and deletes it', async () => {
    const { page, server } = e2e;
    const port = receiver.port;
    await loginAsOwner(page);
    await new AppNav(page).go('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Webhooks' }));
    await visible(page.getByText('No webhooks yet'));

    // Create: name, URL, a header, two events.
    await page.getByRole('link', { name: 'Create new webhook' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'New webhook' }));
    await page.getByLabel('Name').fill('Site');
    await page.getByLabel('URL').fill('ftp://127.0.0.1/hook');
    await page.getByRole('button', { name: 'Add a header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Site');
    await page.getByLabel('Header 1 value').fill('blog');
    await page.getByRole('checkbox', { name: 'Entry Create', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Entry Update', exact: true }).check();
    expect(await unlabelledControls(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await visible(page.getByText('Enter a URL starting with http:// or https://.'));
    expect(await dataList(server, '/admin/api/webhooks', { token: session })).toEqual([]);
    await page.getByLabel('URL').fill(`${receiver.url}/hook`);
    expect(await page.getByText('Enter a URL starting with http:// or https://.').count()).toBe(0);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'webhook-new');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Site' }));
    const [stored] = await dataList(server, '/admin/api/webhooks', { token: session });
    expect(stored).toMatchObject({
      name: 'Site',
      url: `${receiver.url}/hook`,
      headers: { 'X-Site': 'blog' },
      events: ['entry.create', 'entry.update'],
      isEnabled: true,
    });
    const id = String(stored?.id);

    // Send a test event: the receiver's status is shown, and it got trigger-test with the header.
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await visible(page.getByTestId('webhook-trigger-result').getByText('Received: 200'));
    const trigger = receiver.received.at(-1);
    expect(JSON.parse(trigger?.body ?? '{}')).toMatchObject({ event: 'trigger-test' });
    expect(trigger?.headers).toMatchObject({ 'X-Site': 'blog', 'X-Strapi-Event': 'trigger-test' });
    expect(await page.getByText('No deliveries yet').count()).toBe(1);
    expect(await unlabelledControls(page)).toEqual([]);

    // A REST create is delivered and logged with its status and the receiver's code.
    const article = await data(server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Hello hooks' } } }, 201);
    await eventually(() => shown(deliveryRows(page, 'entry.create'))).toEqual({ status: 'Delivered', attempts: '1', response: '200' });
    expect(
      bodies(receiver)
        .filter((b) => b.event === 'entry.create')
        .map((b) => b.entry?.title),
    ).toEqual(['Hello hooks']);

    // The receiver goes away: the next write's attempt fails and is shown with its error.
    await receiver.close();
    await data(server, `/api/articles/${String(article.documentId)}`, { method: 'PUT', token: session, json: { data: { title: 'Hello again' } } });
    const update = deliveryRows(page, 'entry.update');
    await eventually(async () => (await shown(update)).status).toBe('Retrying');
    expect(Number((await shown(update)).attempts)).toBeGreaterThanOrEqual(1);
    expect((await shown(update)).response).toBe('—');
    await visible(update.getByText('Next attempt', { exact: false }));

    // Redeliver while it waits to retry sends it now, on the same line (no second copy): still down, it fails again.
    const failedAttempts = Number((await shown(update)).attempts);
    await update.getByRole('button', { name: /^Redeliver entry\.update/ }).click();
    await eventually(async () => Number((await shown(update)).attempts) > failedAttempts).toBe(true);
    expect(await update.count()).toBe(1);

    // It comes back; Redeliver sends it and it arrives (a second line only if a retry delivered it just before the click).
    receiver = await startReceiver(port);
    await update.getByRole('button', { name: /^Redeliver entry\.update/ }).click();
    await eventually(async () => (await shown(update.first())).status).toBe('Delivered');
    expect((await shown(update.first())).response).toBe('200');
    expect(await update.count()).toBeLessThanOrEqual(2);
    await eventually(() => bodies(receiver).some((b) => b.event === 'entry.update' && b.entry?.title === 'Hello again')).toBe(true);
    expect(receiver.received.every((r) => r.headers['X-Site'] === 'blog')).toBe(true);
    await page.getByRole('heading', { name: 'Deliveries' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'webhook-deliveries');

    // Disabled: a write makes no delivery. Enabled again, the next write is delivered and nothing before it.
    await page.getByRole('link', { name: '← Webhooks' }).click();
    const row = page.getByTestId('webhook-row-Site');
    await visible(row.getByText('Entry: Create, Update'));
    await row.getByRole('switch', { name: 'Site enabled' }).uncheck();
    await eventually(async () => (await data(server, `/admin/api/webhooks/${id}`, { token: session })).isEnabled).toBe(false);
    await data(server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Quiet' } } }, 201);
    await row.getByRole('switch', { name: 'Site enabled' }).check();
    await eventually(async () => (await data(server, `/admin/api/webhooks/${id}`, { token: session })).isEnabled).toBe(true);
    await screenshot(page, 'webhooks');
    await data(server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Loud' } } }, 201);
    await eventually(() => bodies(receiver).some((b) => b.entry?.title === 'Loud')).toBe(true);
    expect(bodies(receiver).some((b) => b.entry?.title === 'Quiet')).toBe(false);
    const log = await dataList(server, `/admin/api/webhooks/${id}/deliveries`, { token: session });
    expect(log.filter((d) => d.event === 'entry.create')).toHaveLength(2);

    // Delete, after confirming.
    await row.getByRole('button', { name: 'Delete Site' }).click();
    await page.getByRole('dialog', { name: 'Delete “Site”?' }).getByRole('button', { name: 'Delete webhook' }).click();
    await visible(page.getByText('No webhooks yet'));
    expect(await dataList(server, '/admin/api/webhooks', { token: session })).toEqual([]);
    expect(e2e.problems).toEqual([]);
  });

  it('edits headers, events and the signing secret; a failing receiver shows in the test result', async () => {
    const { page, server } = e2e;
    const created = await data(
      server,
      '/admin/api/webhooks',
      { method: 'POST', token: session, json: { name: 'Build', url: `${receiver.url}/build`, headers: { A: '1', B: '2' }, events: ['media.create'] } },
      201,
    );
    const id = String(created.id);
    const signed = () => receiver.received.filter((r) => r.path === '/build').at(-1)?.headers ?? {};
    const trigger = async () => {
      const before = receiver.received.length;
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await visible(page.getByTestId('webhook-trigger-result').getByText('Received: 200'));
      expect(receiver.received.length).toBe(before + 1);
    };
    await new AppNav(page).go('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByTestId('webhook-row-Build').getByRole('link', { name: 'Edit Build' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Build' }));
    await eventually(() => page.getByLabel('Header 1 name').inputValue()).toBe('A');
    expect(await page.getByRole('checkbox', { name: 'Media Create', exact: true }).isChecked()).toBe(true);

    // A value without a name is refused before sending.
    await page.getByRole('button', { name: 'Add a header' }).click();
    await page.getByLabel('Header 3 value').fill('orphan');
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByText('Give this header a name.'));
    await page.getByRole('button', { name: 'Remove header 3' }).click();

    await page.getByRole('button', { name: 'Remove header 1' }).click();
    await page.getByRole('checkbox', { name: 'Media Create', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'Entry Publish', exact: true }).check();
    await page.getByLabel('Signing secret', { exact: true }).fill('s3cret');
    expect(await unlabelledControls(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(async () => (await data(server, `/admin/api/webhooks/${id}`, { token: session })).events).toEqual(['entry.publish']);
    expect(await data(server, `/admin/api/webhooks/${id}`, { token: session })).toMatchObject({ headers: { B: '2' }, isEnabled: true });
    await trigger();
    const sent = receiver.received.at(-1);
    const timestamp = sent?.headers['X-Hearth-Timestamp'] ?? '';
    expect(sent?.headers['X-Hearth-Signature']).toBe(
      `sha256=${createHmac('sha256', 's3cret')
        .update(`${timestamp}.${sent?.body ?? ''}`)
        .digest('hex')}`,
    );
    expect(sent?.headers.A).toBeUndefined();

    // Saved again with the secret left empty: it is kept. Then removed.
    await page.getByLabel('Name', { exact: true }).fill('Build 2');
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Build 2' }));
    await trigger();
    expect(signed()['X-Hearth-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    await page.getByRole('checkbox', { name: 'Remove the signing secret' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByRole('checkbox', { name: 'Remove the signing secret' }).isChecked()).toBe(false);
    await trigger();
    expect(signed()['X-Hearth-Signature']).toBeUndefined();

    // A receiver that is not there: the test result says so.
    const gone = await startReceiver();
    await gone.close();
    await data(server, `/admin/api/webhooks/${id}`, {
      method: 'PUT',
      token: session,
      json: { name: 'Build 2', url: `${gone.url}/x`, headers: {}, events: [] },
    });
    await page.reload();
    await eventually(() => page.getByLabel('URL').inputValue()).toBe(`${gone.url}/x`);
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await visible(page.getByTestId('webhook-trigger-result').getByText('Failed: 500', { exact: false }));
    expect(e2e.problems).toEqual([]);
  });

  it('deletes the webhooks ticked, after confirming', async () => {
    const { page, server } = e2e;
    for (const name of ['One', 'Two']) {
      await data(
        server,
        '/admin/api/webhooks',
        { method: 'POST', token: session, json: { name, url: `${receiver.url}/${name}`, headers: {}, events: ['entry.delete'] } },
        201,
      );
    }
    const before = await dataList(server, '/admin/api/webhooks', { token: session });
    await new AppNav(page).go('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await visible(page.getByTestId('webhook-row-Two'));
    await page.getByRole('checkbox', { name: 'Select One' }).check();
    await page.getByRole('checkbox', { name: 'Select Two' }).check();
    expect(await unlabelledControls(page)).toEqual([]);
    await page.getByRole('region', { name: 'Selected webhooks' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete 2 webhooks?' }).getByRole('button', { name: 'Delete webhooks' }).click();
    await eventually(() => page.getByTestId('webhook-row-Two').count()).toBe(0);
    expect(await page.getByTestId('webhook-row-One').count()).toBe(0);
    const after = await dataList(server, '/admin/api/webhooks', { token: session });
    expect(after.map((w) => w.name)).toEqual(before.map((w) => w.name).filter((n) => n !== 'One' && n !== 'Two'));
    expect(after.length).toBe(before.length - 2);
    expect(e2e.problems).toEqual([]);
  });
});
