/**
 * What a page opens in main goes with the page. With a log open in the viewer and a draft
 * prepared on Upload, the page is reloaded, opening the log again each time: main keeps at
 * most 64 log handles, so handles that outlived their pages would make the log fail to
 * open after the 64th reload, and the draft would leave its folder of links in the data
 * directory. A reload here takes over a second, so the browser goes just past the cap;
 * test/unit/connection-resources.test.ts makes a hundred through the same bridge.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { dropFiles } from '../support/drop-files';
import { closePage, fakeAppSession, goTo } from '../support/e2e';

/** One more than main's cap on log handles, and one more for the log opened after. */
const RELOADS = 65;
const ARTIFACT = 4242;

describe('a page that reloads', () => {
  let dir: string;

  const session = fakeAppSession({
    seed: (fake) => {
      const text = Array.from({ length: 200 }, (_, n) => `build step ${String(n + 1)}`).join('\n');
      fake.artifact(ARTIFACT, [{ path: 'build.log', content: `${text}\n` }], {
        fields: { category: 'debusine:work-request-debug-logs', data: {} },
      });
      dir = mkdtempSync(join(tmpdir(), 'page-resources-'));
      writeFileSync(join(dir, 'notes.log'), 'a debug log to upload\n');
    },
    close: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  });

  async function openLog(page: Page): Promise<void> {
    await goTo(page, 'Artifacts');
    const lookup = page.getByRole('search').getByLabel('Artifact id or URL');
    await lookup.fill(String(ARTIFACT));
    await lookup.press('Enter');
    await page.getByRole('button', { name: 'Open build.log' }).click();
    await page
      .getByRole('region', { name: 'Log lines' })
      .getByText('build step 1', { exact: true })
      .waitFor();
  }

  function draftFolders(): string[] {
    try {
      return readdirSync(join(session.app.dataDir, 'drafts'));
    } catch {
      return [];
    }
  }

  it(
    `leaves no log handle and no draft behind after ${String(RELOADS)} reloads`,
    {
      timeout: 240_000,
    },
    async () => {
      const { page, errors } = await openPage(session.browser, session.app);
      await goTo(page, 'Upload');
      await dropFiles(page, [join(dir, 'notes.log')]);
      await page.getByText('notes.log').first().waitFor();
      expect(draftFolders()).toHaveLength(1);

      for (let reload = 0; reload < RELOADS; reload++) {
        await openLog(page);
        await page.reload();
        await page.getByTestId('app-shell').waitFor();
      }
      // The draft went with the first page; the log still opens past main's 64 handles.
      await expect.poll(draftFolders).toEqual([]);
      await openLog(page);
      await expect(page.getByText(/logs are open already/).count()).resolves.toBe(0);
      expect(errors).toEqual([]);
      await closePage(page);
    },
  );
});
