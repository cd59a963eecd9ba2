import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { hasServer, testServer } from '../support/sandbox';
import {
  appSession,
  closePage,
  openArtifactFile,
  screenshotAndCheckA11y,
  screenshotsInBothThemes,
  uploadDebugLogs,
} from '../support/e2e';

const PAYLOAD = '<img src=x onerror="window.__pwned=1">';
const BUILD_LINES = 50_000;

/**
 * A debug log as hostile as a task could write: markup, terminal colours, a 1 MB line,
 * bytes that are not UTF-8, and a NUL.
 */
function hostileLog(): Buffer {
  return Buffer.concat([
    Buffer.from(`first line\n${PAYLOAD}\n`),
    Buffer.from('\u001b[31mred text\u001b[0m and \u001b[1;32mbold green\u001b[0m\n'),
    Buffer.from(`long:${'x'.repeat(1024 * 1024)}\n`),
    Buffer.from([0x62, 0x61, 0x64, 0x20, 0xff, 0xfe, 0xc3, 0x28, 0x0a]),
    Buffer.from('nul:\u0000:end\n'),
    Buffer.from('see https://example.org/docs for more\nlast line\n'),
  ]);
}

function buildLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= BUILD_LINES; i++) {
    lines.push(
      i % 10_000 === 0 ? `step ${String(i)}: needle here` : `line ${String(i)} of the build`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// The log viewer against a real server: a debug-logs artifact uploaded through main's own
// client, opened from the artifact page, read a window at a time.
describe.runIf(hasServer('current'))('the log viewer', () => {
  let artifactId: number;

  const session = appSession('current', {
    seed: async () => {
      artifactId = await uploadDebugLogs(testServer('current'), {
        'cmd-output.log': hostileLog(),
        'build.log': buildLog(),
      });
    },
  });

  /** A page in `scheme` with `path` of the artifact open in the viewer; its lines too. */
  async function openLog(path: string, scheme: 'light' | 'dark' = 'light') {
    const { page, errors } = await openPage(session.browser, session.app, scheme);
    await openArtifactFile(page, artifactId, path);
    return { page, errors, body: page.getByRole('region', { name: 'Log lines' }) };
  }

  it.each(['light', 'dark'] as const)(
    'shows a hostile log as text, and nothing in it runs (%s)',
    async (scheme) => {
      const { page, errors, body } = await openLog('cmd-output.log', scheme);
      await body.getByText(PAYLOAD, { exact: true }).waitFor();
      await body.getByText('red text and bold green').waitFor();
      await expect(body.locator('img, script').count()).resolves.toBe(0);
      // The 1 MB line is cut, and says so.
      await body.getByText(/line cut/).waitFor();
      // A NUL and bytes that are not UTF-8 arrive as visible marks, not as nothing.
      await expect(body.getByText(/^nul:.+:end$/).count()).resolves.toBe(1);
      await expect(body.getByText(/^bad /).count()).resolves.toBe(1);
      // Only the http(s) address is a link.
      await expect(body.locator('a').count()).resolves.toBe(1);
      await expect(body.locator('a').getAttribute('href')).resolves.toBe(
        'https://example.org/docs',
      );
      // Evaluated as a string: the test's own types have no DOM.
      await expect(page.evaluate('typeof window.__pwned')).resolves.toBe('undefined');
      await screenshotAndCheckA11y(page, `log-viewer-hostile-${scheme}`);
      expect(errors).toEqual([]);
      await closePage(page);
    },
  );

  it.each(['light', 'dark'] as const)(
    'searches a 50,000-line log, steps through matches, and goes to line 40000 (%s)',
    async (scheme) => {
      const { page, errors, body } = await openLog('build.log', scheme);
      await body.getByText('line 1 of the build', { exact: true }).waitFor();
      await page.getByTestId('log-progress').filter({ hasText: '50,000 lines' }).waitFor();

      const search = page.getByRole('textbox', { name: 'Search the log' });
      await search.fill('needle');
      await search.press('Enter');
      await page.getByText('1 of 5').waitFor();
      await body.getByText('step 10000: needle here').waitFor();
      await search.press('Enter');
      await page.getByText('2 of 5').waitFor();
      await body.getByText('step 20000: needle here').waitFor();
      await search.press('Shift+Enter');
      await page.getByText('1 of 5').waitFor();
      await page.keyboard.press('F3');
      await page.getByText('2 of 5').waitFor();

      await page.keyboard.press('Control+g');
      const goto = page.getByRole('textbox', { name: 'Go to line (Ctrl+G)' });
      await expect(page.evaluate('document.activeElement?.placeholder')).resolves.toBe('Line');
      await goto.fill('40000');
      await goto.press('Enter');
      // Every 10,000th line is a step line (see buildLog).
      await body.getByText('step 40000: needle here', { exact: true }).waitFor();
      await expect(
        page.getByRole('button', { name: 'Line 40000' }).getAttribute('aria-pressed'),
      ).resolves.toBe('true');
      // Only what is near the screen is in the page: the file stays in main.
      await expect(page.getByTestId('log-row').count()).resolves.toBeLessThan(200);

      await screenshotAndCheckA11y(page, `log-viewer-build-${scheme}`);
      await page.getByRole('button', { name: `Back to artifact #${String(artifactId)}` }).click();
      await page.getByRole('button', { name: 'Open build.log' }).waitFor();
      expect(errors).toEqual([]);
      await closePage(page);
    },
  );

  it('wraps long lines: the cut line flows over many rows, and go to line still lands', async () => {
    const { page, errors, body } = await openLog('cmd-output.log');
    const rows = page.getByTestId('log-row');
    const long = rows.filter({ hasText: /^\d+long:x+/ });
    await long.waitFor();
    const unwrapped = await long.boundingBox();
    const view = await body.boundingBox();
    const onScreen = async (text: string | RegExp): Promise<boolean> => {
      const box = await body.getByText(text).boundingBox();
      return (
        box !== null &&
        view !== null &&
        box.y >= view.y &&
        box.y + box.height <= view.y + view.height
      );
    };
    const goTo = async (line: number): Promise<void> => {
      await page.keyboard.press('Control+g');
      const goto = page.getByRole('textbox', { name: 'Go to line (Ctrl+G)' });
      await goto.fill(String(line));
      await goto.press('Enter');
    };

    // Wrap, and at once go to the last line (the eighth), as a reader of the end would.
    const wrap = page.getByRole('button', { name: 'Wrap long lines' });
    await wrap.click();
    await expect(wrap.getAttribute('aria-pressed')).resolves.toBe('true');
    await goTo(8);
    // It is on screen, selected, and so is the line before it: the rows around it are
    // there too, and stay there once the view has settled.
    await expect.poll(() => onScreen('last line')).toBe(true);
    await expect.poll(() => onScreen(/^see https/)).toBe(true);
    await expect(
      page.getByRole('button', { name: 'Line 8', exact: true }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await screenshotsInBothThemes(page, 'log-viewer-wrapped');
    await expect(rows.count()).resolves.toBe(8);

    // Back at the top: the cut line is as tall as its text, the lines after it are below
    // it, not under it, and nothing is wider than the view.
    await goTo(1);
    await expect.poll(() => onScreen('first line')).toBe(true);
    const longBox = await long.boundingBox();
    expect(longBox?.height ?? 0).toBeGreaterThan(10 * (unwrapped?.height ?? 18));
    const afterBox = await body.getByText(/^bad /).boundingBox();
    expect(afterBox?.y ?? 0).toBeGreaterThanOrEqual((longBox?.y ?? 0) + (longBox?.height ?? 0) - 1);
    // The test's own types have no DOM: the element is typed by what is read of it.
    const overflow = await body.evaluate(
      (element: { scrollWidth: number; clientWidth: number }) =>
        element.scrollWidth - element.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await closePage(page);
  });
});
