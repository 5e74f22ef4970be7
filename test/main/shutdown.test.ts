import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installShutdown } from '../../main/shutdown.js';
import { FakeApp } from './fake-electron.js';

/** A close the test finishes when it chooses, recording how often it was called. */
function controlledClose() {
  let finish: (err?: Error) => void = () => {};
  const state = { calls: 0 };
  const close = () => {
    state.calls++;
    return new Promise<void>((resolve, reject) => {
      finish = (err) => (err ? reject(err) : resolve());
    });
  };
  return { close, state, finish: (err?: Error) => finish(err) };
}

function setUp() {
  const app = new FakeApp();
  const signals = new EventEmitter();
  const logs: string[] = [];
  const server = controlledClose();
  installShutdown({ app, close: server.close, signals, log: (m) => logs.push(m) });
  return { app, signals, logs, server };
}

describe('clean shutdown', () => {
  it('holds the quit until the server has closed, then quits', async () => {
    const { app, server } = setUp();
    app.quit();
    expect(server.state.calls).toBe(1);
    expect(app.hasQuit()).toBe(false);
    server.finish();
    await app.whenQuit();
    expect(app.calls.filter((c) => c === 'quit')).toHaveLength(2);
  });

  it('closes the server once however often quit is asked for', async () => {
    const { app, server } = setUp();
    app.quit();
    app.quit();
    app.quit();
    expect(server.state.calls).toBe(1);
    expect(app.hasQuit()).toBe(false);
    server.finish();
    await app.whenQuit();
    expect(server.state.calls).toBe(1);
  });

  it('still quits when closing fails, and says why', async () => {
    const { app, server, logs } = setUp();
    app.quit();
    server.finish(new Error('disk gone'));
    await app.whenQuit();
    expect(logs).toEqual(['error while closing the server: Error: disk gone']);
  });

  it.each(['SIGINT', 'SIGTERM'])('%s takes the same path', async (signal) => {
    const { app, signals, server } = setUp();
    signals.emit(signal);
    expect(server.state.calls).toBe(1);
    expect(app.hasQuit()).toBe(false);
    server.finish();
    await app.whenQuit();
  });
});
