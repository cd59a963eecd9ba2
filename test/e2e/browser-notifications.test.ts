/**
 * The app in a browser (the web host) as a desktop app: Chromium shows its desktop
 * notifications through the Notifications API once allowed (Settings says whether it is),
 * with the titles and bodies Electron's notifier shows, and a click opens the work request
 * on the server that notified it, even after the app moved to another server; the tab's
 * title counts the failures not looked at yet; a link in a log opens in a new tab.
 *
 * Against fake Debusines (fake-work-requests.ts): two servers that number their work
 * requests alike, which the sandbox cannot be made to do.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fakeAppSession, goTo, screenshotAndCheckA11y, signInWithToken } from '../support/e2e';
import { startFakeDebusine, type FakeDebusine } from '../support/fake-debusine';
import { row, serveWorkRequests, type FakeWorkRequests } from '../support/fake-work-requests';

/** What the page's notifications were made with, recorded by the init script below. */
interface Shown {
  title: string;
  body: string;
  tag: string;
  requireInteraction: boolean;
}

/**
 * Wraps window.Notification before the app loads: each notification the app makes is still
 * the browser's own, and is recorded (with the object, for the test to click).
 */
const RECORD_NOTIFICATIONS = `
  (() => {
    const Real = window.Notification;
    const shown = [];
    window.__shown = shown;
    class Recorded extends Real {
      constructor(title, options = {}) {
        super(title, options);
        shown.push({
          title,
          body: options.body ?? '',
          tag: options.tag ?? '',
          requireInteraction: options.requireInteraction ?? false,
          notification: this,
        });
      }
    }
    Object.defineProperty(Recorded, 'permission', {
      get: () => Real.permission,
      configurable: true,
    });
    Recorded.requestPermission = (...args) => Real.requestPermission(...args);
    window.Notification = Recorded;
  })();
`;

/**
 * A browser that has not asked yet: the permission reads "default" until requested, and
 * each request is recorded with whether a click made it (the user activation browsers
 * require), then answered "granted".
 */
const NOT_ASKED_YET = `
  (() => {
    let permission = 'default';
    window.__asked = [];
    Object.defineProperty(window.Notification, 'permission', { get: () => permission });
    window.Notification.requestPermission = () => {
      window.__asked.push({ fromClick: navigator.userActivation.isActive });
      permission = 'granted';
      return Promise.resolve(permission);
    };
  })();
`;

/** The notifications the page has made so far (the test's own types have no DOM). */
async function shownIn(page: Page): Promise<Shown[]> {
  return page.evaluate<Shown[]>(
    `window.__shown.map(({ title, body, tag, requireInteraction }) =>
      ({ title, body, tag, requireInteraction }))`,
  );
}

/** Clicks the page's notification with this title, as the desktop would report a click. */
async function clickNotification(page: Page, title: string): Promise<void> {
  await page.evaluate(
    `window.__shown.find((n) => n.title === ${JSON.stringify(title)})
      .notification.dispatchEvent(new Event('click'))`,
  );
}

const NOW = new Date().toISOString();
const completed = (id: number, result: string, fields: Record<string, unknown> = {}) =>
  row(id, { created_at: NOW, status: 'completed', result, completed_at: NOW, ...fields });

