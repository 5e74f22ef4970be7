import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Config } from '../../server/config.js';
import { staticUploads } from '../../server/http/static-uploads.js';
import { createLocalProvider } from '../../server/uploads/local-provider.js';
import { createS3Provider } from '../../server/uploads/s3-provider.js';
import { providerContract, type ProviderFixture } from './provider-contract.js';
import { S3_ACCESS_KEY, S3_REGION, S3_SECRET_KEY, startTestS3, type TestS3 } from './s3-gateway.js';

/** The local provider, read back through Hearth's real `/uploads` handler on a loopback port. */
async function localFixture(): Promise<ProviderFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-local-provider-'));
  const app = express().use('/uploads', staticUploads(dir));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    provider: createLocalProvider({ dir }),
    absolute: (url) => `${base}${url}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const s3Config = (s3: TestS3, acl: S3Config['acl'], signedUrlExpires = 900): S3Config => ({
  endpoint: s3.endpoint,
  region: S3_REGION,
  bucket: s3.bucket,
  accessKeyId: S3_ACCESS_KEY,
  secretAccessKey: S3_SECRET_KEY,
  forcePathStyle: true,
  acl,
  signedUrlExpires,
});

async function s3Fixture(acl: S3Config['acl']): Promise<ProviderFixture> {
  const s3 = await startTestS3();
  const provider = createS3Provider({ config: s3Config(s3, acl) });
  return {
    provider,
    absolute: (url) => url,
    async close() {
      provider.close();
      await s3.close();
    },
  };
}

providerContract('local disk', localFixture);
providerContract('S3 (public-read)', () => s3Fixture('public-read'));
providerContract('S3 (private, presigned reads)', () => s3Fixture('private'));

describe('S3 provider with S3_ACL=private, against s3rver behind a verifying gateway', () => {
  let s3: TestS3;
  let dir: string;
  beforeAll(async () => {
    s3 = await startTestS3();
    dir = await mkdtemp(join(tmpdir(), 'hearth-s3-private-'));
  });
  afterAll(async () => {
    await s3?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function putOne(acl: S3Config['acl'], expires = 900) {
    const provider = createS3Provider({ config: s3Config(s3, acl, expires) });
    const source = join(dir, randomBytes(6).toString('hex'));
    await writeFile(source, 'secret bytes');
    const key = `private_${randomBytes(5).toString('hex')}.txt`;
    const url = await provider.put({ key, source, mime: 'text/plain', size: 12 });
    return { provider, key, url };
  }

  it('writes objects private and refuses their unsigned URL', async () => {
    const { provider, key, url } = await putOne('private');
    const put = s3.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(key));
    expect(put).toEqual([expect.objectContaining({ acl: 'private', auth: 'header', status: 200 })]);
    expect(s3.acls.get(key)).toBe('private');
    expect((await fetch(url)).status).toBe(403);
    provider.close();
  });

  it('reads through a presigned URL, and refuses it once tampered with', async () => {
    const { provider, key } = await putOne('private');
    const signed = await provider.readUrl(key);
    expect(new URL(signed).searchParams.get('X-Amz-Expires')).toBe('900');
    const res = await fetch(signed);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('secret bytes');
    const signature = new URL(signed).searchParams.get('X-Amz-Signature') ?? '';
    const flipped = `${signature.startsWith('0') ? '1' : '0'}${signature.slice(1)}`;
    const tampered = await fetch(signed.replace(`X-Amz-Signature=${signature}`, `X-Amz-Signature=${flipped}`));
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain('SignatureDoesNotMatch');
    const otherKey = await fetch(signed.replace(key, key.replace('private_', 'privatf_')));
    expect(otherKey.status).toBe(403);
    provider.close();
  });

  it('lets a presigned URL expire after S3_SIGNED_URL_EXPIRES seconds', async () => {
    const { provider, key } = await putOne('private', 1);
    const signed = await provider.readUrl(key);
    expect(new URL(signed).searchParams.get('X-Amz-Expires')).toBe('1');
    const date = new URL(signed).searchParams.get('X-Amz-Date') ?? '';
    const signedAt = Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    // Past the signing second plus the 1 s lifetime (X-Amz-Date has whole seconds).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, signedAt + 2100 - Date.now())));
    const res = await fetch(signed);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
    provider.close();
  });

  it('writes public-read objects readable without a signature when so configured', async () => {
    const { provider, key, url } = await putOne('public-read');
    expect(s3.acls.get(key)).toBe('public-read');
    expect(await (await fetch(url)).text()).toBe('secret bytes');
    provider.close();
  });
});
