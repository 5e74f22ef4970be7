import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronBindingPath } from '../../main/native-binding.js';
import {
  abiInLoadError,
  checkElectronAbi,
  ELECTRON_HEADERS_URL,
  electronBuildEnv,
  ensureElectronBinding,
  installedElectron,
  missingElectron,
  wantedElectron,
  isBuildOutput,
  nodeGypArgs,
  nodeGypCommand,
  parseElectronVersion,
  prebuildInstallArgs,
  type BindingDeps,
  type Command,
} from '../../scripts/native/electron-binding.js';

const ROOT = resolve(import.meta.dirname, '../..');
const target = { electronVersion: '41.7.1', platform: 'linux', arch: 'x64' };

describe('Electron version and ABI', () => {
  it('reads the version from electron/package.json', () => {
    expect(parseElectronVersion('{"name":"electron","version":"41.7.1"}')).toBe('41.7.1');
    expect(parseElectronVersion('{"version":"42.0.0-beta.3"}')).toBe('42.0.0-beta.3');
  });

  it.each(['{}', '{"version":41}', '{"version":"latest"}', '[]'])('rejects %s', (text) => {
    expect(() => parseElectronVersion(text)).toThrow(/no usable version/);
  });

  it('finds the installed Electron and the ABI it ships', async () => {
    const project = await electronProject({ version: '41.7.1', abi: '145' });
    expect(installedElectron(project)).toEqual({ version: '41.7.1', abi: '145' });
  });
});

/** A project folder whose node_modules/electron is in the state npm leaves it in. */
async function electronProject(electron: { version: string; abi: string; binary?: boolean } | null): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), 'hearth-electron-'));
  projects.push(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'x', optionalDependencies: { electron: '^41.7.1' } }));
  if (electron === null) return project;
  const dir = join(project, 'node_modules', 'electron');
  await mkdir(join(dir, 'dist'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'electron', version: electron.version }));
  await writeFile(join(dir, 'abi_version'), electron.abi);
  if (electron.binary === true) {
    await writeFile(join(dir, 'path.txt'), 'electron');
    await writeFile(join(dir, 'dist', 'electron'), '');
  }
  return project;
}
const projects: string[] = [];
afterEach(async () => {
  await Promise.all(projects.splice(0).map((p) => rm(p, { recursive: true, force: true })));
});

describe('npm start without Electron', () => {
  it('asks for the version package.json names', async () => {
    expect(wantedElectron(await electronProject(null))).toBe('41.7.1');
    const manifest: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ optionalDependencies: { electron: expect.stringMatching(/^\^?\d+\.\d+\.\d+$/) } });
  });

  it('says in one line how to install Electron when npm dropped the package', async () => {
    const line = missingElectron(await electronProject(null), '41.7.1');
    expect(line).toMatch(/^Electron is not installed .*`npm install --no-save electron@41\.7\.1`.*npm run serve/);
    expect(line).not.toContain('\n');
  });

  it('says in one line how to fetch the binary when only the package is there', async () => {
    const line = missingElectron(await electronProject({ version: '41.7.1', abi: '145' }), '41.7.1');
    expect(line).toMatch(/^Electron's binary is missing .*`node node_modules\/electron\/install\.js`/);
    expect(line).not.toContain('\n');
  });

  it('says nothing when the binary is installed', async () => {
    expect(missingElectron(await electronProject({ version: '41.7.1', abi: '145', binary: true }), '41.7.1')).toBeNull();
  });
});

