import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { LocalArtifact } from '../../src/main/artifacts';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import { clientFor } from '../support/clients';
import { appSession, closePage, createEmptyArtifact, goTo, signInWithToken } from '../support/e2e';
import { hasServer, testServer } from '../support/sandbox';

// An artifact id means a different artifact on each server. The app starts signed in to
// the current sandbox, adds the earlier one, opens artifact N (or a file of it, in the log
// viewer) on the current one, and switches to the earlier one: the area then shows the
// earlier server's list, and never the current server's page under the earlier server's
// name (the page's every state is recorded from the switch on, so a brief one counts
// too). A pasted address names its server: it opens there, switching to it, and an
// address of a server the app does not know opens nothing and says so.
describe.runIf(hasServer('current') && hasServer('earlier'))('switching servers', () => {
  const current = testServer('current');
  const earlier = testServer('earlier');
  const EARLIER_NAME = 'earlier sandbox';
  let client: DebusineClient;
  let earlierClient: DebusineClient;
  let artifactId: number;
  /** The file only the current server's artifact N has. */
  let marker: string;
  /** An artifact of the current server with a text file, for the log viewer. */
  let logArtifactId: number;
  let dir: string;
  /** The text of its one line, only on the current server. */
  const LOG_LINE = `only on the current sandbox ${String(Date.now())}`;

  const session = appSession('current', {
    seed: async () => {
      client = clientFor(current);
      earlierClient = clientFor(earlier);
      artifactId = await createEmptyArtifact(client, current.workspaces.default, 'e2e-switch');
      const files = Object.keys((await client.artifactGet(artifactId)).files);
      marker = files[0] ?? '';
      expect(marker).toMatch(/^e2e-switch-/);
      dir = mkdtempSync(join(tmpdir(), 'server-switch-'));
      writeFileSync(join(dir, 'switch.log'), `${LOG_LINE}\n`);
      const log = new LocalArtifact('debusine:work-request-debug-logs', {});
      log.files.set('switch.log', join(dir, 'switch.log'));
      logArtifactId = (await uploadArtifact(client, log, { workspace: current.workspaces.default }))
        .id;
    },
    close: async () => {
      await client.close();
      await earlierClient.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });

  async function switchTo(page: Page, name: RegExp): Promise<void> {
    await page.getByTestId('server-switcher').click();
    await page.getByRole('menu', { name: 'Servers' }).getByRole('menuitemradio', { name }).click();
  }

  const currentHost = (): string => new URL(current.apiUrl).host;
  const currentName = (): RegExp => new RegExp(currentHost().replace(/\./g, '\\.'));

  /** Adds the earlier sandbox, signed in (which makes it active), unless the app has it. */
  async function addEarlier(page: Page): Promise<void> {
    await page.getByTestId('server-switcher').click();
    const menu = page.getByRole('menu', { name: 'Servers' });
    // The menu lists the servers once they are read: the current one is always there.
    await menu.getByRole('menuitemradio', { name: currentName() }).waitFor();
    const known = await menu.getByRole('menuitemradio', { name: new RegExp(EARLIER_NAME) }).count();
    await page.keyboard.press('Escape');
    if (known > 0) return;
    await goTo(page, 'Settings');
    await page.getByRole('button', { name: 'Add server…' }).click();
    const form = page.getByRole('form', { name: /add a server/i });
    await form.getByLabel('API URL').fill(earlier.apiUrl);
    await form.getByLabel('Scope').fill(earlier.scope);
    await form.getByLabel('Name').fill(EARLIER_NAME);
    await form.getByRole('button', { name: 'Add server' }).click();
    await signInWithToken(page, earlier.users.owner.token);
    await page.getByTestId('server-switcher').getByText(EARLIER_NAME).waitFor();
  }

  /** Records, from now on, each state of the page: which server it names, and whether `text` shows. */
  async function recordStates(page: Page, text: string): Promise<void> {
    // The test files have no DOM types: the page-side code goes over as source text.
    await page.evaluate(`(() => {
      const text = ${JSON.stringify(text)};
      const name = ${JSON.stringify(EARLIER_NAME)};
      const seen = (window.seenStates = []);
      new MutationObserver(() => {
        const shown = document.querySelector('[data-testid="server-switcher"]')?.textContent;
        seen.push({
          earlier: (shown ?? '').includes(name),
          current: document.body.textContent.includes(text),
        });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
  }

  /** The switch changed the page, and no state showed the current server's text under the earlier's name. */
  async function expectNoMixedState(page: Page): Promise<void> {
    const seen = await page.evaluate<{ earlier: boolean; current: boolean }[]>('window.seenStates');
    expect(seen.some((s) => s.earlier)).toBe(true);
    expect(seen.filter((s) => s.earlier && s.current)).toEqual([]);
  }

  async function lookUp(page: Page, text: string): Promise<void> {
    await goTo(page, 'Artifacts');
    const lookup = page.getByRole('search').getByLabel('Artifact id or URL');
    await lookup.fill(text);
    await lookup.press('Enter');
  }

  it("shows the earlier server's list after a switch, never the current server's artifact N", async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    await addEarlier(page);
    const switcher = page.getByTestId('server-switcher');

    // Back to the current sandbox (its profile is named after its host), and open N there.
    await switchTo(page, currentName());
    await switcher.getByText(currentHost()).waitFor();
    await lookUp(page, String(artifactId));
    await page
      .getByRole('heading', { name: `#${String(artifactId)} debusine:test`, exact: true })
      .waitFor();
    await page.getByText(marker).waitFor();

    await recordStates(page, marker);
    await switchTo(page, new RegExp(EARLIER_NAME));
    // The page was the current server's: the earlier server's list shows instead (its
    // artifact N is another artifact, or none).
    await page.getByRole('heading', { name: 'Open an artifact' }).waitFor();
    await switcher.getByText(EARLIER_NAME).waitFor();
    await screenshot(page, 'artifact-after-server-switch-light');
    await expectNoMixedState(page);
    await expect(page.getByText(marker).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('closes the log viewer on a switch: no file of one server under the name of another', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    await addEarlier(page);
    await switchTo(page, currentName());
    await page.getByTestId('server-switcher').getByText(currentHost()).waitFor();
    await lookUp(page, String(logArtifactId));
    await page.getByRole('button', { name: 'Open switch.log' }).click();
    const body = page.getByRole('region', { name: 'Log lines' });
    await body.getByText(LOG_LINE, { exact: true }).waitFor();

    await recordStates(page, LOG_LINE);
    await switchTo(page, new RegExp(EARLIER_NAME));
    await page.getByRole('heading', { name: 'Open an artifact' }).waitFor();
    await expectNoMixedState(page);
    await expect(page.getByRole('heading', { name: 'switch.log' }).count()).resolves.toBe(0);
    // Nothing left on screen offers "Link to line" for the current server's file.
    await expect(page.getByRole('button', { name: /link to line/i }).count()).resolves.toBe(0);

    // Back on the current server, its log is there again, its own.
    await switchTo(page, currentName());
    await body.getByText(LOG_LINE, { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await closePage(page);
  });

  it('opens a pasted address on the server it names, and refuses one of an unknown server', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    await addEarlier(page);
    const switcher = page.getByTestId('server-switcher');
    await switchTo(page, new RegExp(EARLIER_NAME));
    await switcher.getByText(EARLIER_NAME).waitFor();

    // The current server's web page of artifact N, pasted while the earlier one is active.
    const address = `${current.webUrl}/${current.scope}/${current.workspaces.default}/artifact/${String(artifactId)}/`;
    await lookUp(page, address);
    await page
      .getByRole('heading', { name: `#${String(artifactId)} debusine:test`, exact: true })
      .waitFor();
    await page.getByText(marker).waitFor();
    await switcher.getByText(currentHost()).waitFor();

    // An address of a server the app does not know opens nothing, and says so.
    await lookUp(page, 'https://unknown.example/debusine/System/artifact/5/');
    await page
      .getByRole('search')
      .getByRole('alert')
      .filter({ hasText: "https://unknown.example, which is not one of the app's servers" })
      .waitFor();
    await switcher.getByText(currentHost()).waitFor();

    // The command palette takes addresses the same way.
    await switchTo(page, new RegExp(EARLIER_NAME));
    await switcher.getByText(EARLIER_NAME).waitFor();
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(/Type a command/).fill(address);
    await page.getByRole('option', { name: /Open this address/ }).click();
    await switcher.getByText(currentHost()).waitFor();
    await page
      .getByRole('heading', { name: `#${String(artifactId)} debusine:test`, exact: true })
      .waitFor();
    expect(errors).toEqual([]);
    await closePage(page);
  });
});
