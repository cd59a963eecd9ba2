import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { startWebHost, type RunningWebHost } from '../support/web-host';

describe('the app shell in Chromium', () => {
  let host: RunningWebHost;
  let browser: Browser;

  beforeAll(async () => {
    host = await startWebHost();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await host.stop();
  });

  it.each(['light', 'dark'] as const)('shows its areas in the %s theme', async (colorScheme) => {
    const page = await browser.newPage({ colorScheme, viewport: { width: 1200, height: 760 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(await host.nextUrl());
    await page.getByTestId('app-shell').waitFor();
    const nav = page.getByRole('navigation', { name: 'Areas' });
    for (const area of ['Upload', 'Work requests', 'Artifacts', 'Settings']) {
      await expect(nav.getByRole('button', { name: area }).count()).resolves.toBe(1);
    }
    await nav.getByRole('button', { name: 'Work requests' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Work requests',
    );
    await screenshot(page, `app-shell-${colorScheme}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
