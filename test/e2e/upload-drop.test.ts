import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import {
  debianFixtures,
  missingDebianTools,
  type DebianFixtures,
} from '../support/debian-fixtures';
import { dropFiles } from '../support/drop-files';
import { appSession, goTo, screenshotAndCheckA11y } from '../support/e2e';
import { hasServer } from '../support/sandbox';

/**
 * A draft with a problem cannot be uploaded: its Upload button is disabled (pictured as
 * `name`); discarding it removes it.
 */
async function refusedThenDiscarded(page: Page, draft: Locator, name: string): Promise<void> {
  await expect(
    draft.getByRole('button', { name: 'Upload', exact: true }).isDisabled(),
  ).resolves.toBe(true);
  await screenshotAndCheckA11y(page, name);
  await draft.getByRole('button', { name: 'Discard' }).click();
  await draft.waitFor({ state: 'detached' });
}

describe.runIf(hasServer('current') && missingDebianTools() === undefined)(
  'dropping and uploading real Debian packages',
  () => {
    let fx: DebianFixtures;
    const session = appSession('current', {
      seed: () => {
        fx = debianFixtures();
      },
    });

    it('shows a broken .changes set’s failing rule next to the file, before sending', async () => {
      const { page, errors } = await openPage(session.browser, session.app, 'light');
      await goTo(page, 'Upload');
      // The .changes without the second binary package it lists.
      const broken = [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, fx.debs[0] ?? ''];
      await dropFiles(page, broken);
      const draft = page.getByTestId('draft');
      await draft.waitFor();
      await expect(draft.getByRole('heading', { level: 2 }).textContent()).resolves.toContain(
        'debian:upload',
      );
      await page.getByTestId('draft-blocked').waitFor();
      const missing = basename(fx.debs[1] ?? '');
      const row = page.getByTestId('draft-file').filter({ hasText: missing });
      await expect(row.getByTestId('file-problems').textContent()).resolves.toMatch(/\S/);
      await refusedThenDiscarded(page, draft, 'upload-problem-light');
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it('shows a .deb whose content differs from what the .changes lists next to it, before sending', async () => {
      const { page, errors } = await openPage(session.browser, session.app, 'light');
      await goTo(page, 'Upload');
      // The same set, with one byte of the second .deb changed: same size, another sha256.
      const dir = mkdtempSync(join(tmpdir(), 'ddt-tampered-'));
      const set = [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs].map((file) => {
        const copy = join(dir, basename(file));
        copyFileSync(file, copy);
        return copy;
      });
      const tampered = set[set.length - 1] ?? '';
      const bytes = readFileSync(tampered);
      const last = bytes.length - 2;
      bytes[last] = (bytes[last] ?? 0) ^ 0xff;
      writeFileSync(tampered, bytes);
      await dropFiles(page, set);
      const draft = page.getByTestId('draft');
      await draft.waitFor();
      await page.getByTestId('draft-blocked').waitFor();
      const row = page.getByTestId('draft-file').filter({ hasText: basename(tampered) });
      const problem = row.getByTestId('file-problems');
      await problem.waitFor();
      await expect(problem.textContent()).resolves.toMatch(/has sha256 [0-9a-f]+.*lists/);
      await refusedThenDiscarded(page, draft, 'upload-checksum-problem-light');
      rmSync(dir, { recursive: true, force: true });
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it('uploads a source package picked in the file chooser, with progress, then downloads it back', async () => {
      const { page, errors } = await openPage(session.browser, session.app, 'light');
      await goTo(page, 'Upload');
      await page.getByTestId('drop-zone').waitFor();
      await screenshotAndCheckA11y(page, 'upload-light');
      // The page answers files.pick with the browser's own file chooser.
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: 'Choose files…' }).click(),
      ]);
      expect(chooser.isMultiple()).toBe(true);
      await chooser.setFiles([fx.dsc, fx.sourceTarball]);
      const draft = page.getByTestId('draft');
      await draft.waitFor();
      await page.getByTestId('draft-ready').waitFor();
      await expect(draft.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
        'debian:source-package',
      );
      await expect(draft.getByTestId('draft-file').count()).resolves.toBe(2);
      await screenshot(page, 'upload-draft-light');
      await draft.getByRole('button', { name: 'Upload', exact: true }).click();

      const row = page.getByTestId('upload-row').first();
      await row.waitFor();
      await expect(row.getByTestId('upload-progress').textContent()).resolves.toMatch(/%/);
      // A finished upload opens its artifact's page.
      await page
        .getByRole('heading', { name: /^#\d+ debian:source-package$/ })
        .waitFor({ timeout: 60_000 });
      // Uploaded from this window: its page offers the next step.
      await page.getByRole('heading', { name: 'Uploaded. Start a workflow on it?' }).waitFor();
      const files = page.getByTestId('artifact-file');
      await expect(files.count()).resolves.toBe(2);
      const text = (await files.allTextContents()).join('\n');
      expect(text).toContain(basename(fx.dsc));
      expect(text).toContain(basename(fx.sourceTarball));
      await screenshot(page, 'artifact-uploaded-light');

      // The download link gives back the same bytes.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Download ${basename(fx.dsc)}` }).click(),
      ]);
      const saved = await download.path();
      expect(download.suggestedFilename()).toBe(basename(fx.dsc));
      expect(readFileSync(saved).equals(readFileSync(fx.dsc))).toBe(true);

      // The queue keeps the completed job; the draft went with the start.
      await goTo(page, 'Upload');
      await expect(page.getByTestId('draft').count()).resolves.toBe(0);
      await expect(page.getByTestId('upload-row').first().getAttribute('data-state')).resolves.toBe(
        'completed',
      );
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it('uploads a .changes set dropped on the window', async () => {
      const { page, errors } = await openPage(session.browser, session.app, 'dark');
      const set = [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs];
      // Dropped while another area is shown: the window takes it to Upload.
      await goTo(page, 'Upload');
      await page.getByTestId('drop-zone').waitFor();
      await screenshotAndCheckA11y(page, 'upload-dark');
      await dropFiles(page, set);
      const draft = page.getByTestId('draft');
      await page.getByTestId('draft-ready').waitFor();
      await expect(draft.getByTestId('draft-file').count()).resolves.toBe(set.length);
      await screenshotAndCheckA11y(page, 'upload-draft-dark');
      await draft.getByRole('button', { name: 'Upload', exact: true }).click();
      await page
        .getByRole('heading', { name: /^#\d+ debian:upload$/ })
        .waitFor({ timeout: 90_000 });
      await expect(page.getByTestId('artifact-file').count()).resolves.toBe(set.length);
      await screenshotAndCheckA11y(page, 'artifact-uploaded-dark');
      await goTo(page, 'Upload');
      await page.getByTestId('upload-row').first().waitFor();
      await screenshot(page, 'upload-queue-dark');
      expect(errors).toEqual([]);
      await page.context().close();
    });
  },
);
