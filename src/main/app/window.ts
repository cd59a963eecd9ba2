/**
 * The main window: isolated, sandboxed, no Node in the page, no new windows, no navigation
 * away from the app (http(s) links go to the system browser), no webviews, and a strict
 * Content Security Policy on every response of its session.
 */
import { BrowserWindow, shell, type Session } from 'electron';
import type { WindowState } from './window-state';

export const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface WindowOptions {
  preload: string;
  state: WindowState;
  /** Whether a URL is the app's own page. */
  isAppUrl(url: string): boolean;
}

export function isExternalHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function openOutside(url: string): void {
  if (isExternalHttpUrl(url)) void shell.openExternal(url);
}

/** Locks the session down: CSP on every response, no permission is ever granted. */
export function hardenSession(session: Session): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [WINDOW_CSP] },
    });
  });
  session.setPermissionRequestHandler((_webContents, _permission, callback) => {
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    x: options.state.x,
    y: options.state.y,
    width: options.state.width,
    height: options.state.height,
    minWidth: 800,
    minHeight: 500,
    title: 'Debusine Desktop',
    show: false,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // A middle click would otherwise open a link in a new window, around will-navigate.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (options.state.maximized) win.maximize();
  win.once('ready-to-show', () => {
    win.show();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (options.isAppUrl(url)) return;
    event.preventDefault();
    openOutside(url);
  });
  win.webContents.on('will-redirect', (event, url) => {
    if (!options.isAppUrl(url)) event.preventDefault();
  });
  win.webContents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  return win;
}
