/**
 * The app as e2e tests drive it: the built web host (real main services behind it) with a
 * data directory of its own, signed in to a real Debusine server, and a Chromium page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { testServer, type Flavour, type TestServer } from './sandbox';
import { startWebHost, type RunningWebHost } from './web-host';

export interface RunningApp {
  host: RunningWebHost;
  /** `http://127.0.0.1:PORT`; each page opens at `host.nextUrl()`, an address of its own. */
  origin: string;
  dataDir: string;
  server: TestServer | null;
  stop(): Promise<void>;
}

/**
 * Starts the web host. With a flavour, the host starts signed in to that server as its
 * owner (DEBUSINE_DESKTOP_API_URL/_TOKEN/_SCOPE/_WORKSPACE seed a profile and its token in
 * the fresh data directory); with `null`, it starts with no server at all (first start).
 */
export async function startApp(
  flavour: Flavour | null = 'current',
  env: Record<string, string> = {},
): Promise<RunningApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'debusine-desktop-e2e-'));
  const server = flavour ? testServer(flavour) : null;
  const host = await startWebHost({
    DEBUSINE_DESKTOP_DATA_DIR: dataDir,
    // Keep the user's real CLI config out of the tests unless a test asks for it.
    DEBUSINE_DESKTOP_CLI_CONFIG: join(dataDir, 'no-cli-config.ini'),
    ...(server
      ? {
          DEBUSINE_DESKTOP_API_URL: server.apiUrl,
          DEBUSINE_DESKTOP_TOKEN: server.users.owner.token,
          DEBUSINE_DESKTOP_SCOPE: server.scope,
          DEBUSINE_DESKTOP_WORKSPACE: server.workspaces.default,
        }
      : {}),
    ...env,
  });
  return {
    host,
    origin: host.origin,
    dataDir,
    server,
    stop: async () => {
      await host.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What `startApp(null, …)` needs to start signed in to a fake Debusine
 * (test/support/fake-debusine), in System.
 */
export function envOnFake(fake: { apiUrl: string }): Record<string, string> {
  return {
    DEBUSINE_DESKTOP_API_URL: fake.apiUrl,
    DEBUSINE_DESKTOP_TOKEN: 'fake-server-token',
    DEBUSINE_DESKTOP_SCOPE: 'debusine',
    DEBUSINE_DESKTOP_WORKSPACE: 'System',
  };
}

/**
 * A page in the given theme, failing the test on uncaught page errors, opened at an
 * address of its own (`url`, whose key the page then trades for its session).
 */
export async function openPage(
  browser: Browser,
  app: RunningApp,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ page: Page; errors: string[]; url: string }> {
  // A context of its own (axe needs one), closed with the page.
  const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // The browser may already be gone when the page closes: nothing is left to close then.
  page.once('close', () => void context.close().catch(() => undefined));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  app.host.assertRunning();
  const url = await app.host.nextUrl();
  await page.goto(url).catch((error: unknown) => {
    app.host.assertRunning();
    throw error;
  });
  await page.getByTestId('app-shell').waitFor();
  return { page, errors, url };
}
