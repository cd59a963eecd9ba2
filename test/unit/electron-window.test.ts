/**
 * The main window and its session against a fake `electron` that does what Electron 45
 * documents (test/support/fake-electron.ts): the copy buttons' clipboard permission, the
 * window that must not show before its page has painted, and the dev server's pages.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeElectron, mockedElectron, type FakeElectron } from '../support/fake-electron';

const fake = mockedElectron;
vi.mock('electron', async () => (await import('../support/fake-electron')).mockedElectronModule());

const { createMainWindow, hardenSession, WINDOW_CSP } = await import('../../src/main/app/window');
const { appUrlMatcher } = await import('../../src/main/app/sender');

const APP = 'app://renderer/index.html';
const isAppUrl = appUrlMatcher(APP);

function session(e: FakeElectron) {
  // The fake's session has the members hardenSession uses.
  return e.module.session.defaultSession as unknown as Electron.Session;
}

function openWindow(e: FakeElectron, maximized = false) {
  createMainWindow({
    preload: '/p.cjs',
    icon: '/opt/debusine-desktop/resources/icon.png',
    state: { width: 900, height: 600, maximized },
    isAppUrl,
  });
  const win = e.windows.at(-1);
  if (!win) throw new Error('no window');
  win.webContents.url = APP;
  return win;
}

describe('the copy buttons’ clipboard permission', () => {
  let e: FakeElectron;
  beforeEach(() => {
    e = createFakeElectron({ userData: '/nonexistent' });
    fake.current = e;
  });

  it('is granted to the app’s page in its own window, and to nothing else', async () => {
    const win = openWindow(e);
    const other = openWindow(e);
    hardenSession(session(e), { windowIds: new Set([win.webContents.id]), isAppUrl });
    await expect(e.clipboardWrite(win.webContents, APP)).resolves.toBe(true);
    await expect(e.clipboardWrite(win.webContents, `${APP}#/artifacts/3`)).resolves.toBe(true);
    // An iframe, another page, a webContents that is not one of the app's windows.
    await expect(e.clipboardWrite(win.webContents, APP, false)).resolves.toBe(false);
    await expect(e.clipboardWrite(win.webContents, 'https://evil.example/')).resolves.toBe(false);
    await expect(e.clipboardWrite(other.webContents, APP)).resolves.toBe(false);
  });

  it('is the only permission granted', async () => {
    const win = openWindow(e);
    hardenSession(session(e), { windowIds: new Set([win.webContents.id]), isAppUrl });
    for (const permission of ['geolocation', 'notifications', 'media', 'clipboard-read']) {
      await expect(e.askPermission(win.webContents, permission, APP)).resolves.toBe(false);
    }
  });
});

describe('a window that was maximised when the app last closed', () => {
  it('stays hidden until its page has painted, then shows maximised', () => {
    const e = createFakeElectron({ userData: '/nonexistent' });
    fake.current = e;
    const win = openWindow(e, true);
    expect(win.isVisible()).toBe(false);
    e.readyToShow(win);
    expect(win.isVisible()).toBe(true);
    expect(win.isMaximized()).toBe(true);
  });
});

describe('the Content Security Policy header', () => {
  it('is on every response, but the dev server’s when one is used', () => {
    const e = createFakeElectron({ userData: '/nonexistent' });
    fake.current = e;
    const dev = 'http://localhost:5173';
    hardenSession(session(e), { windowIds: new Set(), isAppUrl, devOrigin: dev });
    expect(e.headersFor(APP)['Content-Security-Policy']).toEqual([WINDOW_CSP]);
    expect(e.headersFor(`${dev}/index.html`)['Content-Security-Policy']).toBeUndefined();
    expect(e.headersFor('http://localhost:5174/')['Content-Security-Policy']).toEqual([WINDOW_CSP]);
    hardenSession(session(e), { windowIds: new Set(), isAppUrl });
    expect(e.headersFor(`${dev}/index.html`)['Content-Security-Policy']).toEqual([WINDOW_CSP]);
  });
});
