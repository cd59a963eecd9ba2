/**
 * The queue on the current sandbox, as a user sees it: the Queue tab shows the server's own
 * counts (compared with what curl reads from `service-status/` in the same run), and the page
 * of a step no worker can take (an arm64 bootstrap; the sandbox's workers are amd64) says
 * that nothing can start it, and once watched the window's title says so. Screenshots light
 * and dark.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { ownerClient } from '../support/clients';
import { appSession, closePage, goTo, goToTab, screenshotsInBothThemes } from '../support/e2e';
import { hasServer, testServer } from '../support/sandbox';

const server = hasServer('current') ? testServer('current') : null;

describe.runIf(server?.sandbox === true)('the queue (current server)', () => {
  const client = ownerClient('current');
  const made: number[] = [];
  const session = appSession('current', {
    cleanUp: async () => {
      for (const id of made) await client.workRequestAbort(id).catch(() => undefined);
    },
    close: () => client.close(),
  });

  it('shows the server’s counts per architecture, as the server gives them', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    await goToTab(page, 'Work requests', 'Queue');
    const table = page.getByRole('table', { name: 'Queue per architecture' });
    await table.waitFor();
    const status = JSON.parse(
      execFileSync('curl', ['-sf', `${server?.apiUrl ?? ''}/1.0/service-status/`], {
        encoding: 'utf8',
      }),
    ) as { external_workers_arch: Record<string, { registered: number }> };
    const amd64 = table.getByRole('row').filter({ hasText: /^amd64/ });
    expect(await amd64.getByRole('cell').nth(1).textContent()).toBe(
      `${String(status.external_workers_arch.amd64?.registered)} of ${String(status.external_workers_arch.amd64?.registered)}`,
    );
    await screenshotsInBothThemes(page, 'queue-tab');
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('says on a step’s page that no worker can start it', async () => {
    const wr = await client.workRequestCreate({
      task_name: 'mmdebstrap',
      task_data: {
        bootstrap_options: { architecture: 'arm64' },
        bootstrap_repositories: [
          { mirror: 'http://deb.debian.org/debian', suite: 'trixie', components: ['main'] },
        ],
      },
      event_reactions: {},
      workspace: server?.workspaces.default ?? '',
    });
    made.push(wr.id);
    const { page, errors } = await openPage(session.browser, session.app);
    await goTo(page, 'Work requests');
    await page.getByRole('search').getByRole('searchbox').fill(String(wr.id));
    await page
      .getByTestId(`wr-row-${String(wr.id)}`)
      .getByRole('button')
      .dispatchEvent('click');
    await page.getByTestId('work-request-page').waitFor();
    const line = page.getByRole('region', { name: 'Queue' });
    await line.waitFor({ timeout: 30_000 });
    await expect
      .poll(() => line.textContent(), { timeout: 30_000 })
      .toContain('No worker on arm64 is connected: it cannot start until one is');
    await screenshotsInBothThemes(page, 'queue-step-stuck');
    // Watched, it is the user's: the window's title says that it cannot start.
    await page.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect
      .poll(() => page.title(), { timeout: 30_000 })
      .toContain('1 of yours cannot start: no arm64 worker is connected');
    await page.getByRole('button', { name: 'Unwatch', exact: true }).click();
    await expect.poll(() => page.title(), { timeout: 30_000 }).not.toContain('cannot start');
    expect(errors).toEqual([]);
    await closePage(page);
  });
});
