import { join } from 'node:path';

/** better-sqlite3's compiled addon, as its package and our Electron folder name it. */
export const BINDING_FILE = 'better_sqlite3.node';

/** The git-ignored folder, at the project root, that holds Electron-ABI builds of better-sqlite3. */
export const ELECTRON_NATIVE_DIR = '.electron-native';

/** Which Electron build a binding is for: its version and the machine's platform and CPU. */
export interface ElectronTarget {
  readonly electronVersion: string;
  readonly platform: string;
  readonly arch: string;
}

/** The folder of one Electron build: `.electron-native/<version>-<platform>-<arch>/`. */
export function electronNativeDir(projectRoot: string, target: ElectronTarget): string {
  return join(projectRoot, ELECTRON_NATIVE_DIR, `${target.electronVersion}-${target.platform}-${target.arch}`);
}

/** The Electron-ABI `better_sqlite3.node` that `npm start` prepares for a development run. */
export function electronBindingPath(projectRoot: string, target: ElectronTarget): string {
  return join(electronNativeDir(projectRoot, target), BINDING_FILE);
}

/** Where the desktop app finds better-sqlite3's addon: inside the package, or a file given to `nativeBinding`. */
export type BindingChoice =
  | { readonly kind: 'bundled' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'missing'; readonly path: string };

/** What the choice depends on: packaging, the project root, the running Electron and a file check. */
export interface BindingFacts {
  readonly isPackaged: boolean;
  readonly appRoot: string;
  readonly electronVersion: string | undefined;
  readonly platform: string;
  readonly arch: string;
  readonly exists: (path: string) => boolean;
}

/**
 * Packaged apps load the addon electron-builder rebuilt in place; a development run loads the
 * Electron build from `.electron-native/`, because node_modules holds the Node build the CLI and tests use.
 */
export function chooseNativeBinding(facts: BindingFacts): BindingChoice {
  if (facts.isPackaged) return { kind: 'bundled' };
  if (facts.electronVersion === undefined) throw new Error('not running under Electron: process.versions.electron is unset');
  const path = electronBindingPath(facts.appRoot, { electronVersion: facts.electronVersion, platform: facts.platform, arch: facts.arch });
  return facts.exists(path) ? { kind: 'file', path } : { kind: 'missing', path };
}
