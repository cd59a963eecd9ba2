/**
 * Upload -> build -> results, on the current sandbox with real builds: the good source
 * package dropped on Upload, uploaded, started through the pipeline template from the
 * artifact page's form, then its results read in the app (binary packages, lintian counts,
 * the build log in the viewer) and a .deb downloaded through the web host's link and
 * checked with dpkg-deb; the failing package through the sbuild template notifies with the
 * make error line. Real builds take minutes: each waits up to 20.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { dropFiles } from '../support/drop-files';
import { appSession, goTo, screenshotsInBothThemes } from '../support/e2e';
import { realPackages, type SourcePackage } from '../support/real-packages';
import { hasServer, testServer } from '../support/sandbox';

const BUILD_MINUTES = 20;
const realWork = hasServer('current') ? testServer('current').realWork : null;

/** Everything in the workspace notifies, failures and successes alike. */
async function notifyEverything(page: Page): Promise<void> {
  await goTo(page, 'Settings');
  const settings = page.getByTestId('notification-settings');
  const everything = settings.getByRole('radio', { name: /Everything in workspaces/ });
  const failuresOnly = settings.getByRole('checkbox', { name: /Failures only/ });
  // The app keeps its settings between the tests of this file: nothing to save then.
  if ((await everything.isChecked()) && !(await failuresOnly.isChecked())) return;
  await everything.check();
  await failuresOnly.setChecked(false);
  await expect.poll(() => settings.getByRole('status').textContent()).toContain('Saved');
}

