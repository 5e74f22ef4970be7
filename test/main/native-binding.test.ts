import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseNativeBinding, electronBindingPath, electronNativeDir, type BindingFacts } from '../../main/native-binding.js';

const root = resolve('/opt/hearth-app');
const target = { electronVersion: '41.7.1', platform: 'linux', arch: 'x64' };

function facts(overrides: Partial<BindingFacts>): BindingFacts {
  return { isPackaged: false, appRoot: root, electronVersion: '41.7.1', platform: 'linux', arch: 'x64', exists: () => true, ...overrides };
}

describe('Electron build of better-sqlite3', () => {
  it('lives in .electron-native/<version>-<platform>-<arch>/, apart from node_modules', () => {
    expect(electronNativeDir(root, target)).toBe(join(root, '.electron-native', '41.7.1-linux-x64'));
    expect(electronBindingPath(root, target)).toBe(join(root, '.electron-native', '41.7.1-linux-x64', 'better_sqlite3.node'));
  });

  it('a packaged app uses the addon rebuilt inside the package (no nativeBinding)', () => {
    expect(chooseNativeBinding(facts({ isPackaged: true, electronVersion: undefined, exists: () => false }))).toEqual({ kind: 'bundled' });
  });

  it('a development run uses the Electron build when it exists', () => {
    const seen: string[] = [];
    const choice = chooseNativeBinding(facts({ exists: (p) => (seen.push(p), true) }));
    expect(choice).toEqual({ kind: 'file', path: electronBindingPath(root, target) });
    expect(seen).toEqual([electronBindingPath(root, target)]);
  });

  it('a development run reports the missing file rather than loading the Node build', () => {
    expect(chooseNativeBinding(facts({ exists: () => false, arch: 'arm64' }))).toEqual({
      kind: 'missing',
      path: join(root, '.electron-native', '41.7.1-linux-arm64', 'better_sqlite3.node'),
    });
  });

  it('refuses to guess outside Electron', () => {
    expect(() => chooseNativeBinding(facts({ electronVersion: undefined }))).toThrow(/not running under Electron/);
  });
});
