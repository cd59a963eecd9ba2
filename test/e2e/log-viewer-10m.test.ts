/**
 * A log of ten million lines in the viewer, in Chromium: far past the 1.86 million rows of
 * 18 px that fit in the tallest element Chromium lays out, so a viewer scrolled by one tall
 * sizer would leave most of it out of reach. Go to line, Ctrl+End, a search whose only
 * hit is the last line, dragging the scroll bar to its end and the wheel each show what
 * they should there, and twenty jumps leave the page with as many elements as one did.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { hasServer, testServer } from '../support/sandbox';
import {
  appSession,
  closePage,
  openArtifactFile,
  screenshotAndCheckA11y,
  uploadDebugLogs,
} from '../support/e2e';

const LINES = 10_000_000;
const NAME = 'ten-million.log';
const LAST = 'the last line: needle-at-the-end';
/** Where the pictures of the deep end of the log go, besides the test results. */
const SHOTS = '/tmp/shots-logscale';

/** Line `n` (from 1) reads its number less one, modulo 100, on two digits. */
function textOf(n: number): string {
  return String((n - 1) % 100).padStart(2, '0');
}

/**
 * Ten million lines in 30 MB, made in a few milliseconds: a block of 100 three-byte lines
 * repeated, then the last line, with no end of line after it.
 */
function tenMillionLines(): Buffer {
  const block = Buffer.from(Array.from({ length: 100 }, (_, k) => `${textOf(k + 1)}\n`).join(''));
  const body = Buffer.alloc((LINES - 1) * 3, block);
  return Buffer.concat([body, Buffer.from(LAST)]);
}

/** Whether the row of line `n` (from 1) is wholly inside the view. */
async function shown(page: Page, body: Locator, n: number): Promise<boolean> {
  const row = page.getByRole('button', { name: `Line ${String(n)}`, exact: true });
  if ((await row.count()) !== 1) return false;
  const [box, view] = await Promise.all([row.boundingBox(), body.boundingBox()]);
  return (
    box !== null && view !== null && box.y >= view.y && box.y + box.height <= view.y + view.height
  );
}

/**
 * The elements in the page, all of them, once every row on it has its text (a row still
 * waiting for its line holds one more element, its placeholder).
 */
async function elements(page: Page): Promise<number> {
  await expect.poll(() => page.locator('.log-pending').count()).toBe(0);
  return page.evaluate<number>('document.getElementsByTagName("*").length');
}

describe.runIf(hasServer('current'))('the log viewer at ten million lines', () => {
  let artifactId: number;

  const session = appSession('current', {
    seed: async () => {
      artifactId = await uploadDebugLogs(testServer('current'), { [NAME]: tenMillionLines() });
    },
  });

  it('reaches the last line every way, and twenty jumps leave the page as it was', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    await openArtifactFile(page, artifactId, NAME);
    const body = page.getByRole('region', { name: 'Log lines' });
    await page
      .getByTestId('log-progress')
      .filter({ hasText: /^10,000,000 lines, / })
      .waitFor();
    const isShown = (n: number) => shown(page, body, n);
    const rowText = (n: number) =>
      page
        .locator(`[data-testid="log-row"][data-index="${String(n - 1)}"]`)
        .getByTestId('log-text')
        .textContent();
    const goto = page.getByRole('textbox', { name: 'Go to line (Ctrl+G)' });
    const goToLine = async (n: number): Promise<void> => {
      await goto.fill(String(n));
      await goto.press('Enter');
      await expect.poll(() => isShown(n)).toBe(true);
      await expect.poll(() => rowText(n)).toBe(n === LINES ? LAST : textOf(n));
    };

    // Go to line: the last one.
    await goToLine(LINES);

    // Ctrl+End from the top.
    await body.focus();
    await page.keyboard.press('Control+Home');
    await expect.poll(() => isShown(1)).toBe(true);
    await page.keyboard.press('Control+End');
    await expect.poll(() => isShown(LINES)).toBe(true);
    await expect.poll(() => rowText(LINES)).toBe(LAST);

    // The wheel moves by pixels of content, even here: 180 px up is ten lines of 18 px.
    await page.keyboard.press('Control+Home');
    await expect.poll(() => isShown(1)).toBe(true);
    await page.keyboard.press('End');
    await expect.poll(() => isShown(LINES)).toBe(true);
    await body.hover();
    await page.mouse.wheel(0, -180);
    // The line at the bottom of the view is now the tenth before the last, exactly.
    await expect.poll(() => isShown(LINES - 10)).toBe(true);
    await expect(isShown(LINES - 9)).resolves.toBe(false);

    // The scroll bar dragged to its end: the browser's own scrolling, mapped onto lines.
    await page.keyboard.press('Control+Home');
    await expect.poll(() => isShown(1)).toBe(true);
    await body.evaluate((element: { scrollTop: number; scrollHeight: number }) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect.poll(() => isShown(LINES)).toBe(true);

    // A search whose only hit is the last line, from the top.
    await page.keyboard.press('Control+Home');
    await expect.poll(() => isShown(1)).toBe(true);
    const search = page.getByRole('textbox', { name: 'Search the log' });
    await search.fill('needle-at-the-end');
    await search.press('Enter');
    await page.getByText('1 of 1', { exact: true }).waitFor();
    await expect.poll(() => isShown(LINES)).toBe(true);
    await expect(
      page
        .locator(`[data-testid="log-row"][data-index="${String(LINES - 1)}"]`)
        .getAttribute('class'),
    ).resolves.toContain('match');

    // Twenty jumps all over the file, each landing on its line, with its own text. The rows
    // are a pool: after them the page holds no more elements than after the first.
    const jump = (k: number) => goToLine(1 + ((k * 2_718_281 + 1_000_003) % LINES));
    await jump(0);
    const afterOneJump = await elements(page);
    for (let k = 1; k < 20; k++) await jump(k);
    expect(await elements(page)).toBeLessThanOrEqual(afterOneJump);
    expect(await page.getByTestId('log-row').count()).toBeLessThan(80);

    // At the end of the file, where line numbers reach 8 digits: how it looks, in both
    // themes (the gutter is as wide as the last number needs).
    await goToLine(LINES);
    mkdirSync(SHOTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SHOTS, `log-viewer-10m-${scheme}.png`) });
      await screenshotAndCheckA11y(page, `log-viewer-10m-${scheme}`);
    }
    expect(errors).toEqual([]);
    await closePage(page);
  });
});
