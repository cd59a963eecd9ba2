import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DebusineClient } from '../../src/main/api/client';
import { enrollProfile } from '../../src/main/enroll/enroll-profile';
import type { EnrollmentStarted } from '../../src/main/enroll/enroll';
import type { ServerProfile } from '../../src/main/settings/profiles';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { launchBrowser, screenshot } from '../support/browser';
import { hasServer, testServer } from '../support/sandbox';

// Enrollment against the real web UI: the owner logs in, opens the confirmation page the
// app asked to open, and confirms or cancels there.
describe.runIf(hasServer('current') && testServer('current').sandbox)(
  'token enrollment through the Debusine web UI',
  () => {
    const server = testServer('current');
    const owner = server.users.owner;
    const profile: ServerProfile = {
      id: 'sandbox',
      name: 'sandbox',
      apiUrl: server.apiUrl,
      scope: server.scope,
      defaultWorkspace: null,
      origin: 'enrollment',
    };
    let browser: Browser;
    let page: Page;
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'enroll-e2e-'));
      browser = await launchBrowser();
      page = await browser.newPage();
      await page.goto(`${server.webUrl}/-/login/`);
      await page.fill('#id_username', owner.username);
      await page.fill('#id_password', owner.password ?? '');
      await Promise.all([
        page.waitForURL((url) => !url.pathname.startsWith('/-/login/')),
        page.click('input[type=submit][value=Login]'),
      ]);
    });
    afterAll(async () => {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    });

    /** Starts an enrollment and resolves with what the app was asked to open. */
    function start(tokens: FileTokenStore, signal?: AbortSignal) {
      let started: EnrollmentStarted | undefined;
      let resolveOpened: (url: string) => void = () => undefined;
      const opened = new Promise<string>((resolve) => (resolveOpened = resolve));
      const outcome = enrollProfile({
        profile,
        tokens,
        hostname: 'e2e-host',
        onStarted: (s) => {
          started = s;
        },
        openExternal: (url) => {
          resolveOpened(url);
        },
        ...(signal ? { signal } : {}),
      });
      return { outcome, opened, challenge: () => started?.challenge };
    }

    it('stores a working token when the user confirms', async () => {
      const tokens = new FileTokenStore(join(dir, 'confirm'));
      const run = start(tokens);
      const url = await run.opened;
      expect(url).toMatch(new RegExp(`^${server.webUrl}/-/enroll/confirm/[A-Za-z0-9_-]{8,64}$`));
      await page.goto(url);
      // The page shows the challenge the app shows: the user compares them.
      const challenge = run.challenge() ?? '';
      expect(challenge).toMatch(/^\w{4,10}( \w{4,10}){2,7}$/);
      await expect(page.getByText(challenge).first().isVisible()).resolves.toBe(true);
      await screenshot(page, 'enroll-confirm-page');
      await page.click('button[name=outcome][value=confirm]');

      const outcome = await run.outcome;
      expect(outcome).toEqual({ outcome: 'confirm', profileId: 'sandbox', user: owner.username });
      const stored = await tokens.get('sandbox');
      expect(stored?.origin).toBe(new URL(server.apiUrl).origin);
      const token = stored?.token;
      expect(token).toMatch(/^[A-Za-z0-9]{8,64}$/);
      const client = new DebusineClient({ apiUrl: server.apiUrl, scope: server.scope, token });
      try {
        const me = await client.checkToken();
        expect(me.user).toBe('alice');
      } finally {
        await client.close();
      }
    });

    it('reports a cancel on the confirmation page, and stores nothing', async () => {
      const tokens = new FileTokenStore(join(dir, 'cancel'));
      const run = start(tokens);
      await page.goto(await run.opened);
      await page.click('button[name=outcome][value=cancel]');
      const outcome = await run.outcome;
      expect(outcome.outcome).toBe('cancel');
      expect(outcome.outcome === 'cancel' && outcome.message).toMatch(/cancelled/);
      expect(await tokens.has('sandbox')).toBe(false);
    });

    it('can be cancelled from the app while waiting', async () => {
      const tokens = new FileTokenStore(join(dir, 'abort'));
      const controller = new AbortController();
      const run = start(tokens, controller.signal);
      await run.opened;
      controller.abort();
      await expect(run.outcome).rejects.toMatchObject({ code: 'cancelled' });
      expect(await tokens.has('sandbox')).toBe(false);
    });
  },
);
