import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compileFunction } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BRIDGE_KEY, CHANNELS } from '../../main/channels.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PRELOAD_SOURCE = join(ROOT, 'main', 'preload.cts');

function mainConfig(): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.main.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error('cannot read tsconfig.main.json');
  return parsed;
}

/** The preload as tsconfig.main.json compiles it. */
function compiledPreload(): string {
  const { options } = mainConfig();
  return ts.transpileModule(readFileSync(PRELOAD_SOURCE, 'utf8'), { compilerOptions: options, fileName: PRELOAD_SOURCE }).outputText;
}

interface Exposed {
  readonly key: string;
  readonly api: unknown;
}

/**
 * Runs the compiled preload the way Electron runs a sandboxed preload: a function of
 * (require, process, exports, module) whose require knows only 'electron'.
 */
function runPreload(reply: (channel: string) => Promise<unknown>) {
  const exposed: Exposed[] = [];
  const invoked: unknown[][] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push({ key, api }) },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => {
        invoked.push([channel, ...args]);
        return reply(channel);
      },
    },
  };
  const preloadRequire = (name: string) => {
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name}`);
  };
  const exports = {};
  const run = compileFunction(compiledPreload(), ['require', 'process', 'exports', 'module'], { filename: 'preload.cjs' });
  run(preloadRequire, {}, exports, { exports });
  return { exposed, invoked };
}

/** The bridge's functions, checked to be functions (the renderer calls nothing else). */
function bridgeOf(exposed: readonly Exposed[]): Record<string, (...args: unknown[]) => Promise<unknown>> {
  expect(exposed).toHaveLength(1);
  const first = exposed[0];
  if (first === undefined) throw new Error('nothing was exposed');
  const { key, api } = first;
  expect(key).toBe(BRIDGE_KEY);
  if (typeof api !== 'object' || api === null) throw new Error('the bridge is not an object');
  const functions: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, value] of Object.entries(api)) {
    if (typeof value !== 'function') throw new Error(`bridge.${name} is not a function`);
    functions[name] = (...args) => Promise.resolve(Reflect.apply(value, api, args));
  }
  return functions;
}

describe('preload contract (window.hearthDesktop)', () => {
  it('exposes exactly getLaunchSecret and openDataFolder', () => {
    const { exposed } = runPreload(() => Promise.resolve(undefined));
    expect(Object.keys(bridgeOf(exposed)).sort()).toEqual(['getLaunchSecret', 'openDataFolder']);
  });

  it.each(Object.entries(CHANNELS))('%s invokes its own channel %s, with no arguments', async (name, channel) => {
    const { exposed, invoked } = runPreload(() => Promise.resolve('s3cret'));
    await bridgeOf(exposed)[name]?.('ignored', 'arguments');
    expect(invoked).toEqual([[channel]]);
  });

  it('uses a distinct channel per function', () => {
    expect(new Set(Object.values(CHANNELS)).size).toBe(Object.keys(CHANNELS).length);
  });

  it('getLaunchSecret resolves the secret main answers with', async () => {
    const { exposed } = runPreload((channel) => Promise.resolve(channel === CHANNELS.getLaunchSecret ? 's3cret' : null));
    await expect(bridgeOf(exposed).getLaunchSecret?.()).resolves.toBe('s3cret');
  });

  it('getLaunchSecret rejects anything but a string', async () => {
    const { exposed } = runPreload(() => Promise.resolve({ secret: 's3cret' }));
    await expect(bridgeOf(exposed).getLaunchSecret?.()).rejects.toThrow('the desktop app sent no launch secret');
  });

  it("openDataFolder resolves with nothing, and passes main's refusal on", async () => {
    const ok = runPreload(() => Promise.resolve('whatever main returned'));
    await expect(bridgeOf(ok.exposed).openDataFolder?.()).resolves.toBeUndefined();
    const refused = runPreload(() => Promise.reject(new Error('cannot open /data: Failed to open path')));
    await expect(bridgeOf(refused.exposed).openDataFolder?.()).rejects.toThrow('Failed to open path');
  });
});

describe('preload build', () => {
  it('is emitted as CommonJS dist/main/preload.cjs next to the ESM main, which package.json names', () => {
    const config = mainConfig();
    const [preloadOut] = ts.getOutputFileNames(config, PRELOAD_SOURCE, false);
    const [mainOut] = ts.getOutputFileNames(config, join(ROOT, 'main', 'main.ts'), false);
    expect(preloadOut).toBe(join(ROOT, 'dist', 'main', 'preload.cjs'));
    expect(mainOut).toBe(join(ROOT, 'dist', 'main', 'main.js'));
    expect(dirname(preloadOut ?? '')).toBe(dirname(mainOut ?? ''));
    const pkg: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ type: 'module', main: 'dist/main/main.js' });
    const code = compiledPreload();
    expect(code).toContain('require("electron")');
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
  });
});
