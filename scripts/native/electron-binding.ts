// Builds better-sqlite3 for Electron's ABI into .electron-native/, next to (never over) the Node
// build in node_modules that `hearth serve` and the tests load.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { BINDING_FILE, electronBindingPath, type ElectronTarget } from '../../main/native-binding.js';

/** Where Electron publishes the headers node-gyp compiles against. */
export const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';

/** An external command: the program and the arguments before ours. */
export type Command = readonly [string, ...string[]];

/** Runs a command in a folder with an environment, output passed through; resolves with its exit code. */
export type Runner = (command: Command, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) => Promise<number>;

/** What producing the binding needs; `cli` wires the real ones. */
export interface BindingDeps {
  readonly projectRoot: string;
  /** node_modules/better-sqlite3: copied, never built in place. */
  readonly packageDir: string;
  readonly target: ElectronTarget;
  /** The environment the build tools start from (electronBuildEnv adjusts it). */
  readonly env: NodeJS.ProcessEnv;
  readonly prebuildInstall: Command;
  readonly nodeGyp: Command;
  readonly run: Runner;
  /** Throws unless the file is a module for Electron's ABI. */
  readonly checkBinding: (file: string) => void;
  readonly log: (message: string) => void;
}

/** How the binding came to be: already there, downloaded prebuilt, or compiled from source. */
export type BindingOrigin = 'present' | 'prebuilt' | 'compiled';

/** The Electron version from `node_modules/electron/package.json`'s text. */
export function parseElectronVersion(packageJson: string): string {
  const parsed: unknown = JSON.parse(packageJson);
  const version = typeof parsed === 'object' && parsed !== null && 'version' in parsed ? parsed.version : undefined;
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+(?:-[\w.]+)?$/.test(version)) throw new Error('node_modules/electron/package.json has no usable version');
  return version;
}

/** The Electron version package.json asks for (its optionalDependencies range, without `^`/`~`). */
export function wantedElectron(projectRoot: string): string {
  const manifest: unknown = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
  const optional = typeof manifest === 'object' && manifest !== null && 'optionalDependencies' in manifest ? manifest.optionalDependencies : undefined;
  const range = typeof optional === 'object' && optional !== null && 'electron' in optional ? optional.electron : undefined;
  return typeof range === 'string' ? range.replace(/^[\^~]/, '') : 'latest';
}

/**
 * Why `electron .` cannot run here, in one line, or null when Electron and its binary are installed.
 * `electron` is an optional dependency: npm drops the package when its postinstall cannot download
 * the binary, and ELECTRON_SKIP_BINARY_DOWNLOAD keeps the package without it (no `path.txt`).
 */
export function missingElectron(projectRoot: string, wanted: string): string | null {
  const packageDir = join(projectRoot, 'node_modules', 'electron');
  const howTo = 'on a machine that reaches github.com (or with ELECTRON_MIRROR set); `npm run serve` runs Hearth without it';
  if (!existsSync(join(packageDir, 'package.json'))) {
    return `Electron is not installed (npm could not download its binary): run \`npm install --no-save electron@${wanted}\` ${howTo}`;
  }
  const pathFile = join(packageDir, 'path.txt');
  const binary = existsSync(pathFile) ? join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim()) : null;
  if (binary === null || !existsSync(binary)) {
    return `Electron's binary is missing (its download was skipped or failed): run \`node node_modules/electron/install.js\` ${howTo}`;
  }
  return null;
}

/** The installed Electron's version and ABI (the ABI from the `abi_version` file electron ships, if present). */
export function installedElectron(projectRoot: string): { readonly version: string; readonly abi: string | null } {
  const manifest = createRequire(join(projectRoot, 'package.json')).resolve('electron/package.json');
  const abiFile = join(dirname(manifest), 'abi_version');
  const abi = existsSync(abiFile) ? readFileSync(abiFile, 'utf8').trim() : '';
  return { version: parseElectronVersion(readFileSync(manifest, 'utf8')), abi: /^\d+$/.test(abi) ? abi : null };
}

/** prebuild-install's arguments for an Electron prebuilt binary. */
export function prebuildInstallArgs(target: ElectronTarget): string[] {
  return ['--runtime', 'electron', '--target', target.electronVersion, '--arch', target.arch, '--platform', target.platform];
}

/** node-gyp's arguments for a release build against Electron's headers. */
export function nodeGypArgs(target: ElectronTarget): string[] {
  return ['rebuild', '--release', '--runtime=electron', `--target=${target.electronVersion}`, `--arch=${target.arch}`, `--dist-url=${ELECTRON_HEADERS_URL}`];
}

