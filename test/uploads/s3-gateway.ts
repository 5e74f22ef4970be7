import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-protocol server for tests: s3rver on loopback, behind a small gateway that adds the
 * two checks s3rver 3.7 leaves out. s3rver accepts any SigV4 signature (its source says "Signature
 * version 4 calculation is unimplemented") and ignores ACLs; the gateway verifies every SigV4
 * signature (header or presigned query) against the secret and refuses anonymous reads of objects
 * not written `public-read`, as S3 does. It records each request so tests can see the ACLs sent.
 * Expiry of presigned URLs is s3rver's own check.
 */

/** s3rver's built-in account: access key id. */
export const S3_ACCESS_KEY = 'S3RVER';
/** s3rver's built-in account: secret key. */
export const S3_SECRET_KEY = 'S3RVER';
/** The region the tests sign for. */
export const S3_REGION = 'us-east-1';

/** One request as the gateway saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly auth: 'header' | 'query' | 'none';
  /** The `x-amz-acl` header, if any. */
  readonly acl: string | null;
  readonly status: number;
}

/** A running test S3 (s3rver plus gateway). */
export interface TestS3 {
  /** The gateway's URL: the S3_ENDPOINT to configure. */
  readonly endpoint: string;
  readonly bucket: string;
  readonly requests: SeenRequest[];
  /** The ACL each stored key was last written with. */
  readonly acls: ReadonlyMap<string, string>;
  /** PUTs of keys matching this fail with a 500 (to test rollbacks); null: none fail. */
  failPuts: RegExp | null;
  close(): Promise<void>;
}

const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

interface SignatureParts {
  readonly credential: string;
  readonly signedHeaders: string[];
  readonly signature: string;
  readonly amzDate: string;
  readonly payloadHash: string;
  readonly query: [string, string][];
}

function signatureParts(req: IncomingMessage, url: URL): SignatureParts | null {
  const query = [...url.searchParams.entries()];
  const header = req.headers.authorization;
  if (header?.startsWith('AWS4-HMAC-SHA256 ')) {
    const fields = Object.fromEntries(header.slice(17).split(/,\s*/).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
    return {
      credential: fields.Credential ?? '',
      signedHeaders: (fields.SignedHeaders ?? '').split(';'),
      signature: fields.Signature ?? '',
      amzDate: String(req.headers['x-amz-date'] ?? ''),
      payloadHash: String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'),
      query,
    };
  }
  if (url.searchParams.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256') {
    return {
      credential: url.searchParams.get('X-Amz-Credential') ?? '',
      signedHeaders: (url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';'),
      signature: url.searchParams.get('X-Amz-Signature') ?? '',
      amzDate: url.searchParams.get('X-Amz-Date') ?? '',
      payloadHash: url.searchParams.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
      query: query.filter(([k]) => k !== 'X-Amz-Signature'),
    };
  }
  return null;
}

/** Recomputes a SigV4 signature (AWS's documented algorithm) and compares it with the one sent. */
function signatureValid(req: IncomingMessage, url: URL, parts: SignatureParts): boolean {
  const [accessKey, date, region, service, terminal] = parts.credential.split('/');
  if (accessKey !== S3_ACCESS_KEY || !date || !region || !service || terminal !== 'aws4_request') return false;
  const canonicalQuery = parts.query
    .map(([k, v]) => [enc(k), enc(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headerValue = (name: string) => {
    const value = req.headers[name];
    return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
  };
  const canonicalHeaders = parts.signedHeaders.map((h) => `${h}:${headerValue(h)}\n`).join('');
  const canonicalRequest = [req.method, url.pathname, canonicalQuery, canonicalHeaders, parts.signedHeaders.join(';'), parts.payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', parts.amzDate, scope, sha256(canonicalRequest)].join('\n');
  const expected = hmac(signingKey(S3_SECRET_KEY, date, region, service), stringToSign);
  const given = Buffer.from(parts.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function s3Error(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/** Starts s3rver with one bucket and the verifying gateway in front of it, both on loopback port 0. */
export async function startTestS3(bucket = 'hearth-media'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'hearth-s3rver-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port: s3Port } = await s3rver.run();
  const requests: SeenRequest[] = [];
  const acls = new Map<string, string>();
  const state: { failPuts: RegExp | null } = { failPuts: null };

  const gateway: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const parts = signatureParts(req, url);
    const auth = parts === null ? 'none' : req.headers.authorization ? 'header' : 'query';
    const acl = typeof req.headers['x-amz-acl'] === 'string' ? req.headers['x-amz-acl'] : null;
    const record = (status: number) => requests.push({ method: req.method ?? '', path: url.pathname, auth, acl, status });
    if (parts !== null && !signatureValid(req, url, parts)) {
      record(403);
      req.resume();
      s3Error(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
      return;
    }
    const key = decodeURIComponent(url.pathname.replace(`/${bucket}/`, ''));
    if (req.method === 'PUT' && state.failPuts?.test(key)) {
      record(500);
      req.resume();
      s3Error(res, 500, 'InternalError', 'Injected failure');
      return;
    }
    if (parts === null && (req.method === 'GET' || req.method === 'HEAD') && acls.get(key) !== 'public-read') {
      record(403);
      s3Error(res, 403, 'AccessDenied', 'Access Denied');
      return;
    }
    const headers = { ...req.headers };
    delete headers.expect;
    const upstream = httpRequest({ host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers }, (answer) => {
      record(answer.statusCode ?? 0);
      if (req.method === 'PUT' && (answer.statusCode ?? 0) < 300 && !url.searchParams.has('uploadId')) acls.set(key, acl ?? 'private');
      if (req.method === 'DELETE' && (answer.statusCode ?? 0) < 300) acls.delete(key);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => s3Error(res, 502, 'BadGateway', 'upstream failed'));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const { port } = gateway.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    requests,
    acls,
    get failPuts() {
      return state.failPuts;
    },
    set failPuts(pattern: RegExp | null) {
      state.failPuts = pattern;
    },
    async close() {
      const closed = new Promise<void>((resolve) => gateway.close(() => resolve()));
      gateway.closeAllConnections();
      await closed;
      await s3rver.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The environment that points a Hearth at a test S3 server (path-style, the gateway's credentials). */
export function s3EnvOf(s3: TestS3, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    UPLOAD_PROVIDER: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_REGION,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: S3_ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: S3_SECRET_KEY,
    S3_FORCE_PATH_STYLE: 'true',
    ...extra,
  };
}
