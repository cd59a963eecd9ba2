import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../support/a11y';
import { startApp, openPage, type RunningApp } from '../support/app';
import { launchBrowser } from '../support/browser';

describe('the app shell is accessible', () => {
  let app: RunningApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startApp('current');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
  });

  it.each(['light', 'dark'] as const)('has no serious axe violations (%s)', async (scheme) => {
    const { page, errors } = await openPage(browser, app, scheme);
    await page.keyboard.press('Control+K');
    await page.getByRole('dialog').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
