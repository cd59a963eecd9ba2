import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { hasServer } from '../support/sandbox';
import { artifactsSession, closePage, screenshotAndCheckA11y, lookUp } from '../support/e2e';

describe.runIf(hasServer('current'))('the relations graph (current server)', () => {
  const session = artifactsSession('rel', 4, async (client, ids) => {
    const [self, a, b] = ids as [number, number, number];
    await client.relationCreate({ artifact: self, target: a, type: 'extends' });
    await client.relationCreate({ artifact: b, target: self, type: 'built-using' });
  });
  const { client, ids } = session;

  async function showGraph(page: Page, id: number): Promise<void> {
    await lookUp(page, `${String(id)}@artifacts`);
    await page.getByTestId('lookup-results').getByRole('button', { name: 'Relations' }).click();
  }

  it('draws the relations, lists them, and creates one', async () => {
    const [self, a, b, c] = ids as [number, number, number, number];
    const { page, errors } = await openPage(session.browser, session.app);
    await showGraph(page, self);
    const list = page.getByTestId('relations-list');
    await list.waitFor();
    await page.getByTestId('relations-svg').waitFor();
    await expect(list.textContent()).resolves.toContain(`#${String(a)}`);
    await expect(list.textContent()).resolves.toContain(`#${String(b)}`);

    const form = page.getByRole('form', { name: `Add a relation to artifact ${String(self)}` });
    await form.getByLabel('Type').selectOption('relates-to');
    await form.getByLabel('Other artifact id').fill(String(c));
    await form.getByRole('button', { name: 'Add relation' }).click();
    await list.getByRole('button', { name: `#${String(c)}` }).waitFor();
    const stored = await client.relationList({ artifactId: self });
    expect(stored.map((r) => [r.target, r.type])).toContainEqual([c, 'relates-to']);

    // An artifact that does not exist: the server's refusal is shown.
    await form.getByLabel('Other artifact id').fill('999999999');
    await form.getByRole('button', { name: 'Add relation' }).click();
    await form.getByRole('alert').waitFor();
    await page.getByTestId('relations-svg').scrollIntoViewIfNeeded();
    await screenshotAndCheckA11y(page, 'relations-light');
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('looks finished in the dark theme', async () => {
    const { page } = await openPage(session.browser, session.app, 'dark');
    await showGraph(page, ids[0] ?? 0);
    await page.getByTestId('relations-svg').scrollIntoViewIfNeeded();
    await screenshotAndCheckA11y(page, 'relations-dark');
    await closePage(page);
  });
});
