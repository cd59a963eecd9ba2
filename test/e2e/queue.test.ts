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
import { realPackages } from '../support/real-packages';
import { startBuild } from '../support/real-builds';
import { hasServer, testServer } from '../support/sandbox';
import type { DebusineClient } from '../../src/main/api/client';
import type { WorkRequestResponse } from '../../src/shared/models';

const server = hasServer('current') ? testServer('current') : null;
const BUILD_MINUTES = 15;

/** The sbuild step of a workflow root, once the workflow has made it. */
async function sbuildStep(client: DebusineClient, rootId: number): Promise<WorkRequestResponse> {
  let found: WorkRequestResponse | undefined;
  await expect
    .poll(
      async () => {
        let read = 0;
        for await (const wr of client.workRequestIter({ taskType: 'Worker' })) {
          if (wr.workflow_root === rootId && wr.task_name === 'sbuild') found = wr;
          if (found || ++read >= 200 || wr.id < rootId) break;
        }
        return found !== undefined;
      },
      { timeout: 120_000, interval: 1_000 },
    )
    .toBe(true);
  return found as WorkRequestResponse;
}

async function statusOf(client: DebusineClient, id: number): Promise<string> {
  return (await client.workRequestGet(id)).status;
}

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

  it(
    'places a real build queued behind another, then measures it and its workflow by the first',
    async () => {
      const chroot = server?.root ?? null;
      const template = server?.realWork?.sbuildTemplate ?? null;
      if (server === null || chroot === null || template === null) return;
      const workspace = server.workspaces.default;
      // The same package twice: the sandbox's one build worker takes the first, and the
      // second waits for it; the first's success is then the second's measure.
      const pkg = realPackages().good;
      const firstRoot = startBuild(chroot, workspace, pkg, template);
      const secondRoot = startBuild(chroot, workspace, pkg, template);
      made.push(firstRoot, secondRoot);
      const first = await sbuildStep(client, firstRoot);
      const second = await sbuildStep(client, secondRoot);
      await expect
        .poll(async () => [await statusOf(client, first.id), await statusOf(client, second.id)], {
          timeout: BUILD_MINUTES * 60_000,
          interval: 1_000,
        })
        .toEqual(['running', 'pending']);

      const { page, errors } = await openPage(session.browser, session.app);
      const openStep = async (id: number) => {
        await goTo(page, 'Work requests');
        await page.getByRole('search').getByRole('searchbox').fill(String(id));
        await page
          .getByTestId(`wr-row-${String(id)}`)
          .getByRole('button')
          .dispatchEvent('click');
        await page.getByTestId('work-request-page').waitFor();
      };
      await openStep(second.id);
      const line = page.getByRole('region', { name: 'Queue' });
      await line.waitFor({ timeout: 30_000 });
      const place = (await line.locator('.queue-place').textContent()) ?? '';
      // What the server counted at that moment, read by curl: the busy build worker.
      const status = JSON.parse(
        execFileSync('curl', ['-sf', `${server.apiUrl}/1.0/service-status/`], {
          encoding: 'utf8',
        }),
      ) as {
        external_workers_arch: Record<string, { busy: number; connected: number; idle: number }>;
      };
      const amd64 = status.external_workers_arch.amd64;
      console.log(JSON.stringify({ place, amd64 }));
      expect(amd64?.busy).toBeGreaterThanOrEqual(1);
      expect(place).toMatch(
        /^(Next|(At least )?\d+ ahead of you) on amd64 \(\d+ of \d+ workers? busy/,
      );
      // The sandbox's other worker takes only noop tasks: left idle, it is said not to have
      // taken the build, rather than counted as free for it.
      if ((amd64?.idle ?? 0) > 0) expect(place).toContain('has not taken it');
      // The first build is running, not pending: it is not counted ahead of the second.
      const ahead = /^Next/.test(place) ? 0 : Number(/(\d+) ahead/.exec(place)?.[1]);
      expect(ahead).toBeLessThan(
        (await client.serviceStatus()).worker_tasks_arch?.amd64?.pending ?? 0,
      );
      await screenshotsInBothThemes(page, 'queue-real-build-waiting');

      // The first ends; the second starts and is measured by it.
      await expect
        .poll(() => statusOf(client, second.id), {
          timeout: BUILD_MINUTES * 60_000,
          interval: 500,
        })
        .toBe('running');
      expect((await client.workRequestGet(first.id)).result).toBe('success');
      // Its workflow ends once the step has: then it is the measure.
      await expect
        .poll(() => statusOf(client, firstRoot), { timeout: 60_000, interval: 500 })
        .toBe('completed');
      await openStep(secondRoot);
      const finish = page.getByRole('region', { name: 'Expected finish' });
      await finish.waitFor({ timeout: 30_000 });
      await screenshotsInBothThemes(page, 'queue-real-workflow-finish');
      expect(await finish.textContent()).toMatch(
        /^(Expected to finish around .+: the last success of this workflow for this package took .+, waits for people included|Running for .+: longer than the last success of this workflow for this package \(.+\))\.$/,
      );
      await openStep(second.id);
      if ((await statusOf(client, second.id)) === 'running') {
        const running = page.getByRole('region', { name: 'Queue' });
        await running.waitFor({ timeout: 30_000 });
        expect(await running.textContent()).toMatch(
          /Running for .+(of about .+ \(the last success\)|longer than the last success)/,
        );
      }
      expect(errors).toEqual([]);
      await closePage(page);
    },
    BUILD_MINUTES * 60_000 * 2,
  );
});
