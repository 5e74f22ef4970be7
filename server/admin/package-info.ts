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
