/**
 * The live log of a running build, on the current sandbox with real builds: a package whose
 * build prints a line a second for 40 seconds and then fails is started with the sandbox's
 * Debusine client (as a developer would, outside the app); its workflow is watched in the
 * app. The running sbuild step's "Live log" shows its lines while it runs; the early
 * warning "sbuild ddt-slow 1.0 amd64 is failing" comes before the step completes and quotes
 * the line where the build broke; when the step ends, the viewer gives way to the stored
 * build log at the line it was following, the newest.
 */
import { describe, expect, it } from 'vitest';
import { ownerClient } from '../support/clients';
import { openPage } from '../support/app';
import { appSession, goTo, screenshotsInBothThemes } from '../support/e2e';
import { slowFailingPackage } from '../support/real-packages';
import { startBuild } from '../support/real-builds';
import { hasServer, testServer } from '../support/sandbox';

const BUILD_MINUTES = 15;
const server = hasServer('current') ? testServer('current') : null;
const root = server?.sandbox ? (server.root ?? null) : null;
const template = server?.realWork?.sbuildTemplate ?? null;

describe.runIf(root !== null && template !== null)('the live log of a running build', () => {
  const session = appSession('current');

  it(
    'shows the lines as they come, warns before the step ends, then shows the stored log',
    async () => {
      if (root === null || template === null || server === null) return;
      const workspace = server.workspaces.default;
      const rootId = startBuild(root, workspace, slowFailingPackage(), template);
      const { page, errors } = await openPage(session.browser, session.app);

      // The workflow's page, watched: its running builds are followed for early warnings.
      await goTo(page, 'Work requests');
      await page.getByRole('search').getByRole('searchbox').fill(String(rootId));
      await page
        .getByTestId(`wr-row-${String(rootId)}`)
        .getByRole('button')
        .dispatchEvent('click');
      await page.getByTestId('work-request-page').waitFor();
      await page
        .getByRole('toolbar', { name: 'Work request actions' })
        .getByRole('button', {
          name: 'Watch',
        })
        .click();
      // The tree's row of the running sbuild step offers its live log.
      const liveButton = page.getByRole('button', { name: /^Live log of sbuild #\d+$/ });
      await liveButton.waitFor({ timeout: BUILD_MINUTES * 60_000 });
      const label = (await liveButton.getAttribute('aria-label')) ?? '';
      const stepId = Number(/#(\d+)$/.exec(label)?.[1]);
      await screenshotsInBothThemes(page, 'live-log-step-row');
      await liveButton.click();

      // Lines of the build while it runs: the stream is still live when they show.
      const bar = page.getByTestId('live-bar');
      await page
        .locator('.log-row')
        .filter({ hasText: 'ddt-slow: step 8 of 40' })
        .waitFor({ timeout: BUILD_MINUTES * 60_000 });
      expect(await bar.getAttribute('data-status')).toBe('streaming');
      await screenshotsInBothThemes(page, 'live-log-running');
      // The lines drawn while the live view lasts, in order, and whether it was following
      // the newest line (the Follow button shows while the step runs).
      await page.evaluate(`(() => {
        const note = () => {
          if (!document.querySelector('[data-testid="live-bar"]')) return;
          const rows = [...document.querySelectorAll('.log-row')]
            .map((row) => ({
              index: Number(row.dataset.index),
              text: row.querySelector('.log-text')?.textContent ?? '…',
            }))
            .filter((row) => row.text !== '…')
            .sort((a, b) => a.index - b.index);
          if (rows.length > 0) window.__liveTail = rows.map((row) => row.text);
          const follow = document.querySelector('[data-testid="live-bar"] button[aria-pressed]');
          if (follow) window.__liveFollowing = follow.getAttribute('aria-pressed') === 'true';
        };
        new MutationObserver(note).observe(document.body, {
          subtree: true,
          attributes: true,
          childList: true,
          characterData: true,
        });
      })()`);

      // The early warning, in a second window's list of notifications.
      const second = await openPage(session.browser, session.app);
      await goTo(second.page, 'Work requests');
      await second.page.getByRole('tab', { name: 'Notifications' }).click();
      const warning = second.page.getByTestId(`notification-${String(stepId)}`);
      await warning.waitFor({ timeout: BUILD_MINUTES * 60_000 });
      await expect(warning.textContent()).resolves.toMatch(
        /sbuild ddt-slow 1\.0 amd64 is failing.*make\[1\]: \*\*\* \[debian\/rules:\d+: fail\] Error 1/,
      );
      const shownAt = (await warning.locator('time').getAttribute('datetime')) ?? '';
      await screenshotsInBothThemes(second.page, 'live-log-early-warning');

      // The live view follows the newest line to the end (were it turned off meanwhile).
      await page.bringToFront();
      const follow = page.getByTestId('live-bar').getByRole('button', { name: 'Follow' });
      if ((await follow.count()) === 1 && (await follow.textContent())?.trim() === 'Follow') {
        await follow.click().catch(() => undefined);
      }

      // The step ends: the viewer shows its stored build log instead.
      await page
        .getByRole('heading', { name: /^ddt-slow_1\.0_amd64-.*\.build$/ })
        .waitFor({ timeout: BUILD_MINUTES * 60_000 });
      // At the line the live view was following, the newest: the same text, selected and on
      // screen; or, when the stored log has not that line (sbuild prints its last lines after
      // closing its log file), the newest line before it that the stored log has: none of
      // the live lines after the one marked is among the stored lines below it (sbuild's
      // "E: Build failure" is also higher up in the stored log, in its cleanup).
      const marked = page.locator('.log-row.marked');
      await marked.waitFor();
      const liveTail: unknown = await page.evaluate('window.__liveTail ?? null');
      const following: unknown = await page.evaluate('window.__liveFollowing ?? null');
      expect(Array.isArray(liveTail)).toBe(true);
      const tail = (liveTail as unknown[]).map(String);
      const markedText = marked.locator('.log-text');
      await expect.poll(() => markedText.textContent(), { timeout: 10_000 }).not.toBe('…');
      const text = (await markedText.textContent()) ?? '';
      await expect.poll(() => page.locator('.log-pending').count()).toBe(0);
      const markedIndex = Number(await marked.getAttribute('data-index'));
      // A string, as the test project has no DOM types.
      const below: unknown = await page.evaluate(
        `[...document.querySelectorAll('.log-row')]
          .filter((row) => Number(row.dataset.index) > ${String(markedIndex)})
          .map((row) => row.querySelector('.log-text')?.textContent ?? '')`,
      );
      const storedBelow = (below as unknown[]).map(String);
      // What the two views showed, for a failure to be read by.
      console.log(JSON.stringify({ following, marked: text, live: tail.slice(-12) }));
      expect(tail).toContain(text);
      // Following to the end: nothing but the user scrolling up turns it off.
      expect(following).toBe(true);
      for (const later of tail.slice(tail.lastIndexOf(text) + 1)) {
        if (later !== '') expect(storedBelow).not.toContain(later);
      }
      expect(await marked.getByRole('button').getAttribute('aria-pressed')).toBe('true');
      const row = await marked.boundingBox();
      const body = await page.getByTestId('log-body').boundingBox();
      expect(row && body && row.y >= body.y && row.y + row.height <= body.y + body.height).toBe(
        true,
      );
      await screenshotsInBothThemes(page, 'live-log-stored-after');
      const step = await ownerClient('current').workRequestGet(stepId);
      expect(step).toMatchObject({ status: 'completed', result: 'failure' });
      // The warning came first.
      expect(Date.parse(shownAt)).toBeLessThan(Date.parse(step.completed_at ?? ''));
      expect(errors).toEqual([]);
      expect(second.errors).toEqual([]);
      await second.page.context().close();
      await page.context().close();
    },
    (BUILD_MINUTES * 3 + 5) * 60_000,
  );
});
