/**
 * The Debian developer's path through the window, on the current sandbox set up like
 * debusine.debian.net: a source-only .changes dropped on the app shows what dput makes of
 * it (the upload and its source package) and the workflow the sandbox's dput-ng profile
 * names for its Distribution; one click uploads both and starts `upload-to-unstable` in
 * `developers`; the app opens the workflow, whose tree shows the steps within 5 s of the
 * server making them, before any of them has run.
 *
 * The workflow is aborted at the end: the build and QA of this package run in
 * test/integration/real-work.test.ts, through the same service, to the signature and the
 * upload queue; one run of the pipeline is enough for the shared worker.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DebusineClient } from '../../src/main/api/client';
import { openPage } from '../support/app';
import { dropFiles } from '../support/drop-files';
import { appSession, goTo, screenshotAndCheckA11y } from '../support/e2e';
import { missingDebianTools } from '../support/debian-fixtures';
import { realPackages } from '../support/real-packages';
import { hasServer, testServer } from '../support/sandbox';

const server = hasServer('current') ? testServer('current') : undefined;
const developers = server?.developers ?? null;

/** The id the work request's page shows in its head ("debian_pipeline #123 Workflow"). */
async function pageId(page: Page): Promise<number> {
  const head = page.locator('.wr-page-head');
  await head.waitFor({ timeout: 120_000 });
  const text = (await head.textContent()) ?? '';
  return Number(/#(\d+)/.exec(text)?.[1] ?? NaN);
}

/** When the server first lists a step of the workflow `rootId` (read every 250 ms). */
async function serverHasSteps(rootId: number): Promise<number> {
  const url = `${server?.apiUrl ?? ''}/1.0/work-request/?limit=20`;
  const headers = {
    Token: server?.users.owner.token ?? '',
    'X-Debusine-Scope': server?.scope ?? '',
  };
  for (let i = 0; i < 480; i++) {
    const answer = (await (await fetch(url, { headers })).json()) as {
      results: { id: number; workflow_root?: number | null }[];
    };
    if (answer.results.some((wr) => wr.workflow_root === rootId && wr.id !== rootId)) {
      return Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server made no step of workflow #${String(rootId)} in 2 minutes`);
}

describe.runIf(developers !== null && missingDebianTools() === undefined)(
  'a .changes dropped on the window, as dput would upload it',
  () => {
    const started: number[] = [];
    const session = appSession('current', {
      env: () => ({ DEBUSINE_DESKTOP_DPUT_DIRS: developers?.dputProfiles ?? '' }),
      cleanUp: async () => {
        if (!server) return;
        const client = new DebusineClient({
          apiUrl: server.apiUrl,
          token: server.users.owner.token,
          scope: server.scope,
        });
        for (const id of started) await client.workRequestAbort(id).catch(() => undefined);
        await client.close();
      },
    });

    it('proposes upload-to-unstable, uploads and starts it in one click, and shows its steps as the server makes them', async () => {
      const pkg = realPackages().good;
      const { page, errors } = await openPage(session.browser, session.app, 'light');
      await goTo(page, 'Upload');
      await dropFiles(page, [pkg.changes, pkg.dsc, pkg.tarball]);
      const draft = page.getByTestId('draft');
      await draft.getByTestId('draft-ready').waitFor({ timeout: 60_000 });
      const plan = draft.getByTestId('dput-plan');
      await expect(plan.textContent()).resolves.toContain('debian:source-package');
      const proposal = draft.getByTestId('dput-workflow');
      const text = (await proposal.textContent()) ?? '';
      expect(text).toContain(developers?.templates.unstable);
      expect(text).toContain(developers?.workspace);
      expect(text).toContain('unstable');
      expect(text).toContain(developers?.dputHost);
      await screenshotAndCheckA11y(page, 'upload-dput-proposal-light');

      const start = draft.getByTestId('upload-start');
      await expect(start.textContent()).resolves.toContain(
        `Upload and start ${developers?.templates.unstable ?? ''}`,
      );
      await start.click();
      // The queue opens the workflow once the upload's job has started it.
      const id = await pageId(page);
      expect(id).toBeGreaterThan(0);
      started.push(id);
      // The server makes the steps in the background and commits them together, seconds
      // after Start (2 to 12 s on this machine, with its load): the app's share is the time
      // from the server having them to the tree showing them.
      const onServer = serverHasSteps(id);
      const firstStep = page.locator('[data-testid^="step-"]').first();
      await firstStep.waitFor({ timeout: 120_000 });
      const shownAt = Date.now();
      const serverAt = await onServer;
      expect(shownAt - serverAt).toBeLessThanOrEqual(5_000);
      await expect(page.locator('.wr-page-head').textContent()).resolves.toContain(
        'debian_pipeline',
      );
      await screenshotAndCheckA11y(page, 'workflow-started-from-changes-light');
      expect(errors).toEqual([]);
      await page.context().close();
    });
  },
);
