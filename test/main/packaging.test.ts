import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { iconOutputs } from '../../scripts/render-icons.js';
import { isRecord } from '../../server/errors/is-record.js';

const ROOT = resolve(import.meta.dirname, '../..');
// electron-builder's own configuration loader, validator and glob matcher (app-builder-lib is its engine).
const requireBuilder = createRequire(createRequire(join(ROOT, 'package.json')).resolve('electron-builder'));
const requireAppBuilder = createRequire(requireBuilder.resolve('app-builder-lib'));

type Config = Record<string, unknown>;

function loadFunction(module: unknown, name: string): (...args: unknown[]) => unknown {
  const fn: unknown = isRecord(module) ? module[name] : undefined;
  if (typeof fn !== 'function') throw new Error(`app-builder-lib has no ${name}()`);
  return (...args) => Reflect.apply(fn, module, args);
}

async function builderConfig(): Promise<Config> {
  const configModule: unknown = requireAppBuilder('app-builder-lib/out/util/config/config');
  const config = await loadFunction(configModule, 'getConfig')(ROOT, null, null);
  if (!isRecord(config)) throw new Error('electron-builder read no configuration');
  return config;
}

/** Whether electron-builder's matcher (minimatch, dot files included) takes `path` for `pattern`. */
function matches(pattern: string, path: string): boolean {
  const minimatch = loadFunction(requireAppBuilder('minimatch'), 'minimatch');
  return minimatch(path, pattern, { dot: true }) === true;
}

function packageJson(): { main: string; scripts: Record<string, string> } {
  const pkg: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  if (!isRecord(pkg) || typeof pkg.main !== 'string' || !isRecord(pkg.scripts)) throw new Error('package.json lacks main or scripts');
  const scripts: Record<string, string> = {};
  for (const [name, body] of Object.entries(pkg.scripts)) if (typeof body === 'string') scripts[name] = body;
  return { main: pkg.main, scripts };
}

