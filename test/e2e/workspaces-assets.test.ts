import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { ownerClient } from '../support/clients';
import { hasServer } from '../support/sandbox';
import { appSession, closePage, screenshotAndCheckA11y, goToTab } from '../support/e2e';

describe.runIf(hasServer('current'))('assets (current server)', () => {
  const client = ownerClient('current');

  const session = appSession('current', {
    close: () => client.close(),
  });

  it('creates a signing key (refused first), lists it, checks a permission', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    await goToTab(page, 'Workspaces', 'Assets');
    const editor = page.getByTestId('asset-data-editor').locator('.cm-content');
    await editor.waitFor();

    // Missing fields: the server refuses; the data stays in the editor.
    await editor.fill('purpose: openpgp\ndescription: from e2e\n');
    await page.getByRole('button', { name: 'Create asset' }).click();
    await page.getByTestId('problem-banner').waitFor();
    await expect(editor.innerText()).resolves.toContain('from e2e');

    const fingerprint = randomBytes(20).toString('hex').toUpperCase();
    const publicKey = Buffer.from(`key ${fingerprint}`).toString('base64');
    await editor.fill(
      `purpose: openpgp\nfingerprint: ${fingerprint}\npublic_key: ${publicKey}\ndescription: from e2e\n`,
    );
    await page.getByRole('button', { name: 'Create asset' }).click();
    const note = page.getByText(/Created asset #\d+/);
    await note.waitFor();
    const id = Number((await note.textContent())?.match(/#(\d+)/)?.[1]);
    const [asset] = await client.assetList({ assetId: id });
    expect(asset?.data).toMatchObject({ purpose: 'openpgp', fingerprint });
    // The list is read again after the create; wait for that read to arrive.
    await expect.poll(() => page.getByTestId('assets-table').textContent()).toContain(fingerprint);

    // The permission check: a user token gets the server's refusal, shown as its answer.
    const form = page.getByRole('form', { name: 'Permission check' });
    await form.getByLabel('Asset slug').fill(`openpgp:${fingerprint}`);
    await form.getByLabel('Artifact id').fill('1');
    await form.getByLabel('Work request id').fill('1');
    await form.getByRole('button', { name: 'Check' }).click();
    await form.getByTestId('problem-banner').waitFor();
    await screenshotAndCheckA11y(page, 'assets-light');
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('looks finished in the dark theme', async () => {
    const { page } = await openPage(session.browser, session.app, 'dark');
    await goToTab(page, 'Workspaces', 'Assets');
    await page.getByTestId('assets-table').waitFor();
    await screenshotAndCheckA11y(page, 'assets-dark');
    await closePage(page);
  });
});
