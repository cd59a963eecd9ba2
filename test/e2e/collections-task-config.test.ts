import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { ownerClient, unique } from '../support/clients';
import { hasServer } from '../support/sandbox';
import { appSession, closePage, screenshotAndCheckA11y, goToTab } from '../support/e2e';

const WORKSPACE = 'System';
const NAME = 'default';

describe.runIf(hasServer('current'))('task configuration (current server)', () => {
  const client = ownerClient('current');
  let original: Awaited<ReturnType<typeof client.fetchTaskConfigurationCollection>>;

  const session = appSession('current', {
    seed: async () => {
      original = await client.fetchTaskConfigurationCollection(WORKSPACE, NAME);
    },
    cleanUp: async () => {
      const { id, data } = original.collection;
      await client
        .pushTaskConfigurationCollection(WORKSPACE, {
          collection: { id, name: NAME, data },
          items: original.items,
        })
        .catch(() => undefined);
    },
    close: () => client.close(),
  });

  it('fetches, edits an item, dry-runs (refused, then counted) and pushes', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    const subject = unique('e2e-subject');
    await goToTab(page, 'Collections', 'Task configuration');
    await page
      .getByRole('table', { name: 'Task configuration items' })
      .or(page.getByText('No items'))
      .first()
      .waitFor();
    const before = original.items.length;

    await page.getByRole('button', { name: 'Add item' }).click();
    const editor = page.getByTestId('task-config-item-editor').locator('.cm-content');
    await editor.waitFor();
    // An unknown field: the server refuses the dry run; the edit stays.
    await editor.fill(
      `task_type: Worker\ntask_name: noop\nsubject: ${subject}\nbogus_field: 1\ncomment: from e2e\n`,
    );
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByTestId('problem-banner').waitFor();
    await expect(editor.innerText()).resolves.toContain('bogus_field');

    await editor.fill(
      `task_type: Worker\ntask_name: noop\nsubject: ${subject}\ndefault_values:\n  result: success\ncomment: from e2e\n`,
    );
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByText('Dry run: this is what a push would change.').waitFor();
    await expect(page.getByTestId('count-added').innerText()).resolves.toContain('1');
    await expect(page.getByTestId('count-unchanged').innerText()).resolves.toContain(
      String(before),
    );
    await screenshotAndCheckA11y(page, 'task-config-light');
    // Nothing changed on the server yet.
    expect((await client.fetchTaskConfigurationCollection(WORKSPACE, NAME)).items).toHaveLength(
      before,
    );

    await page.getByRole('button', { name: 'Push', exact: true }).click();
    await page.getByText(/Pushed: the server replaced the items/).waitFor();
    const after = await client.fetchTaskConfigurationCollection(WORKSPACE, NAME);
    const added = after.items.find((i) => i.subject === subject);
    expect(added).toMatchObject({
      task_type: 'Worker',
      task_name: 'noop',
      default_values: { result: 'success' },
      comment: 'from e2e',
    });
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('looks finished in the dark theme', async () => {
    const { page } = await openPage(session.browser, session.app, 'dark');
    await goToTab(page, 'Collections', 'Task configuration');
    await page.getByRole('heading', { name: 'Push to the server' }).waitFor();
    await screenshotAndCheckA11y(page, 'task-config-dark');
    await closePage(page);
  });
});