describe('build commands', () => {
  it('asks prebuild-install for the Electron runtime, version, platform and CPU', () => {
    expect(prebuildInstallArgs(target)).toEqual(['--runtime', 'electron', '--target', '41.7.1', '--arch', 'x64', '--platform', 'linux']);
  });

  it("compiles with node-gyp against Electron's headers", () => {
    expect(nodeGypArgs(target)).toEqual(['rebuild', '--release', '--runtime=electron', '--target=41.7.1', '--arch=x64', `--dist-url=${ELECTRON_HEADERS_URL}`]);
  });

  it("prefers npm's node-gyp, then the project's, then the PATH's", () => {
    expect(nodeGypCommand({ npm_config_node_gyp: '/npm/node-gyp.js' }, () => '/p/node-gyp.js')).toEqual([process.execPath, '/npm/node-gyp.js']);
    expect(nodeGypCommand({}, () => '/p/node-gyp.js')).toEqual([process.execPath, '/p/node-gyp.js']);
    expect(nodeGypCommand({}, () => null)).toEqual(['node-gyp']);
  });

  it.each([
    ['build', true],
    ['build/Release/better_sqlite3.node', true],
    ['builder.js', false],
    ['lib/build', false],
    ['src/better_sqlite3.cpp', false],
  ])('%s is Node build output: %s', (rel, expected) => {
    expect(isBuildOutput('/nm/better-sqlite3', join('/nm/better-sqlite3', rel))).toBe(expected);
  });
});

describe('build environment', () => {
  it('names Electron and drops nodedir in any spelling, keeping the rest', () => {
    expect(electronBuildEnv({ PATH: '/bin', npm_config_nodedir: '/usr', NPM_CONFIG_NODEDIR: '/usr', npm_config_cache: '/c' }, target)).toEqual({
      PATH: '/bin',
      npm_config_cache: '/c',
      npm_config_runtime: 'electron',
      npm_config_target: '41.7.1',
      npm_config_arch: 'x64',
      npm_config_disturl: ELECTRON_HEADERS_URL,
    });
  });
});

