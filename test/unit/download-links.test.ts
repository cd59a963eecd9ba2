import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { Downloads } from '../../src/main/service/downloads';
import type { SessionProvider } from '../../src/main/service/session';
import { DebusineError } from '../../src/shared/errors';
import { httpRequest, listenOnLoopback } from '../support/loopback-http';
import { testCaller } from '../support/caller';

/** The renderer these tests stand for: it holds what they open. */
const caller = testCaller();

/**
 * The web host serves `GET /download/<token>` without the session key (the browser follows
 * the link as a plain navigation), so the token must be the whole capability: unguessable,
 * good for one request, and short-lived.
 */
describe('download links of the web host', () => {
  let server: Server | undefined;

  afterEach(async () => {
    vi.useRealTimers();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  async function setup() {
    // A server that cannot be reached: a link that is accepted fails with 502, not 404.
    const client = {
      http: {},
      artifactGet: () => Promise.reject(new DebusineError('network', 'unreachable')),
    } as unknown as DebusineClient;
    const session: SessionProvider = {
      active: () => ({
        id: 's1',
        name: 's1',
        apiUrl: 'http://127.0.0.1:9/api',
        scope: null,
        defaultWorkspace: null,
        hasToken: true,
      }),
      client: () => client,
      close: () => Promise.resolve(),
    };
    const downloads = new Downloads({
      session,
      transport: 'web',
      dataDir: mkdtempSync(join(tmpdir(), 'download-links-')),
    });
    server = createServer((req, res) => {
      void downloads.serve((req.url ?? '').replace('/download/', ''), res);
    });
    const { origin } = await listenOnLoopback(server);
    const get = (path: string) =>
      httpRequest(`${origin}${path}`).then(({ status, body }) => ({
        status,
        body,
      }));
    const handlers = downloads.handlers();
    const link = await handlers['downloads.link'](
      { server: 's1', artifactId: 7, path: 'a.dsc' },
      caller,
    );
    return { get, link };
  }

  it('are unguessable and good for one request only', async () => {
    const { get, link } = await setup();
    expect(link.url).toMatch(/^\/download\/[\w-]{32,}$/);
    expect((await get(link.url)).status).toBe(502);
    await expect(get(link.url)).resolves.toEqual({
      status: 404,
      body: 'This download link has expired.',
    });
  });

  it('expire within minutes when unused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { get, link } = await setup();
    expect(Date.parse(link.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1);
    await expect(get(link.url)).resolves.toMatchObject({ status: 404 });
  });
});
