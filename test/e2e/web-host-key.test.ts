/**
 * The web host's session key stays with the host's own page, in Debian's Chromium. Another
 * web server on 127.0.0.1 (another port) that the same browser visits receives nothing of
 * it (cookies are scoped by host, not by port, so a cookie would reach it) and its pages
 * cannot read it; what the browser sent there does not open the bridge; the page still
 * gets in after a reload. No Debusine server is needed.
 */
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, startApp, type RunningApp } from '../support/app';
import { launchBrowser, screenshot } from '../support/browser';
import { closePage } from '../support/e2e';
import { listenOnLoopback, trySocket } from '../support/loopback-http';
import { sessionKeyOf } from '../support/web-host';

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
}

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

describe('the web host session key in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;
  let other: Awaited<ReturnType<typeof otherLocalServer>>;
  let key: string;

  beforeAll(async () => {
    app = await startApp(null);
    key = sessionKeyOf(app.url);
    other = await otherLocalServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
    await new Promise((resolve) => other.server.close(resolve));
  });

  it('prints the key in the fragment, and the page takes it out of the address', async () => {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]{43}$/);
    const { page, errors } = await openPage(browser, app);
    await openNotificationSettings(page);
    // The bridge answered (the settings came over it); the address no longer shows the key.
    expect(page.url()).not.toContain(key);
    expect(await hrefOf(page)).not.toContain(key);
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('sends nothing of the key to another port of 127.0.0.1, whose pages cannot read it', async () => {
    const { page, errors } = await openPage(browser, app);
    await openNotificationSettings(page);
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
    expect(JSON.stringify(other.received)).not.toContain(key);
    expect(sameTab).not.toContain(key);
    expect(otherTab).not.toContain(key);
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('does not open the bridge to a program replaying what the browser sent elsewhere', async () => {
    const { page } = await openPage(browser, app);
    other.received.length = 0;
    await page.goto(`${other.origin}/`);
    await closePage(page);
    const host = new URL(app.url);
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
    const { page, errors } = await openPage(browser, app);
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
    expect(page.url()).not.toContain(key);
    expect(errors).toEqual([]);

    // A tab of its own on the bare address has neither the fragment nor this tab's storage.
    const bare = await page.context().newPage();
    await bare.goto(`${new URL(app.url).origin}/`);
    await bare.getByTestId('app-shell').waitFor();
    await goToSettings(bare);
    await expect
      .poll(() => bare.getByRole('alert').first().textContent())
      .toContain('open the address');
    await closePage(page);
  });
});
