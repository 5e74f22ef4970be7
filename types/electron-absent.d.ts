// Electron's types when npm could not install `electron`: it is an optional dependency because its
// postinstall downloads the binary, and npm drops the package when that download fails. main/ then
// compiles against these loose names; where Electron is installed, tsconfig.json `paths` resolves
// node_modules/electron first and main/ is checked against its real types.
declare module 'electron' {
  export type BrowserWindowConstructorOptions = any;
  export interface MenuItemConstructorOptions {
    [option: string]: any;
    submenu?: MenuItemConstructorOptions[];
  }
  export const app: any;
  export const BrowserWindow: any;
  export const clipboard: any;
  export const dialog: any;
  export const ipcMain: any;
  export const ipcRenderer: any;
  export const contextBridge: any;
  export const Menu: any;
  export const shell: any;
}
