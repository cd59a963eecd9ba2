/**
 * The web host's keys stay with the host's own page, in Debian's Chromium. The printed
 * address's key works once: the page trades it for a session key and drops it from the
 * address, and from then on it opens nothing, since the browser's history database still
 * has it. Another web server on 127.0.0.1 (another port) that the same browser visits
 * receives nothing of either key (cookies are scoped by host, not by port, so a cookie
 * would reach it) and its pages cannot read them; what the browser sent there does not
 * open the bridge; the page still gets in after a reload. No Debusine server is needed.
 */
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_PROTOCOL, keyProtocol } from '../../src/shared/web-host-key';
import { openPage, startApp, type RunningApp } from '../support/app';
import { launchBrowser, screenshot } from '../support/browser';
import { closePage } from '../support/e2e';
import { listenOnLoopback, trySocket } from '../support/loopback-http';
import { exchangeKey, launchKeyOf } from '../support/web-host';

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
}

/** A plain local web server on a port of its own, recording every request it gets. */
async function otherLocalServer(): Promise<{
  server: Server;
  origin: string;
  received: Received[];
}> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>other</title>');
  });
  const { origin } = await listenOnLoopback(server);
  return { server, origin, received };
}

/** What the tests read in a page (the test files are type-checked without the DOM). */
interface PageGlobals {
  document: { cookie: string };
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
  location: { href: string };
  history: { length: number };
}

/** Where the page keeps its session key for reloads (web-host-api.ts). */
const KEY_STORAGE = 'debusine-desktop.session-key';

/** Everything a page can read of what the browser keeps for its origin. */
function storageOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const w = globalThis as unknown as PageGlobals;
    return JSON.stringify({
      cookie: w.document.cookie,
      local: { ...w.localStorage },
      session: { ...w.sessionStorage },
      href: w.location.href,
    });
  });
}

/** The address the page itself shows. */
function hrefOf(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).location.href);
}

/**
 * The address of every entry of the tab's history, oldest first: the page cannot read
 * them, so the tab goes back through them and forward again to where it was.
 */
async function historyOf(page: Page): Promise<string[]> {
  const entries = await page.evaluate(() => (globalThis as unknown as PageGlobals).history.length);
  const urls = [page.url()];
  for (let i = 1; i < entries; i++) {
    await page.goBack();
    urls.unshift(page.url());
  }
  for (let i = 1; i < entries; i++) await page.goForward();
  return urls;
}

/** The session key the page keeps in its tab's storage. */
async function sessionKeyIn(page: Page): Promise<string> {
  const key = await page.evaluate(
    (name) => (globalThis as unknown as PageGlobals).sessionStorage[name] ?? '',
    KEY_STORAGE,
  );
  expect(key).toMatch(/^[\w-]{43}$/);
  return key;
}

async function goToSettings(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Areas' })
    .getByRole('button', { name: 'Settings' })
    .click();
}

/** Settings, once the notification settings came over the bridge. */
async function openNotificationSettings(page: Page): Promise<void> {
  await goToSettings(page);
  await page.getByTestId('notification-settings').waitFor();
}

