import type { AppPort } from './electron-ports.js';

/** Where termination signals arrive (`process`): Ctrl+C in the terminal running `npm start`. */
export interface SignalSource {
  once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/** What a clean shutdown needs: the app, the server's close, the signal source and a log. */
export interface ShutdownDeps {
  readonly app: Pick<AppPort, 'on' | 'quit'>;
  readonly close: () => Promise<void>;
  readonly signals: SignalSource;
  readonly log: (message: string) => void;
}

/**
 * Holds the first quit until the server has finished requests in flight and closed the database,
 * then quits for real; signals take the same path instead of killing the process mid-write.
 * On `will-quit`, after the windows have closed: a page with unsaved work asks first, and Stay
 * cancels the quit before this, with the server still running under the window.
 */
export function installShutdown(deps: ShutdownDeps): void {
  let state: 'running' | 'closing' | 'closed' = 'running';
  deps.app.on('will-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    void deps
      .close()
      .catch((err: unknown) => deps.log(`error while closing the server: ${String(err)}`))
      .finally(() => {
        state = 'closed';
        deps.app.quit();
      });
  });
  const quit = () => deps.app.quit();
  deps.signals.once('SIGINT', quit);
  deps.signals.once('SIGTERM', quit);
}
