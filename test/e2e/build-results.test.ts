/**
 * A failing build, uploaded and read in the app, on the current sandbox with real builds:
 * the failing source package dropped on Upload, uploaded, started through the sbuild
 * template from the artifact page's form; the workflow's page and its tree say where it
 * failed, the notification carries the make error line, and its "Open log" opens the build
 * log at that line. A good package's results (binary packages, lintian, autopkgtest, the
 * build log) are read in test/e2e/dput-journey.test.ts, on the workflow a dropped .changes
 * starts: one good pipeline per run is enough for the sandbox's one build worker.
 */
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

describe.runIf(realWork !== null)('a failing build, uploaded and read in the app', () => {
  const session = appSession('current');

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
      // The row is placed at once and its text follows from main ("…" until then).
      const marked = page.locator('.log-row.marked');
      await marked.waitFor({ timeout: 60_000 });
      await expect
        .poll(() => marked.textContent(), { timeout: 30_000 })
        .toMatch(/make: \*\*\* \[debian\/rules:4: build-arch\] Error 1/);
      // "Jump to the error" goes to the same line from anywhere in the log.
      await page.keyboard.press('Control+g');
      const goto = page.getByRole('textbox', { name: 'Go to line (Ctrl+G)' });
      await goto.fill('1');
      await goto.press('Enter');
      await page.getByRole('button', { name: 'Line 1', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Jump to the error' }).click();
      await expect
        .poll(() =>
          page
            .locator('.log-row.selected, .log-row.marked')
            .filter({ hasText: /make: \*\*\*/ })
            .count(),
        )
        .toBeGreaterThan(0);
      await screenshotsInBothThemes(page, 'build-results-failed-log');
      expect(errors).toEqual([]);
      await page.context().close();
    },
    (BUILD_MINUTES + 5) * 60_000,
  );
});
