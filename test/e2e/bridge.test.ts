import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { testServer } from '../support/sandbox';
import { openBridgeSocket, startWebHost, type RunningWebHost } from '../support/web-host';

/**
 * The whole bridge for real: the built renderer in Chromium asks `session.whoami` through
 * the web host's WebSocket, the host's service asks the real Debusine sandbox, and the
 * answer shows on the page. The token stays in the host process.
 */
describe('the bridge through the web host', () => {
  const server = testServer('current');
  const token = server.users.owner.token;
  let host: RunningWebHost;
  let browser: Browser;

  beforeAll(async () => {
    host = await startWebHost({
      DEBUSINE_DESKTOP_API_URL: server.apiUrl,
      DEBUSINE_DESKTOP_TOKEN: token,
      DEBUSINE_DESKTOP_SCOPE: server.scope,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await host.stop();
  });

  it('shows who the sandbox says we are, and never gives the page the token', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    const frames: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => frames.push(String(frame.payload)));
    });
    await page.goto(await host.nextUrl());
    const status = page.getByTestId('session-status');
    await expect
      .poll(() => status.getAttribute('title'), { timeout: 20_000 })
      .toBe(`Signed in as ${server.users.owner.username} on ${new URL(server.apiUrl).host}`);
    await screenshot(page, 'bridge-whoami');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.join('\n')).not.toContain(token);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('answers servers.check and keeps error codes over the real socket', async () => {
    const ws = await openBridgeSocket(host);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const replies = new Map<number, unknown>();
    ws.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString()) as {
        type: string;
        id: number;
        reply: unknown;
      };
      if (message.type === 'reply') replies.set(message.id, message.reply);
    });
    const ask = async (id: number, channel: string, args?: unknown): Promise<unknown> => {
      ws.send(JSON.stringify({ type: 'request', id, channel, args }));
      await expect.poll(() => replies.has(id), { timeout: 20_000 }).toBe(true);
      return replies.get(id);
    };
    await expect(ask(1, 'servers.check')).resolves.toMatchObject({
      ok: true,
      result: { reachable: true, authenticated: true, user: server.users.owner.username },
    });
    await expect(ask(2, 'workRequests.get', { id: 999_999_999 })).resolves.toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    await expect(ask(3, 'artifacts.get', { id: 999_999_999 })).resolves.toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    ws.close();
  });
});
