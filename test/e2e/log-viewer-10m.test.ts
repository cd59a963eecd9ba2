/**
 * A log of ten million lines in the viewer, in Chromium: far past the 1.86 million rows of
 * 18 px that fit in the tallest element Chromium lays out, so a viewer scrolled by one tall
 * sizer would leave most of it out of reach. Go to line, Ctrl+End, a search whose only
 * hit is the last line, dragging the scroll bar to its end and the wheel each show what
 * they should there, and twenty jumps leave the page with as many elements as one did.
 * The same with long lines wrapped, every thousandth line and the last taking several
 * rows: each line shown whole, rows one below the other, and the heap as flat as the page.
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
const WRAPPED = 'ten-million-wrapped.log';
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

/** Every thousandth line of the wrapped log: long enough to take several rows. */
const LONG = `a long line ${'that wraps onto several rows of the view '.repeat(12)}`.trimEnd();
const LAST_LONG =
  `the last line: needle-at-the-end ${'and it goes on and on '.repeat(40)}`.trimEnd();

/** What the tests read of a row in the page (the node tests are typed without the DOM). */
interface Box {
  top: number;
  bottom: number;
  height: number;
}
interface RowElement {
  getBoundingClientRect(): Box;
  getAttribute(name: string): string | null;
  querySelector(selector: string): RowElement | null;
}

/** Line `n` (from 1) of the log with long lines. */
function wrappedTextOf(n: number): string {
  return n === LINES ? LAST_LONG : n % 1000 === 0 ? LONG : textOf(n);
}

