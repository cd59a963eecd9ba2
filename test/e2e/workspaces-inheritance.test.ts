import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../support/a11y';
import { openPage, startApp } from '../support/app';
import { launchBrowser, screenshot } from '../support/browser';
import { ownerClient } from '../support/clients';
import { hasServer, testServer } from '../support/sandbox';
import { appSession, closePage, goTo, screenshotAndCheckA11y } from '../support/e2e';

async function pickWorkspace(page: Page, workspace: string): Promise<void> {
  const picker = page.getByTestId('workspace-picker');
  await picker.fill(workspace);
  await picker.press('Enter');
}

async function chainTexts(page: Page): Promise<string[]> {
  return page.getByTestId('inheritance-chain').locator('.chain-name').allInnerTexts();
}

describe.runIf(hasServer('current'))('the inheritance editor (current server)', () => {
  const server = testServer('current');
  const child = server.workspaces.second ?? 'Playground';
  const parent = server.workspaces.default;
  const client = ownerClient('current');

  const session = appSession('current', {
    seed: async () => {
      await client.setWorkspaceInheritance(child, { chain: [] });
    },
    cleanUp: async () => {
      await client.setWorkspaceInheritance(child, { chain: [] }).catch(() => undefined);
    },
    close: () => client.close(),
  });

  it('adds, refuses duplicates, reorders by keyboard and drag, keeps a refused chain, saves', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    await goTo(page, 'Workspaces');
    await pickWorkspace(page, child);
    await page.getByText('No parents: this workspace inherits nothing.').waitFor();
    const add = page.getByLabel('Add a parent workspace');

    await add.fill(parent);
    await add.press('Enter');
    await add.fill(`${server.scope}/${parent}`);
    await add.press('Enter');
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain(
      'already in the chain',
    );
    await add.fill('no-such-workspace');
    await add.press('Enter');
    expect(await chainTexts(page)).toEqual([parent, 'no-such-workspace']);

    // Keyboard: Alt+↑ on the second element moves it first.
    await page.getByTestId('inheritance-chain').locator('li').nth(1).focus();
    await page.keyboard.press('Alt+ArrowUp');
    expect(await chainTexts(page)).toEqual(['no-such-workspace', parent]);
    // Drag and drop: the first onto the second.
    const items = page.getByTestId('inheritance-chain').locator('li');
    await items.nth(0).dragTo(items.nth(1));
    expect(await chainTexts(page)).toEqual([parent, 'no-such-workspace']);

    // The server refuses a workspace that does not exist; the edit stays.
    await page.getByRole('button', { name: 'Review and save…' }).click();
    await expect(
      page.getByRole('dialog').getByTestId('diff-view').textContent(),
    ).resolves.toContain('no-such-workspace');
    await page.getByRole('dialog').getByRole('button', { name: 'Save to server' }).click();
    await page.getByTestId('problem-banner').waitFor();
    expect(await chainTexts(page)).toEqual([parent, 'no-such-workspace']);
    expect((await client.getWorkspaceInheritance(child)).chain).toEqual([]);
    await screenshot(page, 'workspaces-refused-light');

    // Remove it (Delete on the focused element), save: the server's answer is shown.
    await items.nth(1).focus();
    await page.keyboard.press('Delete');
    await page.getByRole('button', { name: 'Review and save…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Save to server' }).click();
    await page.getByText('Saved. The server now answers this chain:').waitFor();
    const stored = await client.getWorkspaceInheritance(child);
    expect(stored.chain.map((e) => e.workspace)).toEqual([parent]);
    await expect(page.getByTestId('server-chain').textContent()).resolves.toContain(parent);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it.each(['light', 'dark'] as const)('looks finished in the %s theme', async (scheme) => {
    const { page } = await openPage(session.browser, session.app, scheme);
    await goTo(page, 'Workspaces');
    await pickWorkspace(page, child);
    await page.getByTestId('server-chain').waitFor();
    await screenshotAndCheckA11y(page, `workspaces-${scheme}`);
    await closePage(page);
  });
});

describe.runIf(hasServer('earlier'))('workspace inheritance on the earlier server (0.11)', () => {
  it('says it is not offered by this server', async () => {
    const app = await startApp('earlier');
    const browser = await launchBrowser();
    try {
      const { page } = await openPage(browser, app);
      await goTo(page, 'Workspaces');
      await page.getByText('Workspace inheritance: not offered by this server').waitFor();
      await screenshotAndCheckA11y(page, 'workspaces-earlier-light');
    } finally {
      await browser.close();
      await app.stop();
    }
  });
});
