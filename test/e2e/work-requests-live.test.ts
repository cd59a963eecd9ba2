/**
 * The live work request list and page against the real current sandbox. noop work
 * requests really run on the sandbox's worker; their completions arrive over the real
 * completion websocket and must update the list and the page without a reload.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import { appSession, goTo, screenshotAndCheckA11y, goToTab } from '../support/e2e';
import { ownerClient, waitForCompletion } from '../support/clients';
import { seedWaitingStep, seedWorkRequestBy } from '../support/seed-steps';

async function goToWorkRequests(page: Page): Promise<void> {
  await goToTab(page, 'Work requests', 'All work requests');
}

async function noop(client: DebusineClient, result?: 'failure') {
  return client.workRequestCreate({
    task_name: 'noop',
    task_data: result ? { result } : {},
    event_reactions: {},
  });
}

/** A noop that failed: created, and run to its end by the sandbox's worker. */
async function failedNoop(client: DebusineClient) {
  const bad = await noop(client, 'failure');
  await waitForCompletion(client, bad.id);
  return bad;
}

/** Finds work request `id` in the list by its id, and opens its page from its row. */
async function openFromList(page: Page, id: number): Promise<void> {
  await page.getByRole('search').getByRole('searchbox').fill(String(id));
  await page
    .getByTestId(`wr-row-${String(id)}`)
    .getByRole('button')
    .click();
  await page.getByTestId('work-request-page').waitFor();
}

