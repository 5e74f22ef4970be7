import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newDocumentId } from '../documents/index.js';
import type { Services } from '../services.js';
import { SAFE_ASSET, STRAPI_ARCHIVE_VERSION } from '../strapi-archive/export.js';
import { stageWriter, type StageWriter } from '../strapi-archive/jsonl-out.js';
import { schemaLines } from '../strapi-archive/schemas-out.js';
import { applyPush } from './apply.js';
import { isRecord, isStage, metadata, transferError, type Channel, type Provider, type TransferStage } from './protocol.js';
import { schemasByUid } from './schemas.js';

/**
 * The push side (`strapi transfer --to`): Hearth is the destination. The pushed stages are the
 * lines of a Strapi archive, so they are written as one (an unpacked `--format dir` tree, with
 * Hearth's own schemas, which the client has just checked against its own); at `close` the
 * colleague's archive importer builds a data dir from it and its content replaces the server's
 * in one transaction (apply.ts). Until then nothing of the server's content has changed.
 */

const ORIGIN = 'local-destination-provider';

interface Stats {
  started: number;
  finished: number;
}

interface AssetInFlight {
  readonly filename: string;
  readonly metadata: unknown;
}

/** A `stream` chunk's bytes: base64 text (assetEncoding base64), or a JSON-serialised Buffer. */
function bytesOf(item: Record<string, unknown>): Buffer {
  const { data } = item;
  if (typeof data === 'string') return Buffer.from(data, item.encoding === 'base64' ? 'base64' : 'utf8');
  if (isRecord(data) && data.type === 'Buffer' && Array.isArray(data.data)) return Buffer.from(data.data as number[]);
  throw transferError('ProviderTransferError', 'an asset chunk holds no bytes');
}

/** The push destination of one transfer. */
export function createPushDestination(deps: { services: Services; channel: Channel; options: unknown }): Provider {
  const { services, channel } = deps;
  let work: string | null = null;
  const writers = new Map<TransferStage, StageWriter>();
  const stats = new Map<TransferStage, Stats>();
  const assets = new Map<string, AssetInFlight>();
  const tree = () => {
    if (work === null) throw transferError('ProviderTransferError', 'beforeTransfer must come before the stages');
    return join(work, 'tree');
  };

  async function beforeTransfer(): Promise<null> {
    if (services.database.kind !== 'sqlite') throw transferError('ProviderTransferError', 'Hearth accepts a pushed transfer on SQLite only for now; import a Strapi export with hearth import --from-strapi instead');
    work ??= await mkdtemp(join(tmpdir(), 'hearth-transfer-push-'));
    const schemas = stageWriter(tree(), 'schemas');
    for (const line of schemaLines(services.registry())) await schemas.write(line);
    await schemas.end();
    await mkdir(join(tree(), 'assets', 'uploads'), { recursive: true });
    await mkdir(join(tree(), 'assets', 'metadata'), { recursive: true });
    return null;
  }

  async function streamAssets(items: readonly unknown[], counted: Stats): Promise<void> {
    for (const item of items) {
      if (!isRecord(item) || typeof item.assetID !== 'string') throw transferError('ProviderTransferError', 'an asset chunk needs an action and an assetID');
      if (item.action === 'start') {
        const data = isRecord(item.data) ? item.data : {};
        const filename = String(data.filename ?? '');
        if (!SAFE_ASSET.test(filename)) throw transferError('ProviderTransferError', `unusable asset file name ${JSON.stringify(filename)}`);
        // Bytes go to disk as they come: a large file is never held in memory whole.
        await writeFile(join(tree(), 'assets', 'uploads', filename), '', { flag: 'wx' }).catch(() => {
          throw transferError('ProviderTransferError', `asset ${filename} was sent twice`);
        });
        assets.set(item.assetID, { filename, metadata: data.metadata ?? null });
        counted.started++;
        continue;
      }
      const asset = assets.get(item.assetID);
      if (asset === undefined) throw transferError('ProviderTransferError', `asset ${item.assetID} was not started`);
      if (item.action === 'stream') await appendFile(join(tree(), 'assets', 'uploads', asset.filename), bytesOf(item));
      else if (item.action === 'end') {
        await writeFile(join(tree(), 'assets', 'metadata', `${asset.filename}.json`), JSON.stringify(asset.metadata));
        assets.delete(item.assetID);
        counted.finished++;
      }
    }
  }

  async function streamLines(stage: TransferStage, items: readonly unknown[], counted: Stats): Promise<void> {
    const writer = writers.get(stage);
    if (writer === undefined) throw transferError('ProviderTransferError', `You need to initialize the transfer stage (${stage}) before starting to stream data`);
    for (const item of items) {
      counted.started++;
      // A pushed entity may come without its documentId: each such row becomes a document of its own.
      const line = stage === 'entities' && isRecord(item) && isRecord(item.data) && typeof item.data.documentId !== 'string' ? { ...item, data: { ...item.data, documentId: newDocumentId() } } : item;
      await writer.write(line);
      counted.finished++;
    }
  }

  async function close(): Promise<null> {
    if (work === null) return null;
    for (const writer of writers.values()) await writer.end();
    writers.clear();
    await writeFile(join(tree(), 'metadata.json'), JSON.stringify({ createdAt: services.now().toISOString(), strapi: { version: STRAPI_ARCHIVE_VERSION } }));
    await channel.diagnostic('restoring the pushed content', ORIGIN);
    await applyPush({ services, tree: tree(), work });
    return null;
  }

  return {
    async action(action) {
      switch (action) {
        case 'bootstrap':
          await channel.diagnostic('validating options', ORIGIN);
          return null;
        case 'getMetadata':
          await channel.diagnostic('getting metadata', ORIGIN);
          return metadata(services.now());
        case 'getSchemas':
          await channel.diagnostic('getting schema', ORIGIN);
          return schemasByUid(services.registry());
        case 'beforeTransfer':
          return beforeTransfer();
        case 'close':
          return close();
        case 'rollback':
          return null;
        default:
          throw transferError('ProviderTransferError', `Invalid action provided: "${action}"`, { action });
      }
    },
    async step(action, step, data) {
      if (!isStage(step)) throw transferError('ProviderTransferError', `Invalid stage (${step}) provided for the current flow`);
      const counted = stats.get(step) ?? { started: 0, finished: 0 };
      if (action === 'start') {
        await channel.diagnostic(`creating ${step} write stream`, ORIGIN);
        if (step !== 'assets') writers.set(step, stageWriter(tree(), step));
        else tree();
        stats.set(step, { started: 0, finished: 0 });
        return { ok: true };
      }
      if (action === 'stream') {
        if (!Array.isArray(data)) throw transferError('ProviderTransferError', `a ${step} stream message needs a data array`);
        if (step === 'assets') await streamAssets(data, counted);
        else await streamLines(step, data, counted);
        return null;
      }
      if (action === 'end') return { ok: true, stats: counted };
      throw transferError('ProviderTransferError', `Invalid action provided: "${action}"`);
    },
    async dispose() {
      if (work !== null) await rm(work, { recursive: true, force: true });
      work = null;
    },
  };
}
