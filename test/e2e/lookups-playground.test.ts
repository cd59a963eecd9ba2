import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { hasServer } from '../support/sandbox';
import { artifactsSession, closePage, screenshotAndCheckA11y, lookUp } from '../support/e2e';

describe.runIf(hasServer('current'))('the lookup playground (current server)', () => {
  const session = artifactsSession('lk', 1);

  it('resolves single and multiple lookups, linking to artifacts and collections', async () => {
    const [artifactId = 0] = session.ids;
    const { page, errors } = await openPage(session.browser, session.app);
    await lookUp(page, `${String(artifactId)}@artifacts`);
    const results = page.getByTestId('lookup-results');
    await results.getByRole('button', { name: `Artifact #${String(artifactId)}` }).waitFor();

    // No match: the server's answer is shown.
    await page.getByLabel('Lookup expression').fill('nothing-here@debian:suite');
    await page.getByLabel('Expected type').selectOption('collection');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByTestId('problem-banner').waitFor();

    // Multiple: a collection result links to the collection in this area.
    await page.getByRole('button', { name: 'Multiple' }).click();
    const editor = page.getByTestId('lookup-multiple-editor').locator('.cm-content');
    await editor.fill('- _@debian:archive\n- default@debusine:task-configuration\n');
    await page.getByRole('button', { name: 'Look up' }).click();
    await results.getByRole('button', { name: '_@debian:archive' }).waitFor();
    await expect(results.locator('tbody tr').count()).resolves.toBe(2);
    await screenshotAndCheckA11y(page, 'lookups-light');
    await results.getByRole('button', { name: '_@debian:archive' }).click();
    await page.getByRole('heading', { name: '_@debian:archive' }).waitFor();
    await expect(
      page.getByRole('tab', { name: 'Collections' }).getAttribute('aria-selected'),
    ).resolves.toBe('true');
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('looks finished in the dark theme', async () => {
    const [artifactId = 0] = session.ids;
    const { page } = await openPage(session.browser, session.app, 'dark');
    await lookUp(page, `${String(artifactId)}@artifacts`);
    await page.getByTestId('lookup-results').waitFor();
    await screenshotAndCheckA11y(page, 'lookups-dark');
    await closePage(page);
  });
});
