import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * How a worker thread of the server starts (read threads, the webhook send thread): its built
 * script beside the module that starts it (dist/server/, or the bundle, where each worker script
 * is an entry of its own), or its TypeScript source run through tsx (a source checkout: tests).
 */
export type WorkerScript = { readonly kind: 'file'; readonly url: URL } | { readonly kind: 'eval'; readonly code: string };

/** The script at `built` if it exists, else `source` through tsx; null when neither can run (a packaged app without it). */
export function workerScript(built: URL, source: URL): WorkerScript | null {
  if (existsSync(fileURLToPath(built))) return { kind: 'file', url: built };
  if (!existsSync(fileURLToPath(source))) return null;
  try {
    // A worker does not take `--import` hooks (Node 20): it registers tsx itself, then loads the source.
    const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { import?: { default?: string } } | string> };
    const entry = pkg.exports?.['./esm/api'];
    const api = typeof entry === 'object' ? entry.import?.default : undefined;
    if (api === undefined) return null;
    const apiUrl = pathToFileURL(join(dirname(manifest), api)).href;
    return { kind: 'eval', code: `import(${JSON.stringify(apiUrl)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); })` };
  } catch {
    return null;
  }
}

/** Starts a thread running `script` with `workerData`. */
export const startWorker = (script: WorkerScript, workerData: unknown): Worker =>
  script.kind === 'file' ? new Worker(script.url, { workerData }) : new Worker(script.code, { eval: true, workerData });