describe('ABI check', () => {
  it('reads the ABI a module was built for from Node\'s refusal', () => {
    const stderr = "Error: The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 145. This version of Node.js requires\nNODE_MODULE_VERSION 115.";
    expect(abiInLoadError(stderr)).toBe('145');
    expect(abiInLoadError('invalid ELF header')).toBeNull();
  });

  it("rejects node_modules' own build: it loads in Node, so it is not Electron's", () => {
    const nodeBuild = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(() => checkElectronAbi(nodeBuild, '145')).toThrow(/built for Node's ABI, not Electron's/);
    expect(existsSync(nodeBuild)).toBe(true);
  });

  it('rejects a file that is no module at all', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-abi-'));
    try {
      const bogus = join(dir, 'better_sqlite3.node');
      await writeFile(bogus, 'not a shared object');
      expect(() => checkElectronAbi(bogus, '145')).toThrow(/is not a loadable module/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ensureElectronBinding (build steps faked, files real)', () => {
  let root: string;
  let packageDir: string;
  const runs: { program: string; args: readonly string[]; cwd: string; env: NodeJS.ProcessEnv; hadNodeBuild: boolean }[] = [];
  const checked: string[] = [];

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-native-'));
    packageDir = join(root, 'node_modules', 'better-sqlite3');
    await mkdir(join(packageDir, 'build', 'Release'), { recursive: true });
    await mkdir(join(packageDir, 'lib'), { recursive: true });
    await writeFile(join(packageDir, 'package.json'), '{"name":"better-sqlite3","version":"12.11.1"}');
    await writeFile(join(packageDir, 'lib', 'index.js'), 'module.exports = {};');
    await writeFile(join(packageDir, 'build', 'Release', 'better_sqlite3.node'), 'node build');
    runs.length = 0;
    checked.length = 0;
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** A runner where each named program "succeeds" by writing an addon, or fails. */
  function runner(outcomes: Record<'prebuild' | 'gyp', boolean>) {
    return async (command: Command, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) => {
      const which = command.includes('prebuild-install') ? 'prebuild' : 'gyp';
      runs.push({ program: which, args, cwd, env, hadNodeBuild: existsSync(join(cwd, 'build')) });
      expect(existsSync(join(cwd, 'lib', 'index.js'))).toBe(true);
      if (!outcomes[which]) return 1;
      await mkdir(join(cwd, 'build', 'Release'), { recursive: true });
      await writeFile(join(cwd, 'build', 'Release', 'better_sqlite3.node'), `electron build by ${which}`);
      return 0;
    };
  }

  function deps(outcomes: Record<'prebuild' | 'gyp', boolean>, overrides: Partial<BindingDeps> = {}): BindingDeps {
    return {
      projectRoot: root,
      packageDir,
      target,
      env: { PATH: '/usr/bin', npm_config_nodedir: '/usr' },
      prebuildInstall: ['node', 'prebuild-install'],
      nodeGyp: ['node', 'node-gyp.js'],
      run: runner(outcomes),
      checkBinding: (file) => void checked.push(readFileSync(file, 'utf8')),
      log: () => {},
      ...overrides,
    };
  }

  it('takes a prebuilt binary when there is one, built in a copy without the Node build', async () => {
    const result = await ensureElectronBinding(deps({ prebuild: true, gyp: true }));
    expect(result).toEqual({ path: electronBindingPath(root, target), origin: 'prebuilt' });
    expect(readFileSync(result.path, 'utf8')).toBe('electron build by prebuild');
    expect(runs.map((r) => [r.program, r.hadNodeBuild])).toEqual([['prebuild', false]]);
    expect(runs[0]?.args).toEqual(prebuildInstallArgs(target));
    expect(checked).toEqual(['electron build by prebuild']);
  });

  it('compiles with node-gyp when no prebuilt binary exists', async () => {
    const result = await ensureElectronBinding(deps({ prebuild: false, gyp: true }));
    expect(result.origin).toBe('compiled');
    expect(readFileSync(result.path, 'utf8')).toBe('electron build by gyp');
    expect(runs.map((r) => r.program)).toEqual(['prebuild', 'gyp']);
    expect(runs[1]?.args).toEqual(nodeGypArgs(target));
  });

  it("runs both tools in Electron's environment, without the nodedir that forces a Node build", async () => {
    await ensureElectronBinding(deps({ prebuild: false, gyp: true }));
    const expected = electronBuildEnv({ PATH: '/usr/bin', npm_config_nodedir: '/usr' }, target);
    expect(runs.map((r) => r.env)).toEqual([expected, expected]);
  });

  it("never touches node_modules' Node build, and removes its work folder", async () => {
    await ensureElectronBinding(deps({ prebuild: false, gyp: true }));
    expect(readFileSync(join(packageDir, 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe('node build');
    expect(runs.every((r) => !r.cwd.startsWith(packageDir) && !existsSync(r.cwd))).toBe(true);
  });

  it('does nothing when the Electron build is already there', async () => {
    await mkdir(join(root, '.electron-native', '41.7.1-linux-x64'), { recursive: true });
    await writeFile(electronBindingPath(root, target), 'earlier build');
    expect(await ensureElectronBinding(deps({ prebuild: true, gyp: true }))).toEqual({ path: electronBindingPath(root, target), origin: 'present' });
    expect(runs).toEqual([]);
  });

  it('fails, leaving nothing half-made, when neither way works', async () => {
    await expect(ensureElectronBinding(deps({ prebuild: false, gyp: false }))).rejects.toThrow('node-gyp could not build better-sqlite3 for Electron 41.7.1 (exit 1)');
    expect(existsSync(join(root, '.electron-native'))).toBe(false);
  });

  it('keeps a build that fails the ABI check out of .electron-native', async () => {
    const failing = deps({ prebuild: true, gyp: true }, { checkBinding: () => { throw new Error("built for Node's ABI"); } });
    await expect(ensureElectronBinding(failing)).rejects.toThrow("built for Node's ABI");
    expect(existsSync(electronBindingPath(root, target))).toBe(false);
  });
});