/** A script's text with every `npm run X` it calls expanded, recursively. */
function expandScript(scripts: Record<string, string>, name: string, seen = new Set<string>()): string {
  const body = scripts[name];
  if (body === undefined || seen.has(name)) return '';
  seen.add(name);
  const called = [...body.matchAll(/npm run ([\w:.-]+)/g)].map((m) => expandScript(scripts, m[1] ?? '', seen));
  return [body, ...called].join('\n');
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    const config = await builderConfig();
    const validate = loadFunction(requireAppBuilder('app-builder-lib/out/util/config/config'), 'validateConfiguration');
    const debugLogger = { isEnabled: false, add: () => {} };
    await expect(Promise.resolve(validate(config, debugLogger))).resolves.toBeUndefined();
    // The validator is live: a misplaced option is refused.
    await expect(Promise.resolve(validate({ ...config, linux: { ...(isRecord(config.linux) ? config.linux : {}), oneClick: true } }, debugLogger))).rejects.toThrow(/Invalid configuration object/);
  });

  it('names the app and builds AppImage + deb, dmg (and the zip macOS updates install from) and nsis', async () => {
    const config = await builderConfig();
    expect(config).toMatchObject({
      appId: 'dev.hearth.desktop',
      productName: 'Hearth',
      directories: { output: 'release', buildResources: 'resources' },
      linux: { target: ['AppImage', 'deb'], icon: 'icons' },
      mac: { target: ['dmg', 'zip'], icon: 'icon.png' },
      win: { target: ['nsis'], icon: 'icon.png' },
      npmRebuild: true,
    });
  });

  it('names the Electron version package-lock.json pins, and leaves Electron itself out of the app', async () => {
    const config = await builderConfig();
    const lock: unknown = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    expect(lock).toMatchObject({ packages: { 'node_modules/electron': { version: config.electronVersion, optional: true } } });
    // `!pattern` excludes what `pattern` matches: Electron's binary and nothing else.
    expect(matches('**/node_modules/electron/**', 'node_modules/electron/dist/electron')).toBe(true);
    expect(matches('**/node_modules/electron/**', 'node_modules/electron-updater/out/main.js')).toBe(false);
  });

  it("publishes to GitHub releases as drafts, owner and repo left to the release workflow or the git remote", async () => {
    // .github/workflows/release.yml passes the repository it runs in (test/main/release-workflow.test.ts).
    expect((await builderConfig()).publish).toEqual({ provider: 'github', releaseType: 'draft' });
  });

  it('ships electron-updater with the app: a production dependency, not excluded with Electron', () => {
    const pkg: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ dependencies: { 'electron-updater': expect.any(String) } });
    expect(isRecord(pkg) && isRecord(pkg.devDependencies) && 'electron-updater' in pkg.devDependencies).toBe(false);
    expect(matches('**/node_modules/electron/**', 'node_modules/electron-updater/out/main.js')).toBe(false);
  });

  it('ships the compiled app, the CLI and package.json', async () => {
    // electron-builder normalises the list into one filter set.
    expect((await builderConfig()).files).toEqual([{ filter: ['dist/**/*', 'bin/**/*', 'package.json', '!**/node_modules/electron/**'] }]);
    const { main } = packageJson();
    expect(['dist/**/*', 'bin/**/*', 'package.json'].some((p) => matches(p, main))).toBe(true);
    expect(matches('dist/**/*', 'dist/main/preload.cjs')).toBe(true);
    expect(matches('dist/**/*', 'dist/renderer/index.html')).toBe(true);
  });

  it.each([
    'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    'node_modules/sharp/lib/sharp.js',
    'node_modules/@img/sharp-linux-x64/lib/sharp-linux-x64.node',
    'node_modules/@img/sharp-libvips-linux-x64/lib/libvips-cpp.so.8.18.7',
  ])('unpacks %s from app.asar', async (path) => {
    const unpack = (await builderConfig()).asarUnpack;
    if (!Array.isArray(unpack)) throw new Error('asarUnpack is not a list');
    expect(unpack.some((pattern) => typeof pattern === 'string' && matches(pattern, path))).toBe(true);
  });

  it('keeps ordinary JavaScript inside app.asar', async () => {
    const unpack = (await builderConfig()).asarUnpack;
    if (!Array.isArray(unpack)) throw new Error('asarUnpack is not a list');
    expect(unpack.some((pattern) => typeof pattern === 'string' && matches(pattern, 'node_modules/better-sqlite3/lib/index.js'))).toBe(false);
  });
});

describe('package.json scripts', () => {
  it('never packages or rebuilds for Electron during npm ci or npm test', () => {
    const { scripts } = packageJson();
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare', 'pretest', 'test', 'posttest']) {
      expect(expandScript(scripts, hook)).not.toMatch(/electron-builder|electron-rebuild|install-app-deps|@electron\/rebuild|electron-native/);
    }
  });

  it('start builds main, prepares the Electron build of better-sqlite3, then runs Electron', () => {
    const { scripts } = packageJson();
    expect(scripts.start).toBe('npm run build:main && tsx scripts/electron-native.ts && electron .');
    expect(scripts['build:main']).toBe('tsc -p tsconfig.main.json');
    expect(scripts.dist).toMatch(/ && electron-builder$/);
    expect(expandScript(scripts, 'dist')).toContain('tsc -p tsconfig.main.json');
  });

  it('git ignores the Electron builds and the installers', () => {
    const ignored = readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.electron-native/', 'release/']));
  });
});

describe('icons', () => {
  it.each(iconOutputs(join(ROOT, 'resources')))('$file is a $size px square PNG with transparent corners', async ({ size, file }) => {
    const image = sharp(file);
    expect(await image.metadata()).toMatchObject({ format: 'png', width: size, height: size, hasAlpha: true });
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
    const centre = (Math.floor(size / 2) * info.width + Math.floor(size / 2)) * info.channels;
    expect(data[centre + 3]).toBe(255);
  });
});