describe('work requests, live', () => {
  const client: DebusineClient = ownerClient('current');
  const session = appSession('current', { close: () => client.close() });

  it('shows completions live in the list and the page, and notifies for each', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    // Everything in the sandbox's workspace notifies, so that work started elsewhere (here:
    // by the API client) is notified too.
    await goTo(page, 'Settings');
    const settings = page.getByTestId('notification-settings');
    await settings.getByRole('radio', { name: /Everything in workspaces/ }).check();
    await settings.getByRole('checkbox', { name: /Failures only/ }).setChecked(false);
    await expect.poll(() => settings.getByRole('status').textContent()).toContain('Saved');

    await goToWorkRequests(page);
    await page.getByTestId('work-request-list').waitFor();
    // Main hears of completions once its websocket is connected (the top bar says so).
    await page
      .getByRole('banner')
      .getByText('Connected', { exact: true })
      .waitFor({ timeout: 60_000 });
    const ok = await noop(client);
    const bad = await noop(client, 'failure');

    // They are new: the list learns of them when they complete (no reload, no refresh click).
    const okRow = page.getByTestId(`wr-row-${String(ok.id)}`);
    const badRow = page.getByTestId(`wr-row-${String(bad.id)}`);
    await okRow.waitFor({ timeout: 90_000 });
    await expect.poll(() => okRow.getAttribute('data-result'), { timeout: 90_000 }).toBe('success');
    await badRow.waitFor({ timeout: 90_000 });
    await expect
      .poll(() => badRow.getAttribute('data-result'), { timeout: 90_000 })
      .toBe('failure');
    await expect.poll(() => okRow.textContent()).toContain('Success');
    await expect.poll(() => badRow.textContent()).toContain('Failure');
    await screenshot(page, 'work-requests-light');

    // A notification was recorded for each, and the in-app list shows them.
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByTestId(`notification-${String(ok.id)}`).waitFor({ timeout: 90_000 });
    await page.getByTestId(`notification-${String(bad.id)}`).waitFor({ timeout: 90_000 });
    await screenshotAndCheckA11y(page, 'work-requests-notifications-light');

    // The page of a running work request turns to its result by itself.
    const live = await noop(client);
    await page.getByRole('tab', { name: 'All work requests' }).click();
    await page
      .getByTestId(`wr-row-${String(ok.id)}`)
      .getByRole('button')
      .click();
    await page.getByTestId('work-request-page').waitFor();
    await expect.poll(() => page.getByTestId('wr-page-status').textContent()).toContain('Success');
    await page.getByRole('button', { name: 'Work requests', exact: true }).first().click();
    await page.getByRole('search').getByRole('searchbox').fill(String(live.id));
    const liveRow = page.getByTestId(`wr-row-${String(live.id)}`);
    await liveRow.waitFor({ timeout: 90_000 });
    // Rows shift while other work completes on a busy server (new rows come in at the top),
    // so the row never holds still for a pointer click: send the click to the element.
    await liveRow.getByRole('button').dispatchEvent('click');
    await expect
      .poll(() => page.getByTestId('wr-page-status').textContent(), { timeout: 90_000 })
      .toContain('Success');
    await page.getByRole('button', { name: 'Work requests', exact: true }).first().click();
    await page.getByRole('search').getByRole('searchbox').fill('');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('retries a failed work request and aborts a blocked one, with confirmation', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    const bad = await failedNoop(client);
    if (!session.app.server) throw new Error('the app has no server');
    const blocked = await seedWaitingStep(session.app.server, { kind: 'manual-unblock' });

    await goToWorkRequests(page);
    await openFromList(page, bad.id);
    await expect.poll(() => page.getByTestId('wr-page-status').textContent()).toContain('Failure');
    await screenshotAndCheckA11y(page, 'work-request-page-light');
    // The CLI equivalent, and the web UI's page of it.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy CLI command' }).click();
    await expect
      .poll(() => page.evaluate<string>('navigator.clipboard.readText()'))
      .toBe(`debusine work-request show ${String(bad.id)}`);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Open in browser' }).click(),
    ]);
    await expect.poll(() => popup.url()).toContain(`/work-request/${String(bad.id)}/`);
    await popup.close();

    await page.getByRole('button', { name: 'Retry' }).click();
    // An ordinary task is superseded by a new work request: its page opens.
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).textContent(), {
        timeout: 30_000,
      })
      .not.toContain(`#${String(bad.id)}`);
    const crumb = (await page.getByRole('navigation', { name: 'Breadcrumb' }).textContent()) ?? '';
    const retriedId = Number(/#(\d+)/.exec(crumb)?.[1]);
    expect(retriedId).toBeGreaterThan(bad.id);
    const retried = await client.workRequestGet(retriedId);
    expect(retried.task_name).toBe('noop');

    // Abort a blocked step: the dialog asks first; cancelling leaves it alone.
    await page.getByRole('button', { name: 'Work requests', exact: true }).first().click();
    await openFromList(page, blocked);

    // Priority: lowering one's own work request is allowed.
    await page.getByLabel('Priority adj.').fill('-5');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('wr-priority').textContent(), { timeout: 30_000 })
      .toContain('adjustment -5');
    expect((await client.workRequestGet(blocked)).priority_adjustment).toBe(-5);

    await page.getByRole('button', { name: 'Abort…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await screenshot(page, 'work-request-abort-light');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await client.workRequestGet(blocked)).status).toBe('blocked');
    await page.getByRole('button', { name: 'Abort…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Abort', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('wr-page-status').textContent(), { timeout: 30_000 })
      .toContain('Aborted');
    expect((await client.workRequestGet(blocked)).status).toBe('aborted');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('narrows the list with filters, search and saved views', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    const bad = await failedNoop(client);
    await goToWorkRequests(page);
    const list = page.getByTestId('work-request-list');
    await list.waitFor();
    await page.getByRole('search').getByRole('searchbox').fill('');
    const rowsBefore = await list.getByRole('row').count();
    expect(rowsBefore).toBeGreaterThan(2);

    await page.getByLabel('Status', { exact: true }).selectOption('completed');
    await page.getByLabel('Result', { exact: true }).selectOption('failure');
    await page.getByTestId(`wr-row-${String(bad.id)}`).waitFor();
    // Every row shown is a failure.
    await expect
      .poll(async () => [
        await list.locator('[data-result]').count(),
        await list.locator('[data-result="failure"]').count(),
      ])
      .toSatisfy(([all, failed]) => all !== undefined && all > 0 && all === failed);
    // Save the filters as a view, clear them, and bring them back from the view.
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.getByLabel('View name').fill('Failed noops');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: /Clear \d+ filters/ }).click();
    await expect(page.getByLabel('Result', { exact: true }).inputValue()).resolves.toBe('');
    await page.getByRole('button', { name: 'Failed noops', exact: true }).click();
    await expect(page.getByLabel('Result', { exact: true }).inputValue()).resolves.toBe('failure');

    // Text search by id leaves exactly that row.
    await page.getByRole('search').getByRole('searchbox').fill(String(bad.id));
    await expect.poll(() => list.locator('[data-result]').count()).toBe(1);
    await screenshotAndCheckA11y(page, 'work-requests-filtered-light');
    await page.getByRole('button', { name: /Clear \d+ filters?/ }).click();
    await page.getByRole('button', { name: 'Delete view Failed noops' }).click();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('narrows the list to my work requests, and names who created the others', async (ctx) => {
    if (!session.app.server) throw new Error('the app has no server');
    const owner = session.app.server.users.owner.username;
    const other = session.app.server.users.noRoles?.username;
    // The other user's work request is made in the sandbox's database.
    if (!session.app.server.sandbox || !other) {
      ctx.skip();
      return;
    }
    const theirs = await seedWorkRequestBy(session.app.server, other);
    const mine = await noop(client);
    const { page, errors } = await openPage(session.browser, session.app);
    await goToWorkRequests(page);
    const list = page.getByTestId('work-request-list');
    const theirRow = page.getByTestId(`wr-row-${String(theirs)}`);
    const myRow = page.getByTestId(`wr-row-${String(mine.id)}`);
    await theirRow.waitFor({ timeout: 30_000 });
    await myRow.waitFor({ timeout: 30_000 });
    // The server names the creators (0.12+): the rows say who.
    await expect.poll(() => theirRow.textContent()).toContain(other);
    await expect.poll(() => myRow.textContent()).toContain(owner);

    const mineBox = page.getByRole('checkbox', { name: 'Mine' });
    await expect(mineBox.isEnabled()).resolves.toBe(true);
    await mineBox.check();
    await myRow.waitFor();
    await theirRow.waitFor({ state: 'detached' });
    // Every row left is the owner's.
    await expect
      .poll(async () => {
        const texts = await list.locator('[data-result]').allTextContents();
        return texts.length > 0 && texts.every((t) => t.includes(owner) && !t.includes(other));
      })
      .toBe(true);
    await screenshotAndCheckA11y(page, 'work-requests-mine-light');
    await mineBox.uncheck();

    // The "Mine" saved view does the same; searching a creator's name finds their work.
    await page.getByRole('button', { name: 'Mine', exact: true }).click();
    await expect(mineBox.isChecked()).resolves.toBe(true);
    await page.getByRole('button', { name: /Clear \d+ filters?/ }).click();
    await page
      .getByRole('search')
      .getByRole('searchbox')
      .fill(`${other} ${String(theirs)}`);
    await expect.poll(() => list.locator('[data-result]').count()).toBe(1);
    await theirRow.getByRole('button').click();
    await page.getByTestId('work-request-page').waitFor();
    // The page names the creator once the server has said who user #N is.
    const creator = page.getByTestId('wr-creator');
    await expect.poll(() => creator.textContent()).toBe(other);
    await page.getByRole('button', { name: 'Work requests', exact: true }).first().click();
    await page.getByRole('search').getByRole('searchbox').fill(String(mine.id));
    await myRow.getByRole('button').click();
    await page.getByTestId('work-request-page').waitFor();
    await expect.poll(() => creator.textContent()).toBe(`${owner} (you)`);
    await page.getByRole('button', { name: 'Work requests', exact: true }).first().click();
    await page.getByRole('search').getByRole('searchbox').fill('');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('looks finished in the dark theme, and passes axe there', async () => {
    const { page, errors } = await openPage(session.browser, session.app, 'dark');
    await goToWorkRequests(page);
    await page.getByTestId('work-request-list').waitFor();
    await page.locator('[data-result]').first().waitFor();
    await screenshotAndCheckA11y(page, 'work-requests-dark');
    await page.locator('[data-result="failure"]').first().getByRole('button').click();
    await page.getByTestId('work-request-page').waitFor();
    await screenshotAndCheckA11y(page, 'work-request-page-dark');
    await page.getByRole('button', { name: 'Work requests', exact: true }).first().click();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page
      .getByTestId('recent-notifications')
      .or(page.getByText('No notifications yet'))
      .waitFor();
    await screenshotAndCheckA11y(page, 'work-requests-notifications-dark');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
