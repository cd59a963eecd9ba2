import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../support/a11y';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import { ownerClient, rejection, unique } from '../support/clients';
import { hasServer, type Flavour } from '../support/sandbox';
import { appSession, closePage, goTo, setEditor, screenshotAndCheckA11y } from '../support/e2e';

const WORKSPACE = 'System';

async function saveFromReview(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Review and save…' }).click();
  await page.getByRole('dialog').getByTestId('diff-view').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: label }).click();
}

/**
 * The session of a suite on `flavour`, with its owner's client, which deletes after the suite
 * the templates its tests made: each test adds to `made` the name or id of any it creates.
 */
function templatesSession(flavour: Flavour) {
  const client = ownerClient(flavour);
  const made: (string | number)[] = [];
  const session = appSession(flavour, {
    cleanUp: async () => {
      for (const key of made)
        await client.workflowTemplateDelete(WORKSPACE, key).catch(() => undefined);
    },
    close: () => client.close(),
  });
  return { client, made, session };
}

describe.runIf(hasServer('current'))('the template editor (current server)', () => {
  const { client, made: names, session } = templatesSession('current');

  it('creates (refused first), edits, starts a workflow from, and deletes a template', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    const name = unique('e2e-tpl');
    names.push(name);
    await goTo(page, 'Templates');
    await page.getByRole('heading', { name: /Templates/ }).waitFor();

    // A workflow that does not exist: the server refuses; the edit stays.
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Workflow', { exact: true }).fill('no-such-workflow');
    await setEditor(
      page,
      'template-runtime-editor',
      'task_configuration:\n  - default@debusine:task-configuration\n  - default\n',
    );
    await saveFromReview(page, 'Create template');
    await page.getByTestId('problem-banner').waitFor();
    await screenshot(page, 'templates-refused-light');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(name);
    expect((await rejection(client.workflowTemplateGet(WORKSPACE, name))).code).toBe('not-found');

    // Corrected: created in the 0.13+ form.
    await page.getByLabel('Workflow', { exact: true }).fill('noop');
    await saveFromReview(page, 'Create template');
    await page.getByRole('heading', { name, exact: true }).waitFor();
    const created = await client.workflowTemplateGet(WORKSPACE, name);
    expect(created.task_name).toBe('noop');
    expect(created.runtime_parameters).toEqual({
      task_configuration: ['default@debusine:task-configuration', 'default'],
    });

    // Edit: priority stays, restricted flips, static parameters change.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Restricted: only workspace owners').check();
    await page.getByLabel('Priority').fill('-5');
    await setEditor(page, 'template-static-editor', 'task_configuration: default\n');
    await saveFromReview(page, 'Save to server');
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    const edited = await client.workflowTemplateGet(WORKSPACE, name);
    expect(edited.static_parameters).toEqual({ task_configuration: 'default' });
    expect((edited as { restricted?: unknown }).restricted).toBe(true);
    expect(edited.priority).toBe(-5);
    expect(edited.runtime_parameters).toEqual(created.runtime_parameters);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Start a workflow: the runtime parameter is a select of its allowed values.
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const form = page.getByTestId('start-workflow-form');
    await form.getByLabel('Template').selectOption({ label: `${name} (noop)` });
    await form
      .getByLabel('task_configuration')
      .selectOption({ label: 'default@debusine:task-configuration' });
    await screenshot(page, 'templates-start-light');
    await form.getByRole('button', { name: 'Start workflow' }).click();
    const started = form.getByText(/Started workflow/);
    await started.waitFor();
    const id = Number((await started.textContent())?.match(/#(\d+)/)?.[1]);
    const wr = await client.workRequestGet(id);
    expect(wr.task_name).toBe('noop');
    expect(wr.task_type).toBe('Workflow');
    // The server resolves the lookup to the collection's id.
    expect(wr.task_data.task_configuration).toBeDefined();

    // Delete.
    await page
      .getByRole('table', { name: 'Workflow templates' })
      .getByRole('button', { name })
      .click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete template' }).click();
    await page.getByText('No template selected').waitFor();
    expect((await rejection(client.workflowTemplateGet(WORKSPACE, name))).code).toBe('not-found');
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it.each(['light', 'dark'] as const)('looks finished in the %s theme', async (scheme) => {
    const name = unique('e2e-look');
    names.push(name);
    await client.workflowTemplateCreate(WORKSPACE, {
      name,
      task_name: 'noop',
      static_parameters: { task_configuration: 'default@debusine:task-configuration' },
      runtime_parameters: {
        task_configuration: ['default@debusine:task-configuration', 'default'],
      },
    });
    const { page } = await openPage(session.browser, session.app, scheme);
    await goTo(page, 'Templates');
    await page
      .getByRole('table', { name: 'Workflow templates' })
      .getByRole('button', { name })
      .click();
    await page.getByRole('heading', { name: 'Static parameters' }).waitFor();
    await screenshotAndCheckA11y(page, `templates-${scheme}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByTestId('template-static-editor').locator('.cm-content').waitFor();
    await screenshotAndCheckA11y(page, `templates-edit-${scheme}`);
    await closePage(page);
  });
});

describe.runIf(hasServer('earlier'))('the template editor (earlier server, 0.11)', () => {
  const { client, made: ids, session } = templatesSession('earlier');

  it('speaks task_data: create, edit, read back', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    const name = unique('e2e-old');
    await goTo(page, 'Templates');
    await page.getByText(/Listing templates is not offered by this server/).waitFor();
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByTestId('template-task-data-editor').waitFor();
    await expect(page.getByText('Static parameters').count()).resolves.toBe(0);
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Workflow', { exact: true }).fill('noop');
    await setEditor(page, 'template-task-data-editor', 'result: success\n');
    await saveFromReview(page, 'Create template');
    await page.getByRole('heading', { name, exact: true }).waitFor();
    const idText = await page.locator('.props dd').first().textContent();
    const id = Number(idText);
    ids.push(id);
    expect((await client.workflowTemplateGet(WORKSPACE, id)).task_data).toEqual({
      result: 'success',
    });
    await screenshotAndCheckA11y(page, 'templates-earlier-light');

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await setEditor(page, 'template-task-data-editor', 'result: failure\n');
    await saveFromReview(page, 'Save to server');
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect((await client.workflowTemplateGet(WORKSPACE, id)).task_data).toEqual({
      result: 'failure',
    });
    expect(errors).toEqual([]);
    await closePage(page);
  });
});
