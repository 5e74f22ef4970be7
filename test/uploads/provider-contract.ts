import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageProvider } from '../../server/uploads/storage-provider.js';

/** A provider under test and how a client reaches the URLs it hands out. */
export interface ProviderFixture {
  readonly provider: StorageProvider;
  /** Turns a URL the provider returned into one fetch can open (local URLs are relative). */
  absolute(url: string): string;
  close(): Promise<void>;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const key = (ext = '.txt') => `object_${randomBytes(5).toString('hex')}${ext}`;

/**
 * The one contract every StorageProvider passes (as Hono's routers share common.case.test.ts):
 * stored bytes come back unchanged at the URL it gives, with the type they were stored with;
 * puts overwrite; removes are idempotent; keys never escape; foreign URLs are not its own.
 */
export function providerContract(name: string, setup: () => Promise<ProviderFixture>): void {
  describe(`StorageProvider contract: ${name}`, () => {
    let fixture: ProviderFixture;
    let dir: string;

    beforeAll(async () => {
      fixture = await setup();
      dir = await mkdtemp(join(tmpdir(), 'hearth-provider-'));
    });
    afterAll(async () => {
      await fixture?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    async function source(bytes: Uint8Array): Promise<string> {
      const path = join(dir, `src-${randomBytes(6).toString('hex')}`);
      await writeFile(path, bytes);
      return path;
    }

    async function read(k: string): Promise<Response> {
      return fetch(fixture.absolute(await fixture.provider.readUrl(k)));
    }

    it('stores the bytes and serves them back at its URL, with their type', async () => {
      const bytes = Buffer.from('hello provider\n');
      const k = key();
      const url = await fixture.provider.put({ key: k, source: await source(bytes), mime: 'text/plain', size: bytes.length });
      expect(fixture.provider.keyOf(url)).toBe(k);
      const res = await read(k);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain\b/);
      expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('hello provider\n');
    });

    it('serves bytes stored as application/octet-stream with that type, as an attachment', async () => {
      const bytes = randomBytes(1024);
      const k = key('.bin');
      await fixture.provider.put({ key: k, source: await source(bytes), mime: 'application/octet-stream', size: bytes.length });
      const res = await read(k);
      expect(res.status).toBe(200);
      expect([res.headers.get('content-type'), res.headers.get('content-disposition')]).toEqual(['application/octet-stream', 'attachment']);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(bytes));
    });

    it('streams a large object unchanged', async () => {
      const bytes = randomBytes(5 * 1024 * 1024);
      const k = key('.bin');
      await fixture.provider.put({ key: k, source: await source(bytes), mime: 'application/octet-stream', size: bytes.length });
      const res = await read(k);
      expect(res.status).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(bytes));
    });

    it('overwrites an existing key (a replaced file keeps its URL)', async () => {
      const k = key();
      const first = await fixture.provider.put({ key: k, source: await source(Buffer.from('one')), mime: 'text/plain', size: 3 });
      const second = await fixture.provider.put({ key: k, source: await source(Buffer.from('two!')), mime: 'text/plain', size: 4 });
      expect(second).toBe(first);
      expect(await (await read(k)).text()).toBe('two!');
    });

    it('removes an object, and removing a missing one is not an error', async () => {
      const k = key();
      await fixture.provider.put({ key: k, source: await source(Buffer.from('bye')), mime: 'text/plain', size: 3 });
      await fixture.provider.remove(k);
      expect([403, 404]).toContain((await fetch(fixture.absolute(await fixture.provider.readUrl(k)))).status);
      await expect(fixture.provider.remove(k)).resolves.toBeUndefined();
      await expect(fixture.provider.remove(key())).resolves.toBeUndefined();
    });

    it('refuses keys that could escape its storage', async () => {
      for (const bad of ['../escape.txt', 'a/../../escape.txt', '.hidden', '', '/abs.txt', 'a//b.txt']) {
        await expect(fixture.provider.put({ key: bad, source: await source(Buffer.from('x')), mime: 'text/plain', size: 1 })).rejects.toThrow();
        await expect(fixture.provider.remove(bad)).rejects.toThrow();
      }
    });

    it('rejects a put whose source is missing and stores nothing', async () => {
      const k = key();
      await expect(fixture.provider.put({ key: k, source: join(dir, 'missing'), mime: 'text/plain', size: 1 })).rejects.toThrow();
      expect([403, 404]).toContain((await fetch(fixture.absolute(await fixture.provider.readUrl(k)))).status);
    });

    it('does not claim URLs that are not its own', () => {
      for (const url of ['https://elsewhere.example/x.png', '/other/x.png', 'not a url']) expect(fixture.provider.keyOf(url)).toBeNull();
    });

    it('honours folder prefixes exactly when it says it supports them', async () => {
      const k = `a/b-c/${key()}`;
      const put = fixture.provider.put({ key: k, source: await source(Buffer.from('deep')), mime: 'text/plain', size: 4 });
      if (!fixture.provider.supportsPaths) {
        await expect(put).rejects.toThrow();
        return;
      }
      const url = await put;
      expect(url).toContain('/a/b-c/');
      expect(fixture.provider.keyOf(url)).toBe(k);
      expect(await (await read(k)).text()).toBe('deep');
    });

    it('hands out signed read URLs exactly when it signs', async () => {
      const k = key();
      const url = await fixture.provider.put({ key: k, source: await source(Buffer.from('s')), mime: 'text/plain', size: 1 });
      const readUrl = await fixture.provider.readUrl(k);
      if (fixture.provider.signsUrls) {
        expect(readUrl).toContain('X-Amz-Signature=');
        expect(readUrl).not.toBe(url);
      } else {
        expect(readUrl).toBe(url);
      }
    });
  });
}