/** node-gyp: npm's own (which `npm run` names in npm_config_node_gyp), else the project's, else the PATH's. */
export function nodeGypCommand(env: NodeJS.ProcessEnv, resolveFromProject: (request: string) => string | null): Command {
  const script = env.npm_config_node_gyp || resolveFromProject('node-gyp/bin/node-gyp.js');
  return script ? [process.execPath, script] : ['node-gyp'];
}

/**
 * The build tools' environment: npm's settings name Electron as the runtime, and a `nodedir`
 * setting (an .npmrc `nodedir=/usr` reaches node-gyp as npm_config_nodedir) is dropped, since it
 * makes node-gyp compile against the local Node's headers and silently produce a Node build.
 */
export function electronBuildEnv(env: NodeJS.ProcessEnv, target: ElectronTarget): NodeJS.ProcessEnv {
  const kept = Object.entries(env).filter(([name]) => name.toLowerCase() !== 'npm_config_nodedir');
  return {
    ...Object.fromEntries(kept),
    npm_config_runtime: 'electron',
    npm_config_target: target.electronVersion,
    npm_config_arch: target.arch,
    npm_config_disturl: ELECTRON_HEADERS_URL,
  };
}

/** Whether a path inside the package is its Node build output (`build/`), which the copy leaves out. */
export function isBuildOutput(packageDir: string, path: string): boolean {
  const rel = relative(packageDir, path);
  return rel === 'build' || rel.startsWith(`build${sep}`);
}

/** The module version a Node `require` error names first: the one the file was compiled for. */
export function abiInLoadError(stderr: string): string | null {
  return /NODE_MODULE_VERSION (\d+)/.exec(stderr)?.[1] ?? null;
}

/**
 * Loads the file in a plain Node child: an Electron build must fail there, naming Electron's ABI.
 * This catches the failure mode where a "rebuild for Electron" silently produced a Node build.
 */
export function checkElectronAbi(file: string, electronAbi: string | null): void {
  const result = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(file)})`], { encoding: 'utf8' });
  if (result.status === 0) throw new Error(`${file} loads in Node ${process.version}: it was built for Node's ABI, not Electron's`);
  const abi = abiInLoadError(result.stderr);
  if (abi === null) throw new Error(`${file} is not a loadable module: ${result.stderr.trim().split('\n')[0] ?? ''}`);
  if (electronAbi !== null && abi !== electronAbi) throw new Error(`${file} is built for ABI ${abi}, Electron needs ${electronAbi}`);
}

/** Runs a command with inherited output. */
export const runCommand: Runner = (command, args, cwd, env) =>
  new Promise((resolve, reject) => {
    const [program, ...leading] = command;
    const child = spawn(program, [...leading, ...args], { cwd, env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });

async function buildInCopy(deps: BindingDeps, copy: string): Promise<{ file: string; origin: 'prebuilt' | 'compiled' }> {
  const file = join(copy, 'build', 'Release', BINDING_FILE);
  const env = electronBuildEnv(deps.env, deps.target);
  deps.log(`better-sqlite3: looking for a prebuilt binary for Electron ${deps.target.electronVersion}`);
  if ((await deps.run(deps.prebuildInstall, prebuildInstallArgs(deps.target), copy, env)) === 0 && existsSync(file)) return { file, origin: 'prebuilt' };
  deps.log('better-sqlite3: no prebuilt binary; compiling against Electron headers with node-gyp');
  const code = await deps.run(deps.nodeGyp, nodeGypArgs(deps.target), copy, env);
  if (code !== 0 || !existsSync(file)) throw new Error(`node-gyp could not build better-sqlite3 for Electron ${deps.target.electronVersion} (exit ${code})`);
  return { file, origin: 'compiled' };
}

/**
 * Makes sure `.electron-native/<version>-<platform>-<arch>/better_sqlite3.node` exists: builds it in a
 * temporary copy of the package, checks its ABI, then moves it into place in one rename.
 */
export async function ensureElectronBinding(deps: BindingDeps): Promise<{ readonly path: string; readonly origin: BindingOrigin }> {
  const dest = electronBindingPath(deps.projectRoot, deps.target);
  if (existsSync(dest)) return { path: dest, origin: 'present' };
  const work = await mkdtemp(join(tmpdir(), 'hearth-electron-native-'));
  try {
    const copy = join(work, 'better-sqlite3');
    await cp(deps.packageDir, copy, { recursive: true, filter: (path) => !isBuildOutput(deps.packageDir, path) });
    const built = await buildInCopy(deps, copy);
    deps.checkBinding(built.file);
    await mkdir(dirname(dest), { recursive: true });
    const partial = `${dest}.${process.pid}.partial`;
    await copyFile(built.file, partial);
    await rename(partial, dest);
    return { path: dest, origin: built.origin };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
