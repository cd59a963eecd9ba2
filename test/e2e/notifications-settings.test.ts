/**
 * Notification settings (what notifies, do-not-disturb) are saved in main and
 * survive a reload, and the program run on completion is read from its file (the browser
 * cannot set it); and the offline banner, with an outage made by a proxy in front of the
 * sandbox: it names the next attempt, and on return lists once what completed meanwhile.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, startApp, type RunningApp } from '../support/app';
import { launchBrowser, screenshot } from '../support/browser';
import { ownerClient, waitForCompletion, createNoop } from '../support/clients';
import { appSession, screenshotAndCheckA11y } from '../support/e2e';
import { testServer } from '../support/sandbox';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

async function openSettings(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Areas' })
    .getByRole('button', { name: 'Settings' })
    .click();
  await page.getByTestId('notification-settings').waitFor();
}

describe('notification settings', () => {
  const session = appSession('current');

  it('saves what notifies and a snooze, shows the command file, and keeps them', async () => {
    const commandFile = join(session.app.dataDir, 'completion-command.json');
    const { page, errors } = await openPage(session.browser, session.app);
    await openSettings(page);
    const section = page.getByTestId('notification-settings');
    // Bursts are summed up, and the settings say so.
    await expect(section.getByTestId('burst-hint').textContent()).resolves.toContain('one summary');
    const saved = async (): Promise<void> => {
      await expect.poll(() => section.getByRole('status').textContent()).toContain('Saved');
    };
    await section.getByRole('radio', { name: /Everything in workspaces/ }).check();
    await saved();
    await section.getByLabel('Workspaces', { exact: true }).fill('System, Playground');
    await section.getByRole('button', { name: 'Save workspaces' }).click();
    await saved();
    await section.getByRole('checkbox', { name: /Failures only/ }).check();
    await saved();
    await section.getByRole('button', { name: '1 hour' }).click();
    await expect
      .poll(() => page.getByTestId('snooze-state').textContent())
      .toContain('Snoozed until');
    // The browser cannot name a program to run: the user writes it in its file.
    await expect(section.getByLabel('Command', { exact: true }).count()).resolves.toBe(0);
    await expect(section.getByTestId('completion-command-file').textContent()).resolves.toContain(
      commandFile,
    );
    await writeFile(commandFile, JSON.stringify({ command: ['notify-send', 'Debusine done'] }), {
      mode: 0o600,
    });
    await section.scrollIntoViewIfNeeded();
    await screenshotAndCheckA11y(page, 'notification-settings-light');

    // Main kept them: a fresh page shows the same.
    await page.reload();
    await page.getByTestId('app-shell').waitFor();
    await openSettings(page);
    await expect(
      section.getByRole('radio', { name: /Everything in workspaces/ }).isChecked(),
    ).resolves.toBe(true);
    await expect(section.getByLabel('Workspaces', { exact: true }).inputValue()).resolves.toBe(
      'System, Playground',
    );
    await expect(
      section.getByRole('checkbox', { name: /Failures only/ }).isChecked(),
    ).resolves.toBe(true);
    await expect(section.getByTestId('completion-command-state').textContent()).resolves.toBe(
      'Runs notify-send "Debusine done" when work completes.',
    );
    await expect(page.getByTestId('snooze-state').textContent()).resolves.toContain(
      'Snoozed until',
    );

    // Resume, and back to the defaults for the other tests of this app.
    await section.getByRole('button', { name: 'Resume notifications' }).click();
    await expect
      .poll(() => page.getByTestId('snooze-state').textContent())
      .toContain('Notifications are on');
    await rm(commandFile, { force: true });
    await section.getByRole('checkbox', { name: /Failures only/ }).uncheck();
    await section.getByRole('radio', { name: /Watched work only/ }).check();
    await saved();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('looks right in the dark theme', async () => {
    const { page, errors } = await openPage(session.browser, session.app, 'dark');
    await openSettings(page);
    await page.getByTestId('notification-settings').scrollIntoViewIfNeeded();
    await screenshotAndCheckA11y(page, 'notification-settings-dark');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('offline banner', () => {
  let app: RunningApp;
  let browser: Browser;
  let proxy: TcpProxy;

  beforeAll(async () => {
    const server = testServer('current');
    const api = new URL(server.apiUrl);
    proxy = await startTcpProxy(api.hostname, Number(api.port));
    app = await startApp('current', { DEBUSINE_DESKTOP_API_URL: proxy.url(api.pathname) });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
    await proxy.close();
  });

  it('shows the next attempt while offline, and what completed meanwhile once back', async () => {
    const { page, errors } = await openPage(browser, app);
    await page
      .getByRole('navigation', { name: 'Areas' })
      .getByRole('button', { name: 'Work requests' })
      .click();
    await expect
      .poll(() => page.getByTestId('session-status').count(), { timeout: 30_000 })
      .toBe(1);
    proxy.cut();
    const banner = page.getByTestId('offline-banner');
    await banner.waitFor({ timeout: 60_000 });
    await expect
      .poll(() => banner.textContent(), { timeout: 30_000 })
      .toMatch(/Next attempt in \d+ s|Reconnecting/);
    await screenshotAndCheckA11y(page, 'offline-banner-light');

    // Work completes while the app cannot hear about it.
    const client = ownerClient('current');
    const missed = await createNoop(client);
    await waitForCompletion(client, missed.id);
    await client.close();

    proxy.restore();
    const back = page.getByTestId('back-online-banner');
    await back.waitFor({ timeout: 90_000 });
    await expect
      .poll(() => back.textContent(), { timeout: 60_000 })
      .toContain(`#${String(missed.id)}`);
    await screenshot(page, 'offline-banner-back-light');
    await back.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => back.count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
