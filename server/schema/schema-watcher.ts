import { watch, type FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { extname, join } from 'node:path';

/** A running watch of a schemas folder. */
export interface SchemaWatch {
  /** Watches the folder afresh: after a change wrote new folders (a new type), so a watch that missed them sees them. */
  refresh(): void;
  close(): void;
}

/** Changes that may concern a schema: JSON files and folders (no extension); editors' swap files are ignored. */
function concernsSchemas(fileName: string | null): boolean {
  if (fileName === null) return true;
  const ext = extname(fileName);
  return ext === '' || ext === '.json';
}

/**
 * Watches `<root>/src` (recursively; a Strapi project root's `node_modules` stays unwatched) and
 * calls `onChange` once the folder has been quiet for `debounceMs` after a change. The builder's
 * own writes trigger it too: the reload then finds nothing new and does nothing.
 */
export async function watchSchemas(args: {
  root: string;
  debounceMs: number;
  onChange: () => Promise<void>;
  log: (message: string) => void;
}): Promise<SchemaWatch> {
  const dir = join(args.root, 'src');
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const fire = () => {
    timer = null;
    if (!closed) void args.onChange().catch((err: unknown) => args.log(`schemas: reload failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  const open = (): FSWatcher => {
    const next = watch(dir, { recursive: true, persistent: false });
    next.on('change', (_event, fileName) => {
      if (!concernsSchemas(typeof fileName === 'string' ? fileName : null)) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(fire, args.debounceMs);
    });
    next.on('error', (err) => args.log(`schemas: watching ${dir} failed: ${err.message}`));
    return next;
  };
  let watcher: FSWatcher;
  try {
    await mkdir(dir, { recursive: true });
    watcher = open();
  } catch (err) {
    args.log(`schemas: not watching ${dir} for changes: ${err instanceof Error ? err.message : String(err)}`);
    return { refresh: () => undefined, close: () => undefined };
  }
  return {
    refresh() {
      if (closed) return;
      try {
        const next = open();
        watcher.close();
        watcher = next;
      } catch (err) {
        args.log(`schemas: watching ${dir} again failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      watcher.close();
    },
  };
}
