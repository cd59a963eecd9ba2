/**
 * The main window: isolated, sandboxed, no Node in the page, no new windows, no navigation
 * away from the app (http(s) links go to the system browser), no webviews, and a strict
 * Content Security Policy on every response of its session.
 */
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import type { TrustPolicy } from './sender';
import type { WindowState } from './window-state';

export const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface WindowOptions {
  preload: string;
  state: WindowState;
  /**
   * The app's icon (resources/icon.png). An installed .deb's desktop entry names one, but
   * an AppImage runs with no entry installed, and its window would show a generic icon.
   */
  icon: string;
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

export interface SessionPolicy extends TrustPolicy {
  /**
   * The origin of electron-vite's dev server (`npm run dev`), or undefined. Its pages carry
   * their own policy in the meta tag, with the hashes of the inline scripts the dev server
   * adds (electron.vite.config.ts); the header's `script-src 'self'` would block them.
   */
  devOrigin?: string | undefined;
}

/**
 * The one permission the app's page uses: `navigator.clipboard.writeText` (the copy
 * buttons) asks for `clipboard-sanitized-write`. It is granted to the top frame of one of
 * the app's windows showing the app's own page, the frames the IPC sender check trusts;
 * everything else, and every other permission, is refused.
 */
export function mayUsePermission(
  policy: TrustPolicy,
  contents: Pick<WebContents, 'id'> | null,
  permission: string,
  details: { requestingUrl?: string | undefined; isMainFrame: boolean },
): boolean {
  return (
    permission === 'clipboard-sanitized-write' &&
    contents !== null &&
    policy.windowIds.has(contents.id) &&
    details.isMainFrame &&
    details.requestingUrl !== undefined &&
    policy.isAppUrl(details.requestingUrl)
  );
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Locks the session down: CSP on every response, no permission but the clipboard's. */
export function hardenSession(session: Session, policy: SessionPolicy): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    if (policy.devOrigin !== undefined && originOf(details.url) === policy.devOrigin) {
      callback({ responseHeaders: details.responseHeaders });
      return;
    }
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [WINDOW_CSP] },
    });
  });
  // The request handler decides what a page asks for, the clipboard write among them
  // (Electron's spec grants and denies writeText with it alone); the check handler answers
  // the checks other APIs make first (navigator.permissions.query), alike.
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(mayUsePermission(policy, contents, permission, details));
  });
  session.setPermissionCheckHandler((contents, permission, _origin, details) =>
    mayUsePermission(policy, contents, permission, details),
  );
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
    icon: options.icon,
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
  // Not before: maximize() shows a hidden window, which would then appear before its page
  // has painted.
  const maximized = options.state.maximized;
  win.once('ready-to-show', () => {
    if (maximized) win.maximize();
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
