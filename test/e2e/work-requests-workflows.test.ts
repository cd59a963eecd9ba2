/**
 * Workflows as a tree. The workflow is created for real (`POST /workflow/` with a
 * noop template made through the API). The sandbox's noop workflow creates no steps of its
 * own, so two steps (one succeeded, one failed) are added under it through Debusine's ORM,
 * as a workflow's populate() would; the list endpoint then serves them with their
 * `parent` and `workflow_root`, which is what the tree is built from.
 */
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import { ownerClient, unique, createNoopTemplate } from '../support/clients';
import { debusineAdminShell } from '../support/debusine-admin';
import { appSession, screenshotAndCheckA11y, goToTab } from '../support/e2e';
import type { TestServer } from '../support/sandbox';

async function addSteps(server: TestServer, rootId: number): Promise<[number, number]> {
  if (!server.sandbox || !server.root) throw new Error('steps can only be added in a sandbox');
  const stdout = await debusineAdminShell(
    server.root,
    `
from django.utils import timezone
from debusine.db.models import WorkRequest
now = timezone.now()
root = WorkRequest.objects.get(id=${String(rootId)})
common = dict(workspace=root.workspace, created_by=root.created_by, parent=root, workflow_root=root,
              task_type="Worker", task_name="noop", status="completed", started_at=now, completed_at=now)
ok = WorkRequest.objects.create(task_data={}, result="success", **common)
bad = WorkRequest.objects.create(task_data={"result": "failure"}, result="failure", **common)
print(ok.id, bad.id)
`,
  );
  const ids = (stdout.trim().split('\n').pop() ?? '').split(' ').map(Number);
  const [ok, bad] = ids;
  if (ok === undefined || bad === undefined) throw new Error(`adding steps failed: ${stdout}`);
  return [ok, bad];
}

describe('workflows as a tree', () => {
  const client = ownerClient('current');
  let templateId: number | undefined;
  const session = appSession('current', {
    cleanUp: async () => {
      const server = session.app.server;
      if (templateId !== undefined && server) {
        await client.workflowTemplateDelete(server.workspaces.default, templateId);
      }
    },
    close: () => client.close(),
  });

  /** A workflow made for real from a template made for it, with a good and a failed step. */
  async function workflowWithAFailedStep() {
    const server = session.app.server;
    if (!server) throw new Error('no server');
    const workspace = server.workspaces.default;
    const name = unique('noop-tpl');
    const template = await createNoopTemplate(client, workspace, name);
    templateId = template.id;
    const root = await client.workflowCreate({ template_name: name, workspace, task_data: {} });
    expect(root.task_type).toBe('Workflow');
    const [ok, bad] = await addSteps(server, root.id);
    await client.workflowTemplateDelete(workspace, template.id);
    templateId = undefined;
    return { root, ok, bad, workspace };
  }

  it.each(['light', 'dark'] as const)(
    'shows the root, its steps, and the failed step open (%s)',
    async (scheme) => {
      const { root, ok, bad } = await workflowWithAFailedStep();

      const { page, errors } = await openPage(session.browser, session.app, scheme);
      await goToTab(page, 'Work requests', 'Workflows');
      const node = page.getByTestId(`workflow-${String(root.id)}`);
      await node.waitFor();
      // The newest workflow starts open; its failed step is expanded, the good one is not.
      const failed = node.getByTestId(`step-${String(bad)}`);
      await failed.waitFor();
      await expect(
        failed.getByRole('button', { name: /Collapse noop/ }).getAttribute('aria-expanded'),
      ).resolves.toBe('true');
      await expect(failed.textContent()).resolves.toContain('Failure');
      await expect(node.getByTestId(`step-${String(ok)}`).textContent()).resolves.toContain(
        'Success',
      );
      await screenshotAndCheckA11y(page, `work-requests-workflows-${scheme}`);

      // The root's page shows the same tree; a step's page links back to its workflow.
      await node.getByRole('button', { name: `#${String(root.id)}`, exact: true }).click();
      await page.getByTestId('work-request-page').waitFor();
      await page.getByTestId(`step-${String(bad)}`).waitFor();
      await screenshot(page, `work-request-workflow-page-${scheme}`);
      await page
        .getByTestId(`step-${String(bad)}`)
        .getByRole('button', { name: `#${String(bad)}`, exact: true })
        .click();
      await expect
        .poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).textContent())
        .toContain(`Workflow #${String(root.id)}`);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it('filters by failed steps as the web does, and opens the same view in the browser', async () => {
    const { root, workspace } = await workflowWithAFailedStep();

    const { page, errors } = await openPage(session.browser, session.app);
    await goToTab(page, 'Work requests', 'Workflows');
    await page.getByTestId(`workflow-${String(root.id)}`).waitFor();
    await page.getByRole('checkbox', { name: 'With failed work requests' }).check();
    // The root is kept once its steps are read (one of them failed), with their counts.
    const row = page.getByTestId(`workflow-${String(root.id)}`);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('2 completed');
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Open this view in the browser' }).click(),
    ]);
    await expect.poll(() => popup.url()).toContain('filter-with_failed_work_requests=1');
    expect(popup.url()).toContain(`/${workspace}/workflow/`);
    // The server's own list, under the same filter, has the same workflow.
    await popup.waitForLoadState();
    await expect
      .poll(() => popup.locator(`a[href$="/work-request/${String(root.id)}/"]`).count())
      .toBeGreaterThan(0);
    await popup.close();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