/** Ten million lines as tenMillionLines, but every thousandth is LONG, and the last LAST_LONG. */
function tenMillionWithLongLines(): Buffer {
  const block = Buffer.from(
    Array.from({ length: 1000 }, (_, k) => `${wrappedTextOf(k + 1)}\n`).join(''),
  );
  const blocks = Math.floor((LINES - 1) / 1000);
  const body = Buffer.alloc(blocks * block.length, block);
  const rest = block.subarray(0, ((LINES - 1) % 1000) * 3);
  return Buffer.concat([body, rest, Buffer.from(LAST_LONG)]);
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
 * From the top, the scroll bar dragged to its end (the browser's own scrolling, mapped onto
 * lines) shows the last line; from the top again, so does a search whose only hit it is.
 */
async function scrollBarAndSearchReachTheEnd(page: Page, body: Locator): Promise<void> {
  const isShown = (n: number) => shown(page, body, n);
  await body.focus();
  await page.keyboard.press('Control+Home');
  await expect.poll(() => isShown(1)).toBe(true);
  await body.evaluate((element: { scrollTop: number; scrollHeight: number }) => {
    element.scrollTop = element.scrollHeight;
  });
  await expect.poll(() => isShown(LINES)).toBe(true);

  await page.keyboard.press('Control+Home');
  await expect.poll(() => isShown(1)).toBe(true);
  const search = page.getByRole('textbox', { name: 'Search the log' });
  await search.fill('needle-at-the-end');
  await search.press('Enter');
  await page.getByText('1 of 1', { exact: true }).waitFor();
  await expect.poll(() => isShown(LINES)).toBe(true);
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
      artifactId = await uploadDebugLogs(testServer('current'), {
        [NAME]: tenMillionLines(),
        [WRAPPED]: tenMillionWithLongLines(),
      });
    },
  });

  /** A page with the log `name` open in the viewer, once it has all arrived. */
  const openTenMillion = async (name: string) => {
    const { page, errors } = await openPage(session.browser, session.app);
    await openArtifactFile(page, artifactId, name);
    const body = page.getByRole('region', { name: 'Log lines' });
    await page
      .getByTestId('log-progress')
      .filter({ hasText: /^10,000,000 lines, / })
      .waitFor();
    return { page, errors, body };
  };

  it('reaches the last line every way, and twenty jumps leave the page as it was', async () => {
    const { page, errors, body } = await openTenMillion(NAME);
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

    await scrollBarAndSearchReachTheEnd(page, body);
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

  it('with long lines wrapped: reaches every line, rows apart, DOM and heap flat', async () => {
    const { page, errors, body } = await openTenMillion(WRAPPED);
    await page.getByRole('button', { name: 'Wrap long lines' }).click();
    const isShown = (n: number) => shown(page, body, n);
    const rowOf = (n: number) =>
      page.locator(`[data-testid="log-row"][data-index="${String(n - 1)}"]`);
    const rowText = (n: number) => rowOf(n).getByTestId('log-text').textContent();
    const goto = page.getByRole('textbox', { name: 'Go to line (Ctrl+G)' });
    const goToLine = async (n: number): Promise<void> => {
      await goto.fill(String(n));
      await goto.press('Enter');
      await expect.poll(() => isShown(n)).toBe(true);
      await expect.poll(() => rowText(n)).toBe(wrappedTextOf(n));
    };
    /** The rows, by line: each starts where the one before ends, none clipped or over another. */
    const rowsApart = async (): Promise<void> => {
      const boxes = await page.getByTestId('log-row').evaluateAll((rows: RowElement[]) =>
        rows
          .map((row) => {
            const box = row.getBoundingClientRect();
            const text = row.querySelector('.log-text')?.getBoundingClientRect();
            return {
              index: Number(row.getAttribute('data-index')),
              top: box.top,
              height: box.height,
              textHeight: text?.height ?? 0,
            };
          })
          .sort((a, b) => a.index - b.index),
      );
      boxes.forEach((box, i) => {
        const before = boxes[i - 1];
        if (before) expect(Math.abs(box.top - (before.top + before.height))).toBeLessThan(1);
        expect(box.textHeight).toBeLessThanOrEqual(box.height + 0.5);
      });
    };

    // Go to line: the last one, several rows tall, whole at the bottom of the view.
    await goToLine(LINES);
    expect((await rowOf(LINES).boundingBox())?.height ?? 0).toBeGreaterThan(3 * 18);
    await rowsApart();

    // Ctrl+End from the top.
    await body.focus();
    await page.keyboard.press('Control+Home');
    await expect.poll(() => isShown(1)).toBe(true);
    await page.keyboard.press('Control+End');
    await expect.poll(() => isShown(LINES)).toBe(true);

    // The wheel moves the content by its pixels: 180 px up moves the last line 180 px down.
    const before = (await rowOf(LINES).boundingBox())?.y ?? NaN;
    await body.hover();
    await page.mouse.wheel(0, -180);
    await expect
      .poll(async () => Math.round(((await rowOf(LINES).boundingBox())?.y ?? NaN) - before))
      .toBe(180);

    await scrollBarAndSearchReachTheEnd(page, body);

    // Twenty jumps, to long lines and short ones: each whole on screen, rows apart, and the
    // page's elements no more than unwrapped there (where the pool of rows is full: a
    // wrapped screen holds as many rows or fewer), the heap (after a collection) no larger
    // than after the first jump.
    const cdp = await page.context().newCDPSession(page);
    const heap = async (): Promise<number> => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    const jump = (k: number) =>
      goToLine(
        k % 2 === 0
          ? 1000 * (1 + ((k * 2_718 + 1_003) % 9_999))
          : 1 + ((k * 2_718_281 + 1_000_003) % LINES),
      );
    const wrapButton = page.getByRole('button', { name: 'Wrap long lines' });
    await jump(0);
    await wrapButton.click();
    await expect.poll(() => wrapButton.getAttribute('aria-pressed')).toBe('false');
    const unwrapped = await elements(page);
    await wrapButton.click();
    await expect.poll(() => wrapButton.getAttribute('aria-pressed')).toBe('true');
    await rowsApart();
    const heapAfterOne = await heap();
    for (let k = 1; k < 20; k++) {
      await jump(k);
      await rowsApart();
      expect(await elements(page)).toBeLessThanOrEqual(unwrapped);
    }
    const heapAfterAll = await heap();
    expect(heapAfterAll - heapAfterOne).toBeLessThan(4 * 1024 * 1024);

    // Toggling wrap off and on keeps the line at the top.
    const top = async (): Promise<number | undefined> => {
      const view = await body.boundingBox();
      const rows = await page.getByTestId('log-row').evaluateAll((all: RowElement[]) =>
        all.map((row) => ({
          index: Number(row.getAttribute('data-index')),
          top: row.getBoundingClientRect().top,
          bottom: row.getBoundingClientRect().bottom,
        })),
      );
      return rows.find((row) => view !== null && row.top <= view.y + 1 && row.bottom > view.y + 1)
        ?.index;
    };
    await goToLine(7_000_000);
    const wrappedTop = await top();
    await page.getByRole('button', { name: 'Wrap long lines' }).click();
    await expect.poll(top).toBe(wrappedTop);

    await page.getByRole('button', { name: 'Wrap long lines' }).click();
    await goToLine(LINES);
    mkdirSync(SHOTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SHOTS, `log-viewer-10m-wrapped-${scheme}.png`) });
      await screenshotAndCheckA11y(page, `log-viewer-10m-wrapped-${scheme}`);
    }
    expect(errors).toEqual([]);
    await closePage(page);
  });
});
