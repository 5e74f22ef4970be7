import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { MiB, log, median, messageOf } from './common.js';
import { send } from './http.js';
import type { UploadFigures, UploadOutcome } from './report.js';
import { memoryOf, resetPeak, type HearthProcess } from './server.js';

const CHUNK = randomBytes(1024 * 1024);

export interface UploadResult {
  readonly status: number;
  readonly ms: number;
  /** The answer's body (at most 64 kB). */
  readonly body: string;
}

/**
 * POST /api/upload with one `files` part of `size` bytes, streamed (never held in memory): random
 * bytes, so the server cannot recognise or compress them.
 */
export function uploadOnce(origin: string, token: string, size: number, filename: string): Promise<UploadResult> {
  const boundary = `----hearthbench${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const t0 = performance.now();
  return new Promise((done, fail) => {
    let answered = false;
    /** Wakes the writer waiting for 'drain' (also on an early answer or a closed socket). */
    let wake: (() => void) | null = null;
    const req = request(`${origin}/api/upload`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('response', (res) => {
      answered = true;
      wake?.();
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        done({ status: res.statusCode ?? 0, ms: performance.now() - t0, body: Buffer.concat(chunks).toString('utf8').slice(0, 65_536) });
        req.destroy();
      });
    });
    req.on('error', (err) => {
      wake?.();
      if (!answered) fail(err);
    });
    req.on('close', () => wake?.());
    const drained = () =>
      new Promise<void>((ok) => {
        const done = () => {
          req.off('drain', done);
          wake = null;
          ok();
        };
        wake = done;
        req.on('drain', done);
      });
    void (async () => {
      req.write(head);
      let left = size;
      while (left > 0 && !answered && !req.destroyed) {
        const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) await drained();
      }
      if (!answered && !req.destroyed) req.end(tail);
    })().catch(fail);
  });
}

export interface UploadRun {
  readonly result: UploadResult;
  /** Server RSS right before the upload (bytes). */
  readonly rssBefore: number;
  /** Highest server RSS during the upload minus rssBefore (bytes). */
  readonly rssGrowth: number;
}

/** One upload while watching the server's RSS (sampled every 20 ms, plus VmHWM when it can be reset). */
export async function uploadWatched(origin: string, token: string, pid: number, size: number, filename: string): Promise<UploadRun> {
  const peakReset = await resetPeak(pid);
  const rssBefore = (await memoryOf(pid)).rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    memoryOf(pid).then((m) => {
      peak = Math.max(peak, m.rss);
    }, () => undefined);
  }, 20);
  try {
    const result = await uploadOnce(origin, token, size, filename);
    const after = await memoryOf(pid);
    peak = Math.max(peak, after.rss, peakReset ? after.hwm : 0);
    return { result, rssBefore, rssGrowth: peak - rssBefore };
  } finally {
    clearInterval(sampler);
  }
}

/** ids of the file objects an upload answer lists (to delete them afterwards). */
export function uploadedIds(body: string): number[] {
  try {
    const parsed: unknown = JSON.parse(body);
    const list = Array.isArray(parsed) ? parsed : [];
    return list.map((f) => (typeof f === 'object' && f !== null ? Number((f as Record<string, unknown>).id) : NaN)).filter(Number.isInteger);
  } catch {
    return [];
  }
}

/** Whether POST /api/upload exists: a tiny upload that anything but 404 counts as "there". */
export async function uploadAvailable(origin: string, token: string): Promise<{ available: boolean; status: number; body: string }> {
  const r = await uploadOnce(origin, token, 16, 'probe.bin');
  return { available: r.status !== 404, status: r.status, body: r.body };
}

/**
 * The upload rows: five 50 MB uploads, then one of `bigUploadMb` (0: none), each watching the
 * server's RSS. `n/a` when POST /api/upload answers 404. Every file uploaded is deleted afterwards
 * (DELETE /api/upload/files/:id), so a reused data dir does not grow.
 */
export async function runUploads(hearth: HearthProcess, token: string, bigUploadMb: number): Promise<UploadOutcome> {
  let probe: { available: boolean; status: number; body: string };
  try {
    probe = await uploadAvailable(hearth.url, token);
  } catch (err) {
    return { available: true, small: null, big: null, error: `probe failed: ${messageOf(err)}` };
  }
  if (!probe.available) {
    log('upload: n/a (upload API not available)');
    return { available: false, status: probe.status };
  }
  const uploaded: number[] = uploadedIds(probe.body);
  const figures = async (sizeMb: number, runs: number): Promise<UploadFigures> => {
    const times: number[] = [];
    const statuses: number[] = [];
    let growth = 0;
    for (let k = 0; k < runs; k++) {
      const r = await uploadWatched(hearth.url, token, hearth.pid, sizeMb * MiB, `bench-${sizeMb}mb-${k}.bin`);
      if (r.result.status < 200 || r.result.status > 299) throw new Error(`upload of ${sizeMb} MB answered ${r.result.status}: ${r.result.body.slice(0, 300)}`);
      uploaded.push(...uploadedIds(r.result.body));
      times.push(r.result.ms);
      statuses.push(r.result.status);
      growth = Math.max(growth, r.rssGrowth);
      log(`  upload ${sizeMb} MB #${k + 1}: ${r.result.status} in ${r.result.ms.toFixed(0)} ms, RSS ${(r.rssBefore / MiB).toFixed(1)} MB + ${(r.rssGrowth / MiB).toFixed(1)} MB`);
    }
    const medianMs = median(times);
    return { sizeMb, runs, medianMs, mbPerSec: sizeMb / (medianMs / 1000), maxRssGrowth: growth, statuses };
  };
  let small: UploadFigures | null = null;
  let big: UploadFigures | null = null;
  try {
    small = await figures(50, 5);
    if (bigUploadMb > 0) big = await figures(bigUploadMb, 1);
    return { available: true, small, big, error: null };
  } catch (err) {
    log(`upload failed: ${messageOf(err)}`);
    return { available: true, small, big, error: messageOf(err) };
  } finally {
    for (const id of uploaded) await send(`${hearth.url}/api/upload/files/${id}`, { method: 'DELETE', token }).catch(() => undefined);
  }
}