describe('the web host keys in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;
  let other: Awaited<ReturnType<typeof otherLocalServer>>;

  beforeAll(async () => {
    app = await startApp(null);
    other = await otherLocalServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
    await new Promise((resolve) => other.server.close(resolve));
  });

  /** Whether the bridge opens to a program offering `key`, as the page offers it. */
  const bridgeWith = (key: string): Promise<'open' | number> =>
    trySocket(`ws://${new URL(app.origin).host}/bridge`, {
      origin: app.origin,
      protocols: [BRIDGE_PROTOCOL, keyProtocol(key)],
    });

  it('takes the printed key out of the address and the history, and the key is then refused', async () => {
    const { page, errors, url } = await openPage(browser, app);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]{43}$/);
    const launch = launchKeyOf(url);
    await openNotificationSettings(page);
    // The bridge answered (the settings came over it), with the page's own session key.
    const session = await sessionKeyIn(page);
    expect(session).not.toBe(launch);
    // Neither the address nor the tab's history holds the key: the page's entry is the
    // bare address (the one before it is the blank page the tab started with).
    expect(page.url()).toBe(`${app.origin}/`);
    expect(await hrefOf(page)).toBe(`${app.origin}/`);
    expect(await historyOf(page)).toEqual(['about:blank', `${app.origin}/`]);
    await page.getByTestId('app-shell').waitFor();
    // What the browser's history database kept opens nothing now: a second program
    // presenting it gets no session and no bridge, while the page's session still works.
    await expect(exchangeKey(url)).rejects.toThrow(/refused the launch key \(403\)/);
    await expect(bridgeWith(launch)).resolves.toBe(401);
    await expect(bridgeWith(session)).resolves.toBe('open');
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('takes a printed key once: a program that got it first leaves the page refused', async () => {
    const url = await app.host.nextUrl();
    const session = await exchangeKey(url);
    await expect(bridgeWith(session)).resolves.toBe('open');
    await expect(exchangeKey(url)).rejects.toThrow(/\(403\)/);
    // A page opened at the used address gets nothing, and says which address to open.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.getByTestId('app-shell').waitFor();
    await goToSettings(page);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Open the newest address it printed');
    expect(page.url()).toBe(`${app.origin}/`);
    await context.close();
  });

  it('sends nothing of the keys to another port of 127.0.0.1, whose pages cannot read them', async () => {
    const { page, errors, url } = await openPage(browser, app);
    await openNotificationSettings(page);
    const keys = [launchKeyOf(url), await sessionKeyIn(page)];
    other.received.length = 0;
    // The same tab leaves the app for the other server, and another tab opens it.
    await page.goto(`${other.origin}/`);
    const sameTab = await storageOf(page);
    const newTab = await page.context().newPage();
    await newTab.goto(`${other.origin}/page?from=test`);
    const otherTab = await storageOf(newTab);

    expect(other.received.length).toBeGreaterThanOrEqual(2);
    for (const request of other.received) {
      expect(request.headers.cookie, request.url).toBeUndefined();
    }
    for (const key of keys) {
      expect(JSON.stringify(other.received)).not.toContain(key);
      expect(sameTab).not.toContain(key);
      expect(otherTab).not.toContain(key);
    }
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('does not open the bridge to a program replaying what the browser sent elsewhere', async () => {
    const { page } = await openPage(browser, app);
    other.received.length = 0;
    await page.goto(`${other.origin}/`);
    await closePage(page);
    const host = new URL(app.origin);
    // A program outside the browser sets the host's own Origin, and sends the cookies,
    // headers and query the browser sent to the other port.
    for (const request of other.received) {
      const query = new URL(request.url, other.origin).search;
      const status = await trySocket(`ws://${host.host}/bridge${query}`, {
        origin: host.origin,
        headers: request.headers.cookie ? { cookie: request.headers.cookie } : {},
      });
      expect(status, request.url).toBe(401);
    }
  });

  it('keeps working after a reload, and a tab without the key is refused', async () => {
    const { page, errors, url } = await openPage(browser, app);
    // In the browser the program to run is read from a file the user edits by hand.
    const commandFile = join(app.dataDir, 'completion-command.json');
    await writeFile(commandFile, JSON.stringify({ command: ['notify-send', 'Debusine done'] }), {
      mode: 0o600,
    });
    await page.reload();
    await page.getByTestId('app-shell').waitFor();
    await openNotificationSettings(page);
    await expect(page.getByTestId('completion-command-state').textContent()).resolves.toBe(
      'Runs notify-send "Debusine done" when work completes.',
    );
    await expect(page.getByTestId('completion-command-file').textContent()).resolves.toContain(
      commandFile,
    );
    await page.getByTestId('completion-command').scrollIntoViewIfNeeded();
    await screenshot(page, 'notification-settings-command-file-light');
    await rm(commandFile);
    await expect(page.getByRole('button', { name: /Choose a program/ }).count()).resolves.toBe(0);
    expect(page.url()).not.toContain(launchKeyOf(url));
    // A reload adds no entry, and none has the key.
    expect(await historyOf(page)).toEqual(['about:blank', `${app.origin}/`]);
    expect(errors).toEqual([]);

    // A tab of its own on the bare address has neither the fragment nor this tab's storage.
    const bare = await page.context().newPage();
    await bare.goto(`${app.origin}/`);
    await bare.getByTestId('app-shell').waitFor();
    await goToSettings(bare);
    await expect
      .poll(() => bare.getByRole('alert').first().textContent())
      .toContain('open the address');
    await closePage(page);
  });
});