/** Uploads the package's .dsc and tarball, starts `template` on it; the workflow's id. */
async function uploadAndStart(page: Page, pkg: SourcePackage, template: string): Promise<number> {
  await goTo(page, 'Upload');
  await page.getByTestId('drop-zone').waitFor();
  await dropFiles(page, [pkg.dsc, pkg.tarball]);
  const draft = page.getByTestId('draft');
  await page.getByTestId('draft-ready').waitFor();
  await draft.getByRole('button', { name: 'Upload', exact: true }).click();
  await page
    .getByRole('heading', { name: /^#\d+ debian:source-package$/ })
    .waitFor({ timeout: 120_000 });
  const form = page.getByTestId('start-workflow-form');
  await form.waitFor();
  await form.getByLabel('Template').selectOption(template);
  // The new artifact fills the template's parameter that takes one.
  await screenshotsInBothThemes(page, `build-results-start-${template}`);
  await form.getByRole('button', { name: 'Start workflow' }).click();
  // Starting opens the workflow's page, with its tree of steps.
  await page.getByTestId('work-request-page').waitFor({ timeout: 60_000 });
  await page.getByRole('heading', { name: 'Steps', exact: true }).waitFor();
  const current = await page
    .getByTestId('work-request-page')
    .locator('[aria-current="page"]')
    .textContent();
  const id = Number(/#(\d+)/.exec(current ?? '')?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** Waits on the workflow's page (live) until it completes; its result word. */
async function completion(page: Page): Promise<string> {
  const status = page.getByTestId('wr-page-status');
  await expect
    .poll(() => status.textContent(), {
      timeout: BUILD_MINUTES * 60_000,
      interval: 5_000,
    })
    .toMatch(/Success|Failure|Error/);
  return (await status.textContent()) ?? '';
}

/** From the list of workflows: the workflow's tree, every branch open, then the step. */
async function openStep(page: Page, workflowId: number, task: RegExp): Promise<void> {
  await goTo(page, 'Work requests');
  await page.getByRole('tab', { name: 'Workflows' }).click();
  await page
    .getByTestId(`workflow-${String(workflowId)}`)
    .locator('.wr-id')
    .first()
    .click();
  for (let i = 0; i < 10; i++) {
    const closed = page.getByRole('button', { name: /^Expand / });
    if ((await closed.count()) === 0) break;
    await closed.first().click();
  }
  const node = page.locator('.wr-node').filter({ hasText: task }).first();
  await node.locator('.wr-id').click();
  await page.getByTestId('work-request-page').waitFor();
}

describe.runIf(realWork !== null)('a real build, uploaded and read in the app', () => {
  const session = appSession('current');

  it(
    'uploads the good package, builds it through the pipeline, and shows its results',
    async () => {
      if (!realWork) return;
      const pkg = realPackages().good;
      const { page, errors } = await openPage(session.browser, session.app);
      await notifyEverything(page);
      const workflowId = await uploadAndStart(page, pkg, realWork.pipelineTemplate);
      expect(await completion(page)).toContain('Success');

      await page
        .getByRole('tab', { name: 'Notifications' })
        .click()
        .catch(() => undefined);
      await goTo(page, 'Work requests');
      await page.getByRole('tab', { name: 'Notifications' }).click();
      await page.getByTestId(`notification-${String(workflowId)}`).waitFor({ timeout: 120_000 });

      await openStep(page, workflowId, /sbuild\s*Worker/);
      const packages = page.getByTestId('results-binary-packages');
      await packages.waitFor({ timeout: 60_000 });
      await expect(page.getByTestId('binary-package-row').count()).resolves.toBeGreaterThan(0);
      await screenshotsInBothThemes(page, 'build-results');

      // A .deb through the web host's one-time link, checked by dpkg-deb.
      const deb = `${pkg.name}_${pkg.version}_amd64.deb`;
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Download ${deb}` }).click(),
      ]);
      const saved = join(mkdtempSync(join(tmpdir(), 'ddt-deb-')), deb);
      await download.saveAs(saved);
      const field = execFileSync('dpkg-deb', ['--field', saved, 'Package'], { encoding: 'utf8' });
      expect(field.trim()).toBe(pkg.name);

      // The build log opens in the viewer, and is searched there.
      await page
        .getByTestId('results-build-log')
        .getByRole('button', { name: /^Open log/ })
        .click();
      await page.getByTestId('work-request-page').waitFor({ state: 'detached' });
      await page
        .getByTestId('log-progress')
        .filter({ hasText: /lines, / })
        .waitFor();
      const search = page.getByRole('textbox', { name: 'Search the log' });
      await search.fill('Status: successful');
      await search.press('Enter');
      await page.getByText(/^1 of \d+$/).waitFor();
      await page
        .getByRole('region', { name: 'Log lines' })
        .getByText('Status: successful', { exact: true })
        .waitFor();
      await screenshotsInBothThemes(page, 'build-results-log');

      // Lintian's counts, on the lintian step's page.
      await openStep(page, workflowId, /lintian\s*Worker/);
      await page.getByTestId('results-lintian').waitFor({ timeout: 60_000 });
      await expect(
        page.getByTestId('lintian-classification').first().textContent(),
      ).resolves.toMatch(/^\d+ classification$/);
      // Every lintian artifact's tags are read (analysis.json) before the page is looked at.
      await expect
        .poll(() => page.getByText("Reading lintian's tags…").count(), { timeout: 60_000 })
        .toBe(0);
      await expect(
        page.getByRole('table', { name: 'Lintian tags' }).count(),
      ).resolves.toBeGreaterThan(0);
      await screenshotsInBothThemes(page, 'build-results-lintian');

      // Autopkgtest: each test's result, on its step's page.
      await openStep(page, workflowId, /autopkgtest\s*Worker/);
      const greets = page.getByTestId('autopkgtest-row').filter({ hasText: 'greets' });
      await greets.waitFor({ timeout: 60_000 });
      await expect(greets.textContent()).resolves.toMatch(/pass/i);
      await screenshotsInBothThemes(page, 'build-results-autopkgtest');
      expect(errors).toEqual([]);
      await page.context().close();
    },
    (BUILD_MINUTES + 5) * 60_000,
  );

  it(
    "notifies the failing package's build with the make error line",
    async () => {
      if (!realWork) return;
      const pkg = realPackages().failing;
      const { page, errors } = await openPage(session.browser, session.app);
      await notifyEverything(page);
      await uploadAndStart(page, pkg, realWork.sbuildTemplate);
      expect(await completion(page)).toMatch(/Failure|Error/);
      // The workflow's page says where it failed.
      await expect
        .poll(() => page.locator('.wr-page-reason').textContent(), { timeout: 120_000 })
        .toMatch(/make: \*\*\*.*Error/);
      // The tree of steps: the failed step's own one-line reason.
      const stepReason = page.locator('.wr-node-reason [data-testid^="failure-"]').first();
      await stepReason.waitFor({ timeout: 60_000 });
      await expect(stepReason.textContent()).resolves.toMatch(/^build: make: \*\*\*.*Error 1$/);
      await screenshotsInBothThemes(page, 'build-results-failed-workflow');
      await goTo(page, 'Work requests');
      await page.getByRole('tab', { name: 'Notifications' }).click();
      const told = page
        .locator('[data-testid^="notification-"]')
        .filter({ hasText: /make: \*\*\*.*Error/ })
        .first();
      await told.waitFor({ timeout: 120_000 });
      await screenshotsInBothThemes(page, 'build-results-failure-notifications');
      // Its "Open log" opens the build log at the line where the build broke, as a click on
      // the desktop notification does.
      await told
        .getByRole('button', { name: /^Open the log of work request \d+ at line \d+$/ })
        .click();
      const marked = page.locator('.log-row.marked');
      await marked.waitFor({ timeout: 60_000 });
      await expect(marked.textContent()).resolves.toMatch(
        /make: \*\*\* \[debian\/rules:4: build-arch\] Error 1/,
      );
      // "Jump to the error" goes to the same line from anywhere in the log.
      await page.keyboard.press('Control+g');
      const goto = page.getByRole('textbox', { name: 'Go to line (Ctrl+G)' });
      await goto.fill('1');
      await goto.press('Enter');
      await page.getByRole('button', { name: 'Line 1', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Jump to the error' }).click();
      await expect(
        page
          .locator('.log-row.selected, .log-row.marked')
          .filter({ hasText: /make: \*\*\*/ })
          .count(),
      ).resolves.toBeGreaterThan(0);
      await screenshotsInBothThemes(page, 'build-results-failed-log');
      expect(errors).toEqual([]);
      await page.context().close();
    },
    (BUILD_MINUTES + 5) * 60_000,
  );
});
