import { describe, expect, it } from 'vitest';
import type { MessageBoxPort } from '../../main/electron-ports.js';
import { createUpdates, RESTART_BUTTONS, updatePolicy, type UpdatePolicy } from '../../main/updater.js';
import { createUpdaterSource } from './fake-updater.js';

const ON: UpdatePolicy = { enabled: true };

/** A dialog whose message boxes the test answers one by one. */
function scriptedDialog() {
  const shown: MessageBoxPort[] = [];
  const answers: ((response: number) => void)[] = [];
  return {
    shown,
    showMessageBox(options: MessageBoxPort) {
      shown.push(options);
      return new Promise<{ response: number }>((resolve) => answers.push((response) => resolve({ response })));
    },
    /** Clicks button `response` of the oldest open box, then lets its handler run. */
    async answer(response: number) {
      const next = answers.shift();
      if (next === undefined) throw new Error('no message box is open');
      next(response);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

function setup(policy: UpdatePolicy = ON) {
  const source = createUpdaterSource();
  const dialog = scriptedDialog();
  const logs: string[] = [];
  const updates = createUpdates({ policy, updater: source.get, dialog, log: (m) => logs.push(m) });
  return { source, updater: source.updater, dialog, logs, updates };
}

describe('updatePolicy', () => {
  it.each([
    [true, {}, true],
    [true, { HEARTH_DATA: '' }, true],
    [false, {}, false],
    [true, { HEARTH_DATA: '/srv/hearth-test' }, false],
    [false, { HEARTH_DATA: '/srv/hearth-test' }, false],
  ])('isPackaged %s with env %j: enabled %s', (isPackaged, env, enabled) => {
    expect(updatePolicy({ isPackaged, env }).enabled).toBe(enabled);
  });

  it('names the reason updates are off', () => {
    expect(updatePolicy({ isPackaged: false, env: {} })).toEqual({ enabled: false, reason: 'Updates are off in development: this copy runs from source (npm start).' });
    expect(updatePolicy({ isPackaged: true, env: { HEARTH_DATA: '/srv/x' } })).toEqual({
      enabled: false,
      reason: 'Updates are off while HEARTH_DATA is set (data in /srv/x). Start Hearth without it to update.',
    });
  });
});

describe('the check on start', () => {
  it('downloads in the background and turns off install-on-quit before checking', async () => {
    const { updater, updates } = setup();
    await updates.checkOnStart();
    expect(updater).toMatchObject({ checks: 1, autoDownload: true, autoInstallOnAppQuit: false });
  });

  it('only logs a failure (offline is normal): no dialog', async () => {
    const { updater, updates, dialog, logs } = setup();
    updater.nextCheck = new Error('net::ERR_INTERNET_DISCONNECTED');
    await updates.checkOnStart();
    expect(logs).toEqual(['update check failed: net::ERR_INTERNET_DISCONNECTED']);
    expect(dialog.shown).toEqual([]);
  });

  it('does not even create the updater when updates are off', async () => {
    const { source, updates } = setup({ enabled: false, reason: 'off' });
    await updates.checkOnStart();
    expect(source.taken).toBe(0);
  });

  it("logs the updater's error events (an EventEmitter 'error' without a listener would throw)", async () => {
    const { updater, updates, logs } = setup();
    await updates.checkOnStart();
    updater.emit('error', new Error('sha512 checksum mismatch'));
    expect(logs).toEqual(['update failed: sha512 checksum mismatch']);
  });
});

describe('a downloaded update', () => {
  it('asks before installing; "Later" leaves it, "Restart to update" installs it', async () => {
    const { updater, updates, dialog } = setup();
    await updates.checkOnStart();
    updater.downloaded({ version: '0.2.0' });
    expect(dialog.shown).toEqual([
      {
        type: 'info',
        title: 'Update ready',
        message: 'Hearth 0.2.0 is ready to install.',
        detail: 'Restart Hearth to update; your content and settings stay where they are. Choose Later to keep working: you will be asked again when Hearth next starts.',
        buttons: [...RESTART_BUTTONS],
        defaultId: 0,
        cancelId: 1,
      },
    ]);
    await dialog.answer(1);
    expect(updater.installs).toBe(0);
    updater.downloaded({ version: '0.2.0' });
    expect(dialog.shown).toHaveLength(2);
    await dialog.answer(0);
    expect(updater.installs).toBe(1);
  });

  it('asks once while its question is open', async () => {
    const { updater, updates, dialog } = setup();
    await updates.checkOnStart();
    updater.downloaded({ version: '0.2.0' });
    updater.downloaded({ version: '0.2.0' });
    expect(dialog.shown).toHaveLength(1);
    await dialog.answer(1);
  });
});

describe('"Check for Updates…"', () => {
  it.each([
    [{ isUpdateAvailable: false, updateInfo: { version: '0.1.0' } }, 'Hearth 0.1.0 is the newest version.', undefined],
    [{ isUpdateAvailable: true, updateInfo: { version: '0.2.0' } }, 'Hearth 0.2.0 is available.', 'It is being downloaded; you will be asked to restart when it is ready.'],
    [null, 'Updates are not available for this copy.', undefined],
  ])('answers %j with "%s"', async (result, message, detail) => {
    const { updater, updates, dialog } = setup();
    updater.nextCheck = result;
    const done = updates.checkNow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(dialog.shown).toEqual([{ type: 'info', title: 'Check for Updates', message, ...(detail === undefined ? {} : { detail }), buttons: ['OK'] }]);
    await dialog.answer(0);
    await done;
    expect(updater).toMatchObject({ checks: 1, autoInstallOnAppQuit: false });
  });

  it('says why a check failed, and logs it', async () => {
    const { updater, updates, dialog, logs } = setup();
    updater.nextCheck = new Error('HttpError: 404 Not Found');
    const done = updates.checkNow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(dialog.shown).toMatchObject([{ type: 'error', message: 'Cannot check for updates.', detail: 'HttpError: 404 Not Found' }]);
    await dialog.answer(0);
    await done;
    expect(logs).toEqual(['update check failed: HttpError: 404 Not Found']);
  });

  it('says why updates are off, without creating the updater', async () => {
    const { source, updates, dialog } = setup({ enabled: false, reason: 'Updates are off in development: this copy runs from source (npm start).' });
    const done = updates.checkNow();
    expect(dialog.shown).toEqual([
      { type: 'info', title: 'Check for Updates', message: 'Updates are off for this copy.', detail: 'Updates are off in development: this copy runs from source (npm start).', buttons: ['OK'] },
    ]);
    await dialog.answer(0);
    await done;
    expect(source.taken).toBe(0);
  });

  it('configures the updater once however often it checks', async () => {
    const { source, updates, dialog } = setup();
    await updates.checkOnStart();
    const done = updates.checkNow();
    await new Promise((resolve) => setImmediate(resolve));
    await dialog.answer(0);
    await done;
    expect(source.taken).toBe(1);
    expect(source.updater.listenerCount('update-downloaded')).toBe(1);
  });
});
