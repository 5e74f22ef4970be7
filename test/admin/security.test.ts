import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, OWNER, registerOwner } from './helpers.js';

let server: TestServer;
let uiDir: string;
let schemas: string;

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'";

beforeAll(async () => {
  uiDir = await mkdtemp(join(tmpdir(), 'hearth-ui-'));
  await mkdir(join(uiDir, 'assets'));
  await writeFile(join(uiDir, 'index.html'), '<!doctype html><title>Hearth</title><script type="module" src="/admin/assets/app.js"></script>');
  await writeFile(join(uiDir, 'assets', 'app.js'), 'console.log("admin")');
  schemas = await writeProject({ types: { note: collection('note', 'notes', { text: { type: 'string' } }) } });
  server = await startTestServer({ schemas, adminUiDir: uiDir });
});
afterAll(() => server.close());

/** A raw HTTP request with a chosen Host header (fetch does not let a caller set it). */
function withHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('DNS-rebinding defence', () => {
  it('refuses Host: evil.example with 403 in the envelope on /api, /admin/api and /admin', async () => {
    const refused = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Host not allowed', details: { host: 'evil.example' } } };
    for (const path of ['/api/notes', '/admin/api/init', '/admin', '/admin/content']) {
      const res = await withHost(path, 'evil.example');
      expect({ path, status: res.status, body: JSON.parse(res.body) as unknown }).toEqual({ path, status: 403, body: refused });
    }
    expect((await withHost('/admin/api/init', `localhost:${new URL(server.url).port}`)).status).toBe(200);
  });
});

describe('CORS', () => {
  it('the content API allows any origin by default; the admin API never answers with CORS headers', async () => {
    const origin = { Origin: 'https://site.example' };
    const content = await server.request('/api/notes', { method: 'OPTIONS', headers: { ...origin, 'Access-Control-Request-Method': 'GET' } });
    expect(content.status).toBe(204);
    expect(content.headers.get('access-control-allow-origin')).toBe('https://site.example');
    const preflight = await server.request('/admin/api/users/me', { method: 'OPTIONS', headers: { ...origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const get = await server.request('/admin/api/init', { headers: origin });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('HEARTH_CORS_ORIGINS limits the content API to the listed origins', async () => {
    const limited = await startTestServer({ schemas, env: { HEARTH_CORS_ORIGINS: 'https://site.example, http://localhost:3000/' } });
    try {
      const ask = (origin: string) => limited.request('/api/notes', { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' } });
      expect((await ask('https://site.example')).headers.get('access-control-allow-origin')).toBe('https://site.example');
      expect((await ask('http://localhost:3000')).headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      expect((await ask('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await limited.close();
    }
  });
});

describe('the admin UI at /admin', () => {
  it('serves the built files and falls back to index.html for app routes, with a strict CSP and nosniff', async () => {
    for (const path of ['/admin', '/admin/', '/admin/content-manager/api::note.note']) {
      const res = await server.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<title>Hearth</title>');
      expect(res.headers.get('content-security-policy')).toBe(CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const script = await server.request('/admin/assets/app.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('content-security-policy')).toBe(CSP);
    expect((await server.request('/admin/api/nothing')).headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers the API playground page with inline styles and data: fonts allowed (GraphiQL\'s editor), scripts still self only', async () => {
    const editorCsp = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "font-src 'self' data:; connect-src 'self'");
    for (const [path, csp] of [
      ['/admin/playground', editorCsp],
      ['/admin/playground/', editorCsp],
      ['/admin/playgrounds', CSP],
      ['/admin/content/playground', CSP],
    ] as const) {
      const res = await server.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toBe(csp);
    }
  });

  it('answers 503 with a page saying to build it when dist/renderer is missing', async () => {
    const bare = await startTestServer({ schemas, adminUiDir: join(uiDir, 'missing') });
    try {
      const res = await bare.request('/admin/');
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
    } finally {
      await bare.close();
    }
  });

  it('allows images and media from the public file URL origin when one is configured', async () => {
    const cdn = await startTestServer({ schemas, adminUiDir: uiDir, env: { HEARTH_PUBLIC_URL: 'https://cdn.example/media' } });
    try {
      const csp = (await cdn.request('/admin')).headers.get('content-security-policy') ?? '';
      expect(csp).toContain("img-src 'self' data: blob: https://cdn.example;");
      expect(csp).toContain("connect-src 'self';");
    } finally {
      await cdn.close();
    }
  });
});

describe('server information', () => {
  it('tells the admin where the data lives', async () => {
    const admin = adminRequest(server, await registerOwner(server));
    const info = await expectJson<{ data: Record<string, unknown> }>(await admin('/admin/api/information'), 200);
    const { version } = JSON.parse(await readFile(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    expect(info.data).toEqual({
      version,
      serverUrl: server.url,
      dataDir: server.dataDir,
      schemasDir: schemas,
      database: onPostgres() ? 'postgres' : 'sqlite',
      uploadProvider: 'local',
      desktop: false,
      // This install's CLI by absolute paths (the AI-assistant panel starts `hearth mcp` with it).
      cli: { command: process.execPath, args: [join(import.meta.dirname, '../../bin/hearth.js')], env: {} },
      warnings: [],
    });
  });
});

describe('malformed paths', () => {
  it('answers a path parameter that is not valid percent-encoding with a 400 envelope, not a 500', async () => {
    const login = await server.request('/admin/api/login', { method: 'POST', json: { email: OWNER.email, password: OWNER.password } });
    const admin = adminRequest(server, (await expectJson<{ data: { token: string } }>(login, 200)).data.token);
    const res = await admin('/admin/api/api-tokens/%ZZ');
    expect(await expectJson(res, 400)).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: 'Bad Request', details: {} } });
  });
});
