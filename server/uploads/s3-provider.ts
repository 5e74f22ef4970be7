import { open } from 'node:fs/promises';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config.js';
import { isInlineSafe, isSafeKey, type PutObject, type StorageProvider } from './storage-provider.js';

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/** The URL prefix objects of the bucket are reachable at (path-style or virtual-hosted). */
export function bucketBaseUrl(config: S3Config): string {
  if (config.endpoint) {
    const endpoint = new URL(config.endpoint);
    const path = endpoint.pathname.replace(/\/+$/, '');
    return config.forcePathStyle
      ? `${endpoint.origin}${path}/${config.bucket}/`
      : `${endpoint.protocol}//${config.bucket}.${endpoint.host}${path}/`;
  }
  return config.forcePathStyle
    ? `https://s3.${config.region}.amazonaws.com/${config.bucket}/`
    : `https://${config.bucket}.s3.${config.region}.amazonaws.com/`;
}

/**
 * S3-compatible object storage (AWS SDK v3), Strapi's `aws-s3` provider. Objects are written with
 * the configured ACL; with `private`, every URL handed to a client is presigned for
 * `S3_SIGNED_URL_EXPIRES` seconds. Bodies are streamed from the temp file, never buffered.
 */
export function createS3Provider(deps: { config: S3Config }): StorageProvider {
  const { config } = deps;
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: streamed bodies then go out as plain PUTs that every
    // S3-compatible server understands (not aws-chunked with trailers).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const base = bucketBaseUrl(config);
  const checked = (key: string): string => {
    if (!isSafeKey(key, true)) throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
    return key;
  };

  return {
    name: 'aws-s3',
    supportsPaths: true,
    signsUrls: config.acl === 'private',
    async put(object: PutObject): Promise<string> {
      const key = checked(object.key);
      // Opened first so a missing source rejects here, before a request is on the wire.
      const handle = await open(object.source, 'r');
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: config.bucket,
            Key: key,
            Body: handle.createReadStream({ autoClose: false }),
            ContentLength: object.size,
            ContentType: object.mime,
            ...(isInlineSafe(object.mime) ? {} : { ContentDisposition: 'attachment' }),
            ACL: config.acl,
          }),
        );
      } finally {
        await handle.close();
      }
      return `${base}${encodeKey(key)}`;
    },
    async remove(key: string): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: checked(key) }));
    },
    keyOf(url: string): string | null {
      const path = url.split('?')[0] ?? '';
      if (!path.startsWith(base)) return null;
      try {
        const key = path.slice(base.length).split('/').map(decodeURIComponent).join('/');
        return isSafeKey(key, true) ? key : null;
      } catch {
        return null;
      }
    },
    async readUrl(key: string): Promise<string> {
      if (config.acl !== 'private') return `${base}${encodeKey(checked(key))}`;
      return getSignedUrl(client, new GetObjectCommand({ Bucket: config.bucket, Key: checked(key) }), { expiresIn: config.signedUrlExpires });
    },
    close() {
      client.destroy();
    },
  };
}
