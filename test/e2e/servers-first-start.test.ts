import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import { appSession, screenshotAndCheckA11y, signInWithToken } from '../support/e2e';
import { hasServer, testServer } from '../support/sandbox';

async function goToSettings(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Areas' })
    .getByRole('button', { name: 'Settings' })
    .click();
  await page.getByRole('heading', { name: 'Servers', level: 2 }).waitFor();
}

/** Adds the sandbox by its API URL and scope through the form. */
async function addServer(page: Page, name: string): Promise<void> {
  const server = testServer('current');
  const form = page.getByRole('form', { name: /add a server/i });
  await form.getByLabel('API URL').fill(server.apiUrl);
  await form.getByLabel('Scope').fill(server.scope);
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Add server' }).click();
  await page.getByTestId(`server-row-${name}`).waitFor();
}

describe.runIf(hasServer('current'))('first start: adding a server and signing in', () => {
  const session = appSession(null);
  const server = testServer('current');

  it('offers presets, adds a server and signs in with a pasted token', async () => {
    const { page, errors } = await openPage(session.browser, session.app, 'light');
    // Upload says what to do without a server.
    await page
      .getByRole('navigation', { name: 'Areas' })
      .getByRole('button', { name: 'Upload' })
      .click();
    await page.getByRole('heading', { name: 'No server yet' }).waitFor();
    await screenshot(page, 'upload-no-server-light');
    await page.getByRole('button', { name: 'Add a server' }).click();
    await page.getByRole('heading', { name: 'Servers', level: 2 }).waitFor();
    await page.getByTestId('preset-public').waitFor();
    await expect(page.getByTestId('preset-public').textContent()).resolves.toContain(
      'debusine.debian.net',
    );
    await page.getByTestId('token-store').waitFor();
    await screenshotAndCheckA11y(page, 'settings-first-start-light');

    await addServer(page, 'sandbox');
    await signInWithToken(page, server.users.owner.token);
    await page.getByTestId('session-status').getByText(server.users.owner.username).waitFor();
    await page.getByTestId('server-row-sandbox').getByText('Token stored').waitFor();
    await screenshotAndCheckA11y(page, 'settings-light');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('switches servers from the top bar and enrolls through the real web UI', async () => {
    const { page, errors } = await openPage(session.browser, session.app, 'dark');
    await goToSettings(page);
    await page.getByRole('button', { name: 'Add server…' }).click();
    await addServer(page, 'enrolled');

    // The switcher lists both; pick the new one.
    await page.getByTestId('server-switcher').click();
    const menu = page.getByRole('menu', { name: 'Servers' });
    await menu.waitFor();
    await screenshotAndCheckA11y(page, 'server-switcher-dark');
    await menu.getByRole('menuitemradio', { name: /enrolled/ }).click();
    await page.getByTestId('server-row-enrolled').getByText('Active').waitFor();

    // Enroll: the web host shows the confirmation link for the user to open.
    await page.getByTestId('server-row-enrolled').getByRole('button', { name: 'Sign in…' }).click();
    const panel = page.getByTestId('sign-in-panel');
    await panel.getByRole('button', { name: 'Start enrollment' }).click();
    const link = panel.getByTestId('enroll-link');
    await link.waitFor();
    const challenge = (await panel.getByTestId('enroll-challenge').textContent()) ?? '';
    const confirmUrl = (await link.getAttribute('href')) ?? '';
    expect(confirmUrl).toMatch(new RegExp(`^${server.webUrl}/-/enroll/confirm/`));
    await screenshot(page, 'settings-enroll-dark');

    const web = await session.browser.newPage();
    try {
      await web.goto(`${server.webUrl}/-/login/`);
      await web.fill('#id_username', server.users.owner.username);
      await web.fill('#id_password', server.users.owner.password ?? '');
      await Promise.all([
        web.waitForURL((url) => !url.pathname.startsWith('/-/login/')),
        web.click('input[type=submit][value=Login]'),
      ]);
      await web.goto(confirmUrl);
      await expect(web.getByText(challenge).first().isVisible()).resolves.toBe(true);
      await web.click('button[name=outcome][value=confirm]');
    } finally {
      await web.close();
    }
    await panel.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByTestId('server-row-enrolled').getByText('Token stored').waitFor();
    await page.getByTestId('session-status').getByText(server.users.owner.username).waitFor();
    await screenshotAndCheckA11y(page, 'settings-dark');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('first start without a server or a running sandbox', () => {
  let emptySandboxHome: string;
  const session = appSession(null, {
    seed: () => {
      // The presets look for the sandbox's file here, and find none.
      emptySandboxHome = mkdtempSync(join(tmpdir(), 'ddt-no-sandbox-'));
    },
    env: () => ({ DEBUSINE_SANDBOX_HOME: emptySandboxHome }),
    close: () => {
      rmSync(emptySandboxHome, { recursive: true, force: true });
    },
  });

  it('says how to get a local Debusine on the first screen', async () => {
    const { page, errors } = await openPage(session.browser, session.app, 'light');
    await goToSettings(page);
    const hint = page.getByTestId('sandbox-hint');
    await hint.waitFor();
    await expect(hint.textContent()).resolves.toContain('npm run sandbox:up');
    await hint.getByRole('button', { name: 'Look again' }).click();
    await hint.getByRole('button', { name: 'Look again' }).waitFor();
    await screenshotAndCheckA11y(page, 'settings-first-start-no-sandbox-light');
    expect(errors).toEqual([]);
  });
});
