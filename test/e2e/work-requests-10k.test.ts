/**
 * The list holds 10,000 work requests and scrolls to the end. The rows are seeded
 * in bulk through the sandbox's ORM (bench/lib/seed.ts). No timing assertions: measuring
 * belongs to the bench.
 */
import { describe, expect, it } from 'vitest';
import { seedWorkRequests } from '../../bench/lib/seed';
import { currentServer } from '../../bench/lib/server';
import { openPage } from '../support/app';
import { appSession } from '../support/e2e';
import { screenshot } from '../support/browser';

// Typed by hand: the test project has no DOM types.
const TO_BOTTOM = (el: { scrollTop: number; scrollHeight: number }): void => {
  el.scrollTop = el.scrollHeight;
};

describe('work requests: 10,000 rows', () => {
  let total = 0;
  const session = appSession('current', {
    seed: () => {
      total = seedWorkRequests(currentServer(), 10_000);
    },
  });

  it('renders few rows at a time and scrolls to the end', async () => {
    expect(total).toBeGreaterThanOrEqual(10_000);
    const { page, errors } = await openPage(session.browser, session.app);
    await page
      .getByRole('navigation', { name: 'Areas' })
      .getByRole('button', { name: 'Work requests' })
      .click();
    await page.getByRole('tab', { name: 'All work requests' }).click();
    const scroller = page.getByTestId('work-request-scroller');
    await scroller.waitFor();
    const footer = page.getByTestId('list-footer');

    // Scroll to the bottom until every page is loaded; the virtualiser keeps the DOM small.
    const deadline = Date.now() + 840_000;
    let rendered = 0;
    for (;;) {
      await scroller.evaluate(TO_BOTTOM);
      rendered = Math.max(rendered, await scroller.getByRole('row').count());
      const text = (await footer.textContent()) ?? '';
      if (text.includes('all loaded')) break;
      if (Date.now() > deadline) throw new Error(`not all loaded: ${text}`);
      await page.waitForTimeout(100);
    }
    const loaded = Number(/(\d+) loaded/.exec((await footer.textContent()) ?? '')?.[1]);
    expect(loaded).toBeGreaterThanOrEqual(10_000);
    expect(rendered).toBeLessThan(100);

    // At the end: the oldest work request's row is on screen.
    await scroller.evaluate(TO_BOTTOM);
    const lastRow = scroller.getByRole('row').last();
    await expect(lastRow.getAttribute('aria-rowindex')).resolves.toBe(String(loaded + 1));
    await expect(lastRow.isVisible()).resolves.toBe(true);
    await screenshot(page, 'work-requests-10k-end-light');
    expect(errors).toEqual([]);
    await page.context().close();
    // The server pages 10 rows at a time: 1,000 requests to reach the end.
  }, 900_000);
});
