// `npm start` runs this before Electron: it makes sure better-sqlite3 is built for Electron's ABI in
// .electron-native/ (see scripts/native/electron-binding.ts). Usage: tsx scripts/electron-native.ts
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { checkElectronAbi, ensureElectronBinding, installedElectron, missingElectron, nodeGypCommand, runCommand, wantedElectron } from './native/electron-binding.js';

const projectRoot = resolve(import.meta.dirname, '..');
const requireFromProject = createRequire(join(projectRoot, 'package.json'));
const resolveFromProject = (request: string): string | null => {
  try {
    return requireFromProject.resolve(request);
  } catch {
    return null;
  }
};

const missing = missingElectron(projectRoot, wantedElectron(projectRoot));
if (missing !== null) {
  process.stderr.write(`${missing}\n`);
  process.exit(1);
}

try {
  const electron = installedElectron(projectRoot);
  const packageDir = dirname(requireFromProject.resolve('better-sqlite3/package.json'));
  // prebuild-install is better-sqlite3's own dependency: resolve it from there.
  const prebuildInstall = createRequire(join(packageDir, 'package.json')).resolve('prebuild-install/bin.js');
  const result = await ensureElectronBinding({
    projectRoot,
    packageDir,
    target: { electronVersion: electron.version, platform: process.platform, arch: process.arch },
    env: process.env,
    prebuildInstall: [process.execPath, prebuildInstall],
    nodeGyp: nodeGypCommand(process.env, resolveFromProject),
    run: runCommand,
    checkBinding: (file) => checkElectronAbi(file, electron.abi),
    log: (message) => process.stderr.write(`${message}\n`),
  });
  process.stderr.write(`better-sqlite3 for Electron ${electron.version}: ${result.path} (${result.origin})\n`);
} catch (err) {
  const reason = err instanceof Error ? err.message : String(err);
  process.stderr.write(`cannot prepare better-sqlite3 for Electron: ${reason}\n(this needs internet access once, to download a prebuilt binary or Electron's headers)\n`);
  process.exitCode = 1;
}
