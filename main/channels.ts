/** The global the preload defines in the renderer (docs/admin-api.md, "Desktop bridge"). */
export const BRIDGE_KEY = 'hearthDesktop';

/** One IPC channel per bridge function; preload.cts repeats these literally (a sandboxed preload cannot import). */
export const CHANNELS = {
  getLaunchSecret: 'hearth:get-launch-secret',
  openDataFolder: 'hearth:open-data-folder',
} as const;

/** The channel table's shape: the preload's copy must satisfy it exactly. */
export type Channels = typeof CHANNELS;

/** What `window.hearthDesktop` offers the admin UI. */
export interface HearthDesktopBridge {
  /** The per-launch secret; the renderer trades it for a session at POST /admin/api/desktop-session. */
  getLaunchSecret(): Promise<string>;
  /** Opens the data folder in the system file manager. */
  openDataFolder(): Promise<void>;
}
