import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { FIXTURE_PROJECT, startTestServer, type TestServer } from '../../helpers/server.js';
import { launchChromium } from './chromium.js';
import { dismissToasts } from './wait.js';

/** The built admin UI the server serves at /admin (`npm test` builds it; run `npx vite build` otherwise). */
export const ADMIN_UI_DIR = resolve(import.meta.dirname, '../../../dist/renderer');
/**
 * Where the e2e run saves one screenshot per screen: test-results/screenshots (git-ignored), or
 * docs/screenshots, linked from the README, when run as `npm run screenshots`.
 */
export const SCREENSHOTS_DIR = resolve(import.meta.dirname, '../../..', process.env.HEARTH_SCREENSHOTS_DIR ?? 'test-results/screenshots');
/** The viewport of every e2e page (and screenshot). */
export const VIEWPORT = { width: 1280, height: 800 } as const;
/** How long a locator waits for the UI before the test fails (the machine is shared and slow). */
const ACTION_TIMEOUT_MS = 20_000;

/** One e2e test file's world: its own server and data dir, its own browser and context. */
export interface E2E {
  readonly server: TestServer;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** The temp schemas folder (a Strapi project root) the server reads and the builder writes. */
  readonly schemasDir: string;
  /** Content-Security-Policy violations and uncaught page errors seen so far. */
  readonly problems: string[];
  close(): Promise<void>;
}

/** Options of an e2e world. */
export interface E2EOptions {
  readonly desktopSecret?: string;
  /** Runs before any page script, e.g. to stand in for the desktop preload bridge. */
  readonly initScript?: string;
  readonly colorScheme?: 'light' | 'dark';
}

function watch(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (apply|execute|load|connect)/i.test(text)) problems.push(`CSP: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

/**
 * Starts a server on port 0 with a temp data dir and a temp copy of the fixture project (the
 * content-type builder writes schema files into it), then a browser and a 1280x800 context.
 */
export async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  if (!existsSync(join(ADMIN_UI_DIR, 'index.html'))) throw new Error(`The admin UI is not built in ${ADMIN_UI_DIR}: run \`npx vite build\` (npm test does it).`);
  const schemas = await mkdtemp(join(tmpdir(), 'hearth-e2e-schemas-'));
  await cp(join(FIXTURE_PROJECT, 'src'), join(schemas, 'src'), { recursive: true });
  const server = await startTestServer({
    schemas,
    adminUiDir: ADMIN_UI_DIR,
    ...(options.desktopSecret !== undefined ? { desktopSecret: options.desktopSecret } : {}),
  });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: server.url, colorScheme: options.colorScheme ?? 'light', reducedMotion: 'reduce' });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  if (options.initScript) await context.addInitScript({ content: options.initScript });
  const page = await context.newPage();
  const problems: string[] = [];
  watch(page, problems);
  return {
    server,
    browser,
    context,
    page,
    schemasDir: schemas,
    problems,
    async close() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await server.close();
      await rm(schemas, { recursive: true, force: true });
    },
  };
}

/** Saves the viewport as docs/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  // Toasts come and go: dismiss them so the pictures do not depend on timing. (Injecting a style
  // to hide them would itself be refused by the admin UI's CSP.)
  await dismissToasts(page);
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), animations: 'disabled' });
}

/** The owner account the e2e tests create. */
export const OWNER = { email: 'owner@example.com', password: 'Hearth-e2e-1', firstname: 'Ada', lastname: 'Owner' } as const;

/** Creates the owner account through the admin API and returns a session token (for arranging data). */
export async function registerOwner(server: TestServer): Promise<string> {
  const res = await server.request('/admin/api/register-admin', { method: 'POST', json: OWNER });
  const body: unknown = await res.json();
  const token = typeof body === 'object' && body !== null && 'data' in body && typeof body.data === 'object' && body.data !== null && 'token' in body.data ? body.data.token : null;
  if (res.status !== 201 || typeof token !== 'string') throw new Error(`register-admin answered ${res.status}: ${JSON.stringify(body)}`);
  return token;
}

/** Where a failing e2e test leaves a picture of the page (ignored by git). */
const FAILURES_DIR = resolve(import.meta.dirname, '../../../test-results');

/** After each failing test, saves the page as test-results/<test name>.png to show what the UI looked like. */
export function captureFailures(world: () => E2E | undefined): void {
  afterEach(async (context) => {
    const e2e = world();
    if (!e2e || context.task.result?.state !== 'fail') return;
    await mkdir(FAILURES_DIR, { recursive: true });
    const name = context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
    await e2e.page.screenshot({ path: join(FAILURES_DIR, `${name}.png`) }).catch(() => undefined);
  });
}
