import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import type { ArtifactResponse } from '../../src/shared/contract';
import { isDebusineError } from '../../src/shared/errors';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import { clientFor } from '../support/clients';
import { appSession, closePage, createEmptyArtifact, goTo, signInWithToken } from '../support/e2e';
import { hasServer, testServer } from '../support/sandbox';

// An artifact id means a different artifact on each server. The app starts signed in to
// the current sandbox, adds the earlier one, opens artifact N on the current one, and
// switches to the earlier one: the page must then show the earlier server's artifact N, or
// say it has none, and never the current server's under the earlier server's name (the
// page's every state is recorded from the switch on, so a brief one counts too).
describe.runIf(hasServer('current') && hasServer('earlier'))('switching servers', () => {
  const current = testServer('current');
  const earlier = testServer('earlier');
  const EARLIER_NAME = 'earlier sandbox';
  let client: DebusineClient;
  let earlierClient: DebusineClient;
  let artifactId: number;
  /** The file only the current server's artifact N has. */
  let marker: string;

  const session = appSession('current', {
    seed: async () => {
      client = clientFor(current);
      earlierClient = clientFor(earlier);
      artifactId = await createEmptyArtifact(client, current.workspaces.default, 'e2e-switch');
      const files = Object.keys((await client.artifactGet(artifactId)).files);
      marker = files[0] ?? '';
      expect(marker).toMatch(/^e2e-switch-/);
    },
    close: async () => {
      await client.close();
      await earlierClient.close();
    },
  });

  /** The earlier sandbox's artifact with this id, or null where it has none. */
  async function onEarlier(id: number): Promise<ArtifactResponse | null> {
    try {
      return await earlierClient.artifactGet(id);
    } catch (error) {
      if (isDebusineError(error) && error.code === 'not-found') return null;
      throw error;
    }
  }

  async function switchTo(page: Page, name: RegExp): Promise<void> {
    await page.getByTestId('server-switcher').click();
    await page.getByRole('menu', { name: 'Servers' }).getByRole('menuitemradio', { name }).click();
  }

  it("shows the earlier server's artifact N, or none, never the current server's", async () => {
    const { page, errors } = await openPage(session.browser, session.app);

    // Add the earlier sandbox and sign in to it (which makes it the active server).
    await goTo(page, 'Settings');
    await page.getByRole('button', { name: 'Add server…' }).click();
    const form = page.getByRole('form', { name: /add a server/i });
    await form.getByLabel('API URL').fill(earlier.apiUrl);
    await form.getByLabel('Scope').fill(earlier.scope);
    await form.getByLabel('Name').fill(EARLIER_NAME);
    await form.getByRole('button', { name: 'Add server' }).click();
    await signInWithToken(page, earlier.users.owner.token);
    const switcher = page.getByTestId('server-switcher');
    await switcher.getByText(EARLIER_NAME).waitFor();

    // Back to the current sandbox (its profile is named after its host), and open N there.
    const currentHost = new URL(current.apiUrl).host;
    await switchTo(page, new RegExp(currentHost.replace(/\./g, '\\.')));
    await switcher.getByText(currentHost).waitFor();
    await goTo(page, 'Artifacts');
    const lookup = page.getByRole('search').getByLabel('Artifact id or URL');
    await lookup.fill(String(artifactId));
    await lookup.press('Enter');
    await page
      .getByRole('heading', { name: `#${String(artifactId)} debusine:test`, exact: true })
      .waitFor();
    await page.getByText(marker).waitFor();

    // From here on, every state of the page: does the top bar name the earlier server, and
    // does the page show the current server's artifact? (The test files have no DOM types:
    // the page-side code goes over as source text.)
    await page.evaluate(`(() => {
      const marker = ${JSON.stringify(marker)};
      const name = ${JSON.stringify(EARLIER_NAME)};
      const seen = (window.seenStates = []);
      new MutationObserver(() => {
        const shown = document.querySelector('[data-testid="server-switcher"]')?.textContent;
        seen.push({
          earlier: (shown ?? '').includes(name),
          current: document.body.textContent.includes(marker),
        });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);

    await switchTo(page, new RegExp(EARLIER_NAME));
    const there = await onEarlier(artifactId);
    if (there === null) {
      await page.getByRole('alert').filter({ hasText: 'Not found' }).waitFor();
    } else {
      await page
        .getByRole('heading', { name: `#${String(artifactId)} ${there.category}`, exact: true })
        .waitFor();
      await expect(page.getByTestId('artifact-file').count()).resolves.toBe(
        Object.keys(there.files).length,
      );
    }
    await switcher.getByText(EARLIER_NAME).waitFor();
    await screenshot(page, 'artifact-after-server-switch-light');

    const seen = await page.evaluate<{ earlier: boolean; current: boolean }[]>('window.seenStates');
    // The switch changed the page (the recorder saw it), and no state of it showed the
    // current server's artifact under the earlier server's name.
    expect(seen.some((s) => s.earlier)).toBe(true);
    expect(seen.filter((s) => s.earlier && s.current)).toEqual([]);
    await expect(page.getByText(marker).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await closePage(page);
  });
});
