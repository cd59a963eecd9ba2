import { describe, expect, it } from 'vitest';
import { openPage, startApp } from '../support/app';
import { launchBrowser, screenshot } from '../support/browser';
import { ownerClient, unique } from '../support/clients';
import { hasServer } from '../support/sandbox';
import { appSession, closePage, goTo, setEditor, screenshotAndCheckA11y } from '../support/e2e';

const WORKSPACE = 'System';

describe.runIf(hasServer('current'))('the collection editor (current server)', () => {
  const client = ownerClient('current');
  const created: number[] = [];

  const session = appSession('current', {
    cleanUp: async () => {
      for (const id of created) await client.collectionDelete(WORKSPACE, id).catch(() => undefined);
    },
    close: () => client.close(),
  });

  it('creates, edits (form and YAML), diffs, saves and keeps a refused edit', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    const name = unique('e2e-suite');
    const other = await client.collectionCreate(WORKSPACE, {
      name: unique('e2e-other'),
      category: 'debian:suite',
      data: {},
    });
    created.push(other.id);
    await goTo(page, 'Collections');
    await page.getByRole('table', { name: 'Collections' }).waitFor();

    // Create.
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Keep full history for').fill('7');
    await setEditor(page, 'collection-data-editor', 'components:\n  - main\n');
    await page.getByRole('button', { name: 'Review and save…' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('diff-view').textContent()).resolves.toContain(name);
    await dialog.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('heading', { name: `${name}@debian:suite` }).waitFor();
    const saved = await client.collectionGet(WORKSPACE, 'debian:suite', name);
    created.push(saved.id);
    expect(saved.data).toEqual({ components: ['main'] });
    expect(saved.full_history_retention_period).toBe(7);
    expect(saved.metadata_only_retention_period).toBeNull();

    // Edit in the form, then in the YAML view; the diff shows both changes.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Keep metadata for').fill('30');
    await page.getByRole('button', { name: 'YAML' }).click();
    const source = page.getByTestId('collection-source-editor').locator('.cm-content');
    await source.waitFor();
    await expect(source.innerText()).resolves.toContain('metadata_only_retention_period: 30');
    await source.fill(
      [
        `name: ${name}`,
        'category: debian:suite',
        'full_history_retention_period: 7',
        'metadata_only_retention_period: 30',
        'data:',
        '  components:',
        '    - main',
        '    - contrib',
        '',
      ].join('\n'),
    );
    await page.getByRole('button', { name: 'Review and save…' }).click();
    const diff = page.getByRole('dialog').getByTestId('diff-view');
    await expect(diff.textContent()).resolves.toContain('contrib');
    await expect(diff.textContent()).resolves.toContain('metadata_only_retention_period: 30');
    await screenshot(page, 'collections-review-light');
    await page.getByRole('dialog').getByRole('button', { name: 'Save to server' }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    const edited = await client.collectionGet(WORKSPACE, 'debian:suite', name);
    expect(edited.data).toEqual({ components: ['main', 'contrib'] });
    expect(edited.metadata_only_retention_period).toBe(30);
    expect(edited.full_history_retention_period).toBe(7);

    // A rename onto an existing name: the server refuses; the edit stays.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill(other.name);
    await page.getByRole('button', { name: 'Review and save…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Save to server' }).click();
    const banner = page.getByTestId('problem-banner');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toContain('refused');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(other.name);
    expect((await client.collectionGet(WORKSPACE, 'debian:suite', name)).id).toBe(saved.id);
    await screenshotAndCheckA11y(page, 'collections-refused-light');

    // Leaving with unsaved changes asks first (dismissed: the editor stays).
    page.once('dialog', (d) => void d.dismiss());
    await goTo(page, 'Templates');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(other.name);
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it.each(['light', 'dark'] as const)('looks finished in the %s theme', async (scheme) => {
    const { page } = await openPage(session.browser, session.app, scheme);
    await goTo(page, 'Collections');
    const table = page.getByRole('table', { name: 'Collections' });
    await table.waitFor();
    await table.getByRole('button').first().click();
    await page.getByRole('heading', { name: /Items/ }).waitFor();
    await page.getByText('Loading items…').waitFor({ state: 'detached' });
    await page
      .getByText(/No active items|Items of/)
      .first()
      .waitFor();
    await screenshotAndCheckA11y(page, `collections-${scheme}`);
    await closePage(page);
  });
});

describe.runIf(hasServer('earlier'))('collections on the earlier server (0.11)', () => {
  it('says they are not offered by this server', async () => {
    const app = await startApp('earlier');
    const browser = await launchBrowser();
    try {
      const { page } = await openPage(browser, app);
      await goTo(page, 'Collections');
      await page.getByText('Collections: not offered by this server').waitFor();
      await page.getByRole('tab', { name: 'Task configuration' }).click();
      await page.getByText('Task configuration: not offered by this server').waitFor();
      await screenshotAndCheckA11y(page, 'collections-earlier-light');
    } finally {
      await browser.close();
      await app.stop();
    }
  });
});
