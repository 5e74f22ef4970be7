/** What the desktop app's preload script exposes as `window.hearthDesktop` (absent in a browser). */
export interface HearthDesktopBridge {
  /** The per-launch secret; the renderer trades it for a session at POST /admin/api/desktop-session. */
  getLaunchSecret(): Promise<string>;
  /** Opens the data folder in the system file manager. */
  openDataFolder(): Promise<void>;
}

declare global {
  interface Window {
    hearthDesktop?: HearthDesktopBridge;
  }
}

/** The desktop bridge when running inside the Electron window, else null. */
export function desktopBridge(): HearthDesktopBridge | null {
  const bridge = window.hearthDesktop;
  return bridge && typeof bridge.getLaunchSecret === 'function' ? bridge : null;
}
