import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRANSFER_ASSET_CHUNK_BYTES, TRANSFER_BATCH_MAX_BYTES } from '../limits.js';
import type { Services } from '../services.js';
import { stageStrapiArchive } from '../strapi-archive/export.js';
import { stageLines } from '../strapi-archive/jsonl.js';
import { isRecord, isStage, metadata, ThenRun, transferError, type Channel, type Provider, type TransferStage } from './protocol.js';
import { schemasByUid } from './schemas.js';

/**
 * The pull side (`strapi transfer --from`): Hearth is the source. At `bootstrap` the content is
 * staged once as a Strapi archive's unpacked tree (what `hearth export --format strapi` packs, so
 * a pull and an archive hold the same lines), and each stage is sent from it in batches that
 * the client acknowledges one by one.
 */

const ORIGIN = 'local-source-provider';

interface Snapshot {
  readonly work: string;
  readonly dir: string;
}

/** One asset as the archive holds it: its file name and the metadata `strapi export` wrote beside it. */
interface Asset {
  readonly name: string;
  readonly metadata: Record<string, unknown>;
}

/** The archive's assets in Strapi's order: each file row, then its formats. */
async function assetsOf(dir: string): Promise<Asset[]> {
  const names = await readdir(join(dir, 'assets', 'uploads')).catch(() => [] as string[]);
  const out: Asset[] = [];
  for (const name of names) {
    const parsed: unknown = JSON.parse(await readFile(join(dir, 'assets', 'metadata', `${name}.json`), 'utf8').catch(() => '{}'));
    out.push({ name, metadata: isRecord(parsed) ? parsed : {} });
  }
  const rank = (a: Asset) => [Number(a.metadata.id ?? 0), a.metadata.type === undefined ? 0 : 1] as const;
  return out.sort((a, b) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1] || a.name.localeCompare(b.name));
}

/** The pull source of one transfer. */
export function createPullSource(deps: { services: Services; channel: Channel }): Provider {
  const { services, channel } = deps;
  const { config } = services;
  let snapshot: Promise<Snapshot> | null = null;

  const take = async (): Promise<Snapshot> => {
    const work = await mkdtemp(join(tmpdir(), 'hearth-transfer-pull-'));
    const dir = join(work, 'tree');
    await mkdir(dir);
    await stageStrapiArchive({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, schemasDir: config.schemasDir, stageDir: dir, mediaProvider: services.uploads.provider, progress: () => {} });
    return { work, dir };
  };
  const current = () => (snapshot ??= take());

  /** Sends `items` in batches of about TRANSFER_BATCH_MAX_BYTES, each acknowledged before the next. */
  async function streamLines(stage: Exclude<TransferStage, 'assets'>, id: string): Promise<void> {
    const { dir } = await current();
    let batch: unknown[] = [];
    let size = 0;
    const flush = async () => {
      if (batch.length > 0) await channel.confirm({ type: 'transfer', data: batch, ended: false, error: null, id });
      batch = [];
      size = 0;
    };
    for await (const { value } of stageLines(dir, stage)) {
      batch.push(value);
      size += JSON.stringify(value).length;
      if (size >= TRANSFER_BATCH_MAX_BYTES) await flush();
    }
    await flush();
  }

  /** One batch per file: its start, its bytes in base64 chunks, and its end with the sha256. */
  async function streamAssets(assets: readonly Asset[], id: string): Promise<void> {
    const { dir } = await current();
    for (const asset of assets) {
      const bytes = await readFile(join(dir, 'assets', 'uploads', asset.name));
      const assetID = randomUUID();
      const chunks: unknown[] = [{ action: 'start', assetID, data: { metadata: asset.metadata, filepath: join(config.dataDir, 'uploads', asset.name), filename: asset.name, stats: { size: bytes.length } } }];
      for (let at = 0; at < bytes.length; at += TRANSFER_ASSET_CHUNK_BYTES) {
        chunks.push({ action: 'stream', assetID, encoding: 'base64', data: bytes.subarray(at, at + TRANSFER_ASSET_CHUNK_BYTES).toString('base64') });
      }
      chunks.push({ action: 'end', assetID, checksum: { algorithm: 'sha256', value: createHash('sha256').update(bytes).digest('hex') } });
      await channel.confirm({ type: 'transfer', data: [chunks], ended: false, error: null, id });
    }
  }

  const run = (id: string, send: () => Promise<void>) => async () => {
    try {
      await send();
      await channel.confirm({ type: 'transfer', data: null, ended: true, error: null, id });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await channel.confirm({ type: 'transfer', data: null, ended: true, error: { code: 'Error', message, details: {} }, id });
    }
  };

  return {
    async action(action) {
      switch (action) {
        case 'bootstrap':
          await current();
          return null;
        case 'getMetadata':
          await channel.diagnostic('getting metadata', ORIGIN);
          return metadata(services.now());
        case 'getSchemas':
          await channel.diagnostic('getting schemas', ORIGIN);
          return schemasByUid(services.registry());
        case 'close':
        case 'rollback':
          return null;
        default:
          throw transferError('ProviderTransferError', `Invalid action provided: "${action}"`, { action });
      }
    },
    async step(action, step) {
      if (!isStage(step)) throw transferError('ProviderTransferError', `Invalid stage (${step}) provided for the current flow`);
      if (action === 'end') return { ok: true };
      if (action !== 'start') throw transferError('ProviderTransferError', `Invalid action provided: "${action}"`);
      await channel.diagnostic(`creating ${step} read stream`, ORIGIN);
      const id = randomUUID();
      if (step !== 'assets') return new ThenRun({ ok: true, id }, run(id, () => streamLines(step, id)));
      const { dir } = await current();
      const assets = await assetsOf(dir);
      let totalBytes = 0;
      for (const asset of assets) totalBytes += (await stat(join(dir, 'assets', 'uploads', asset.name))).size;
      return new ThenRun({ ok: true, id, totals: { totalBytes, totalCount: assets.length } }, run(id, () => streamAssets(assets, id)));
    },
    async dispose() {
      const taken = snapshot;
      snapshot = null;
      const done = await taken?.catch(() => null);
      if (done) await rm(done.work, { recursive: true, force: true });
    },
  };
}
