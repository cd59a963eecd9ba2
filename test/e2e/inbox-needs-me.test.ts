/**
 * The "needs me" inbox. Waiting steps are seeded in the sandbox's database
 * (test/support/seed-steps.ts); the unblock and confirm endpoints then act on them for real.
 */
import { describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import { appSession, screenshotAndCheckA11y, goToTab } from '../support/e2e';
import { ownerClient } from '../support/clients';
import { seedWaitingStep } from '../support/seed-steps';

describe('the needs-me inbox', () => {
  const client: DebusineClient = ownerClient('current');
  const session = appSession('current', { close: () => client.close() });

  it('lists waiting steps and acts on them with notes', async () => {
    const server = session.app.server;
    if (!server) throw new Error('no server');
    const confirmId = await seedWaitingStep(server, { kind: 'confirm' });
    const unblockId = await seedWaitingStep(server, { kind: 'manual-unblock' });

    const { page, errors } = await openPage(session.browser, session.app);
    await goToTab(page, 'Work requests', /Needs me/);
    const inbox = page.getByTestId('needs-me');
    await inbox.getByTestId(`needs-me-${String(confirmId)}`).waitFor();
    await expect(page.getByTestId('aggregate-state').textContent()).resolves.toMatch(
      /need(s)? input/,
    );
    await screenshotAndCheckA11y(page, 'inbox-light');

    // Unblock with notes. (0.16 responses do not say a blocked step's unblock strategy, so
    // the inbox cannot single out manual ones; the step is reached through the list.)
    await page.getByRole('tab', { name: 'All work requests' }).click();
    await page.getByRole('search').getByRole('searchbox').fill(String(unblockId));
    await page
      .getByTestId(`wr-row-${String(unblockId)}`)
      .getByRole('button')
      .click();
    const waiting = page.getByTestId('waiting-step');
    await waiting.waitFor();
    await screenshot(page, 'inbox-unblock-page-light');
    await waiting.getByLabel('Notes (optional)').fill('Checked by the e2e test');
    await waiting.getByRole('button', { name: 'Accept and unblock' }).click();
    await expect
      .poll(async () => (await client.workRequestGet(unblockId)).status, { timeout: 30_000 })
      .not.toBe('blocked');

    // Confirm with a comment, from the inbox.
    await page.getByRole('button', { name: 'Work requests', exact: true }).first().click();
    await page.getByRole('search').getByRole('searchbox').fill('');
    await page.getByRole('tab', { name: /Needs me/ }).click();
    await inbox.getByRole('button', { name: `Review work request ${String(confirmId)}` }).click();
    await waiting.waitFor();
    await waiting.getByLabel('Comment (optional)').fill('Looks good');
    await waiting.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect
      .poll(async () => (await client.workRequestGet(confirmId)).status, { timeout: 30_000 })
      .toBe('completed');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('explains external signing, with debsign or the CLI (dark)', async () => {
    const server = session.app.server;
    if (!server) throw new Error('no server');
    // Any artifact id works for showing the step; the signing itself is main's to test.
    const signId = await seedWaitingStep(server, {
      kind: 'externaldebsign',
      unsignedArtifactId: 1,
    });
    const { page, errors } = await openPage(session.browser, session.app, 'dark');
    await goToTab(page, 'Work requests', /Needs me/);
    await page
      .getByRole('button', { name: `Sign and upload work request ${String(signId)}` })
      .click();
    const waiting = page.getByTestId('waiting-step');
    await waiting.waitFor();
    await expect(waiting.textContent()).resolves.toContain('waits for your signature');
    // Either the one-click button (debsign here) or the CLI command to copy.
    await waiting
      .getByRole('button', { name: 'Sign and upload' })
      .or(waiting.getByText(`debusine work-request sign ${String(signId)}`))
      .waitFor();
    await screenshotAndCheckA11y(page, 'inbox-sign-page-dark');
    await page.getByRole('button', { name: 'Work requests', exact: true }).first().click();
    await page.getByRole('tab', { name: /Needs me/ }).click();
    await page.getByTestId('needs-me').waitFor();
    await screenshotAndCheckA11y(page, 'inbox-dark');
    // Leave the sandbox tidy: abort the seeded step.
    await client.workRequestAbort(signId);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
