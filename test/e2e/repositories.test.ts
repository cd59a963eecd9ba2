/**
 * The Repositories area on the current sandbox, as a developer uses it: make a repository
 * from the `developers` template, wait until it exists, make a suite publishing like
 * `upload-to-unstable`, and, once the suite is first published (by its indexes' update,
 * signed by the sandbox's signing worker), read the `.sources` entry with the archive's key
 * inline; then grant a viewer token. Screenshots light and dark.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { ownerClient, unique } from '../support/clients';
import { deleteWorkspace, publishAsTheyAre, setArchiveAddress } from '../support/repositories';
import { hasServer, testServer } from '../support/sandbox';
import {
  appSession,
  closePage,
  goTo,
  screenshotAndCheckA11y,
  screenshotsInBothThemes,
} from '../support/e2e';

const server = hasServer('current') ? testServer('current') : null;
const repo = server?.sandbox && server.developers ? server.repositories : null;

/** A port nothing listens on: one just taken and given back. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

describe.runIf(repo !== null)('repositories (current server)', () => {
  const client = ownerClient('current');
  const session = appSession('current', {
    cleanUp: () => {
      if (server) deleteWorkspace(server, workspace);
      return Promise.resolve();
    },
    close: () => client.close(),
  });
  const suffix = unique('e2e');
  const workspace = `${repo?.baseWorkspace ?? ''}-${suffix}`;

  it('makes a repository and a suite, and says how to install from it with apt', async () => {
    if (!repo) return;
    const { page, errors } = await openPage(session.browser, session.app);
    await goTo(page, 'Repositories');
    await page.getByRole('button', { name: 'New repository' }).click();
    const form = page.getByRole('form', { name: 'New repository' });
    await form.getByRole('combobox', { name: 'Kind' }).selectOption(repo.templates.experiment);
    await form.getByRole('textbox', { name: 'Name' }).fill(suffix);
    await expect.poll(() => form.getByText(workspace).count()).toBe(1);
    await form.getByRole('button', { name: 'Make the repository' }).click();

    // Followed until its workflow has made it; then it has no suites.
    await page.getByRole('heading', { name: workspace }).waitFor();
    await page.getByText('No suites').waitFor({ timeout: 120_000 });

    await page.getByRole('button', { name: 'New suite' }).click();
    const suiteForm = page.getByRole('form', { name: 'New suite' });
    await suiteForm.getByRole('textbox', { name: 'Suite' }).fill('sid');
    await suiteForm.getByRole('button', { name: 'Make the suite' }).click();
    await page.getByRole('table', { name: 'Suites' }).getByText('publish-to-sid').waitFor();

    // The archive host of the sandbox (the API does not say it).
    await setArchiveAddress(page, repo.archiveUrl);
    const keyWait = page.getByRole('status', { name: 'Signing key' });
    await keyWait.getByText(/is published to/).waitFor();
    expect(await keyWait.textContent()).toMatch(/Nothing is published to sid yet/);
    await screenshotsInBothThemes(page, 'repository-key-wait');

    // Its first publication: the indexes made and signed, the key made for the archive.
    await publishAsTheyAre(client, workspace);
    const source = page.getByLabel('APT source');
    await source.waitFor({ timeout: 30_000 });
    const text = (await source.textContent()) ?? '';
    expect(text).toContain(`URIs: ${repo.archiveUrl}/${server?.scope ?? ''}/${workspace}\n`);
    // Saved as the file apt reads, with the text shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save as…' }).first().click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${workspace}-sid.sources`);
    expect(await readFile(await download.path(), 'utf8')).toBe(text);
    const archive = await client.collectionGet(workspace, 'debian:archive', '_');
    const [fingerprint] = archive.data.signing_keys as string[];
    await page.getByText((fingerprint ?? '').replace(/(.{4})/g, '$1 ').trim()).waitFor();

    const grant = page.getByRole('form', { name: 'Grant a viewer token' });
    await grant.getByRole('textbox', { name: 'Login name' }).fill(unique('apt'));
    await grant.getByRole('button', { name: 'Grant' }).click();
    await page.getByText(/Its key is shown this once/).waitFor();
    await screenshotAndCheckA11y(page, 'repositories-token-light');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Repositories', level: 1 }).scrollIntoViewIfNeeded();
    await screenshotAndCheckA11y(page, 'repositories-light');
    expect(errors).toEqual([]);
    await closePage(page);
  }, 360_000);

  it('looks finished in the dark theme', async () => {
    if (!repo) return;
    const { page } = await openPage(session.browser, session.app, 'dark');
    await goTo(page, 'Repositories');
    await page.getByRole('button', { name: new RegExp(`^${workspace}`) }).click();
    await page.getByLabel('APT source').waitFor();
    await screenshotAndCheckA11y(page, 'repositories-dark');

    // The archive's address set where nothing listens: the page names the host and why.
    const port = await freePort();
    await setArchiveAddress(page, `http://127.0.0.1:${String(port)}`);
    try {
      const alert = page.getByRole('alert').filter({ hasText: 'The archive does not answer' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        `127.0.0.1:${String(port)}: connection refused: nothing listens there`,
      );
      await screenshotsInBothThemes(page, 'repository-archive-silent');
    } finally {
      await setArchiveAddress(page, repo.archiveUrl);
    }
    await closePage(page);
  });
});
