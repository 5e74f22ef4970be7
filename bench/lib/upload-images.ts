import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { log, messageOf, MiB } from './common.js';
import { send } from './http.js';
import { writePngBomb } from './png-bomb.js';
import { memoryOf, resetPeak, type HearthProcess } from './server.js';
import { uploadedIds } from './upload.js';

/** One image-bomb row: `files` uploads of the same image sent at once. */
export interface ImageBombRun {
  readonly label: string;
  readonly fileBytes: number;
  readonly files: number;
  /** Until the last answer arrived. */
  readonly ms: number;
  readonly rssBefore: number;
  readonly rssPeak: number;
  readonly statuses: number[];
  /** The first answer's `Hearth-Notice` header (what was left out). */
  readonly notice: string | null;
}

/** The image-bomb rows, or why they could not be measured. */
export type ImageBombOutcome = { readonly runs: ImageBombRun[]; readonly error: string | null };

/** The bombs: over UPLOAD_MAX_IMAGE_PIXELS (stored undecoded) and under it (formats resized line by line). */
const CASES = [
  { label: '16000x16000 PNG bomb', width: 16000, height: 16000, files: [1, 3] },
  { label: '9000x9000 PNG (81 MP)', width: 9000, height: 9000, files: [1, 3] },
] as const;

async function uploadBytes(origin: string, token: string, bytes: Buffer, filename: string): Promise<{ status: number; notice: string | null; body: string }> {
  const body = new FormData();
  body.append('files', new Blob([bytes], { type: 'image/png' }), filename);
  const res = await fetch(`${origin}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
  return { status: res.status, notice: res.headers.get('hearth-notice'), body: await res.text() };
}

/**
 * Uploads decompression bombs (generated into `work`, under 1 MB each) one alone and three at
 * once, watching the server's RSS (sampled every 10 ms, plus VmHWM when it can be reset). Every
 * file uploaded is deleted afterwards.
 */
export async function runImageBombs(hearth: HearthProcess, token: string, work: string): Promise<ImageBombOutcome> {
  const runs: ImageBombRun[] = [];
  const uploaded: number[] = [];
  try {
    for (const c of CASES) {
      const path = join(work, `bomb-${c.width}x${c.height}.png`);
      await writePngBomb(path, c.width, c.height);
      const bytes = await readFile(path);
      for (const files of c.files) {
        const peakReset = await resetPeak(hearth.pid);
        const rssBefore = (await memoryOf(hearth.pid)).rss;
        let peak = rssBefore;
        const sampler = setInterval(() => {
          memoryOf(hearth.pid).then((m) => (peak = Math.max(peak, m.rss)), () => undefined);
        }, 10);
        const t0 = performance.now();
        let answers: Awaited<ReturnType<typeof uploadBytes>>[];
        try {
          answers = await Promise.all(Array.from({ length: files }, (_, k) => uploadBytes(hearth.url, token, bytes, `bomb-${k}.png`)));
        } finally {
          clearInterval(sampler);
        }
        const ms = performance.now() - t0;
        const after = await memoryOf(hearth.pid);
        peak = Math.max(peak, after.rss, peakReset ? after.hwm : 0);
        for (const a of answers) uploaded.push(...uploadedIds(a.body));
        const run = { label: c.label, fileBytes: bytes.length, files, ms, rssBefore, rssPeak: peak, statuses: answers.map((a) => a.status), notice: answers[0]?.notice ?? null };
        runs.push(run);
        log(`  ${c.label} x${files}: ${run.statuses.join('/')} in ${ms.toFixed(0)} ms, RSS ${(rssBefore / MiB).toFixed(1)} MB, peak ${(peak / MiB).toFixed(1)} MB`);
      }
    }
    return { runs, error: null };
  } catch (err) {
    log(`image bombs failed: ${messageOf(err)}`);
    return { runs, error: messageOf(err) };
  } finally {
    for (const id of uploaded) await send(`${hearth.url}/api/upload/files/${id}`, { method: 'DELETE', token }).catch(() => undefined);
  }
}