describe('the app in a browser', () => {
  let workA: FakeWorkRequests;
  let fakeB: FakeDebusine;
  let workB: FakeWorkRequests;

  // The app starts on the first server (A); the second (B) is added by a test.
  const session = fakeAppSession({
    seed: async (fakeA) => {
      workA = serveWorkRequests(fakeA);
      fakeB = await startFakeDebusine();
      workB = serveWorkRequests(fakeB);
    },
    close: async () => {
      await workA.close();
      await workB.close();
      await fakeB.close();
    },
  });

  /** A page of its own context, notifications allowed or not, recording what it shows. */
  async function open(
    allowed: boolean,
    colorScheme: 'light' | 'dark' = 'light',
    initScript?: string,
  ): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const context = await session.browser.newContext({
      colorScheme,
      viewport: { width: 1280, height: 800 },
      permissions: allowed ? ['notifications'] : [],
    });
    await context.addInitScript(RECORD_NOTIFICATIONS);
    if (initScript !== undefined) await context.addInitScript(initScript);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    session.app.host.assertRunning();
    await page.goto(await session.app.host.nextUrl());
    await page.getByTestId('app-shell').waitFor();
    return { page, context, errors };
  }

  async function permissionLine(page: Page): Promise<string | null> {
    await goTo(page, 'Settings');
    const line = page.getByTestId('page-notification-permission');
    await line.waitFor();
    await line.scrollIntoViewIfNeeded();
    return line.textContent();
  }

  it('says in Settings whether the browser may notify, and asks only from its button', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      // Headless Chromium answers "denied" to a page nobody allowed.
      const blocked = await open(false, scheme);
      await expect(permissionLine(blocked.page)).resolves.toContain('Blocked.');
      await screenshotAndCheckA11y(blocked.page, `settings-page-notifications-blocked-${scheme}`);
      await blocked.context.grantPermissions(['notifications']);
      // Allowed elsewhere (the browser's site settings): the line follows.
      await expect
        .poll(() => blocked.page.getByTestId('page-notification-state').textContent())
        .toBe('Allowed.');
      await screenshotAndCheckA11y(blocked.page, `settings-page-notifications-allowed-${scheme}`);
      expect(blocked.errors).toEqual([]);
      await blocked.context.close();
    }

    // A browser that has not asked yet (which headless Chromium never is: a stand-in says
    // so, and answers "granted" to a request made from a click, as browsers require).
    const { page, context, errors } = await open(false, 'light', NOT_ASKED_YET);
    await expect(permissionLine(page)).resolves.toContain('Not asked yet.');
    await expect(page.evaluate('window.__asked')).resolves.toEqual([]);
    await screenshotAndCheckA11y(page, 'settings-page-notifications-not-asked-light');
    await page.getByRole('button', { name: 'Allow desktop notifications…' }).click();
    await expect
      .poll(() => page.getByTestId('page-notification-state').textContent())
      .toBe('Allowed.');
    await expect(page.evaluate('window.__asked')).resolves.toEqual([{ fromClick: true }]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('notifies a completion and a failure on the desktop; a click opens it on its server', async () => {
    const { page, context, errors } = await open(true);
    await expect(permissionLine(page)).resolves.toContain('Allowed.');
    // Everything completing on the server notifies (work started elsewhere, as here).
    const settings = page.getByTestId('notification-settings');
    await settings.getByRole('radio', { name: /Everything in workspaces/ }).check();
    await expect.poll(() => settings.getByRole('status').textContent()).toContain('Saved');
    await page
      .getByRole('banner')
      .getByText('Connected', { exact: true })
      .waitFor({ timeout: 60_000 });
    await expect(page.title()).resolves.toBe('Debusine Desktop');

    workA.set(completed(700, 'success'));
    workA.complete(700);
    workA.set(completed(701, 'failure', { task_name: 'sbuild' }));
    workA.complete(701);
    await expect.poll(() => shownIn(page), { timeout: 30_000 }).toHaveLength(2);
    const shown = await shownIn(page);
    expect(
      shown.map(({ title, body, requireInteraction }) => ({ title, body, requireInteraction })),
    ).toEqual([
      {
        title: 'Succeeded: noop #700',
        body: 'Workspace System · result: success',
        requireInteraction: false,
      },
      {
        // A failure stays on screen until dismissed, as Electron's does.
        title: 'Failed: sbuild #701',
        // What the app's explainer says of a failed sbuild it finds no log of.
        body: 'sbuild — no build log\nWorkspace System · result: failure',
        requireInteraction: true,
      },
    ]);
    // The tab counts the failure not looked at yet; the success is no failure.
    await expect.poll(() => page.title()).toBe('(1) Debusine Desktop');

    // The completion's click opens its work request.
    await clickNotification(page, 'Succeeded: noop #700');
    const status = page.getByTestId('wr-page-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Success');
    await expect(page.getByTestId('work-request-page').textContent()).resolves.toContain('#700');

    // The app moves to another server, whose #701 is another work request.
    workB.set(row(701, { created_at: NOW, task_name: 'only-on-b', status: 'running' }));
    await goTo(page, 'Settings');
    await page.getByRole('button', { name: 'Add server…' }).click();
    const form = page.getByRole('form', { name: /add a server/i });
    await form.getByLabel('API URL').fill(fakeB.apiUrl);
    await form.getByLabel('Scope').fill('debusine');
    await form.getByLabel('Name').fill('Server B');
    await form.getByRole('button', { name: 'Add server' }).click();
    await signInWithToken(page, 'fake-token-of-server-b');
    const switcher = page.getByTestId('server-switcher');
    await switcher.getByText('Server B').waitFor();
    await expect(page.title()).resolves.toBe('(1) Debusine Desktop');

    // The failure's click opens #701 on the server that notified it, not on Server B.
    await clickNotification(page, 'Failed: sbuild #701');
    await switcher.getByText(new URL(session.fake.apiUrl).host).waitFor({ timeout: 15_000 });
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Failure');
    const wrPage = page.getByTestId('work-request-page');
    await expect(wrPage.textContent()).resolves.toContain('sbuild');
    await expect(wrPage.textContent()).resolves.not.toContain('only-on-b');
    // Looked at: the count is gone from the tab.
    await expect.poll(() => page.title()).toBe('Debusine Desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a link of a log in a new tab, with no handle on the app', async () => {
    session.fake.artifact(900, [
      { path: 'build.log', content: 'first line\nsee https://example.org/docs for more\n' },
    ]);
    const { page, context, errors } = await open(true);
    // The network here is closed: the browser gets the page from the test.
    await context.route('https://example.org/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Docs</title><p>docs</p>' }),
    );
    const appUrl = page.url();
    await goTo(page, 'Artifacts');
    const lookup = page.getByRole('search').getByLabel('Artifact id or URL');
    await lookup.fill('900');
    await lookup.press('Enter');
    await page.getByRole('button', { name: 'Open build.log' }).click();
    const body = page.getByRole('region', { name: 'Log lines' });
    const link = body.getByRole('link', { name: 'https://example.org/docs' });
    await link.waitFor();
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe('https://example.org/docs');
    await expect(tab.title()).resolves.toBe('Docs');
    // noopener and noreferrer: the page opened cannot reach the app, nor learn its address.
    await expect(tab.evaluate('window.opener === null')).resolves.toBe(true);
    await expect(tab.evaluate('document.referrer')).resolves.toBe('');
    // The app stays where it was, and says nothing went wrong.
    expect(page.url()).toBe(appUrl);
    await expect(page.getByTestId('app-shell').textContent()).resolves.not.toContain(
      'not available in the browser',
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
