import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../support/a11y';
import { openPage } from '../support/app';
import { appSession } from '../support/e2e';

describe('the app shell is accessible', () => {
  const session = appSession('current');

  it.each(['light', 'dark'] as const)('has no serious axe violations (%s)', async (scheme) => {
    const { page, errors } = await openPage(session.browser, session.app, scheme);
    await page.keyboard.press('Control+K');
    await page.getByRole('dialog').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
