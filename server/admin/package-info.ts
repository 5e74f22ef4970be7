import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package's root folder and version, found from this file whether it runs from `server/` or `dist/server/`. */
export interface PackageInfo {
  readonly root: string;
  readonly version: string;
}

/** Walks up from `start` to the first `package.json` named `hearth`. */
export function packageInfo(start: string = import.meta.dirname): PackageInfo {
  let dir = start;
  for (;;) {
    try {
      const manifest: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (typeof manifest === 'object' && manifest !== null && 'name' in manifest && manifest.name === 'hearth') {
        const version = 'version' in manifest && typeof manifest.version === 'string' ? manifest.version : '0.0.0';
        return { root: dir, version };
      }
    } catch {
      // No (readable) package.json here: keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) return { root: start, version: '0.0.0' };
    dir = parent;
  }
}

/** Where `npm run build` puts the admin UI: `<package root>/dist/renderer`. */
export const adminUiDirOf = (info: PackageInfo): string => join(info.root, 'dist', 'renderer');

/** How to run this install's `hearth` CLI from any folder (an AI assistant starting `hearth mcp`, a script). */
export interface CliCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * This install's CLI by absolute paths: the running Node (the desktop app's own binary, run as
 * Node) and `bin/hearth.js`. Never `npx hearth`: the npm package of that name is another project.
 */
export function cliCommand(info: PackageInfo, runtime: { execPath: string; electron: string | undefined } = { execPath: process.execPath, electron: process.versions.electron }): CliCommand {
  return { command: runtime.execPath, args: [join(info.root, 'bin', 'hearth.js')], env: runtime.electron === undefined ? {} : { ELECTRON_RUN_AS_NODE: '1' } };
}
