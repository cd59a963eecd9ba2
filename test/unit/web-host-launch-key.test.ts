/**
 * The key in the printed address is used once. The browser keeps the address it first
 * opened, fragment and all, in its history database, where any program of the user's can
 * read it; so that key opens nothing by itself: the page exchanges it (POST /session) for a
 * session key of its own, and from then on the printed key is refused everywhere. The
 * host then has a fresh address for another tab, and tells it (a program that printed the
 * first prints it too).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/main/bridge/dispatch';
import { EventHub } from '../../src/main/bridge/event-outbox';
import { StagedFiles } from '../../src/main/service/staged-files';
import { startWebHost, type WebHost } from '../../src/main/web/host';
import {
  BRIDGE_PROTOCOL,
  KEY_HEADER,
  SESSION_PATH,
  keyProtocol,
} from '../../src/shared/web-host-key';
import { httpRequest, trySocket, type Answer } from '../support/loopback-http';

const keyOf = (url: string): string =>
  new URLSearchParams(new URL(url).hash.slice(1)).get('key') ?? '';

describe('the printed key', () => {
  let host: WebHost;
  let root: string;
  let stagingDir: string;
  const printed: string[] = [];
  const files = new StagedFiles((p) => rm(p, { force: true }));

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'web-host-launch-'));
    stagingDir = await mkdtemp(join(tmpdir(), 'web-host-launch-staging-'));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    host = await startWebHost({
      root,
      dispatch: createDispatcher({} as never),
      hub: new EventHub(),
      files,
      stagingDir,
      onNewAddress: (url) => printed.push(url),
    });
  });
  afterAll(async () => {
    await host.close();
    await rm(root, { recursive: true, force: true });
    await rm(stagingDir, { recursive: true, force: true });
  });

  const bridgeUrl = (): string => `ws://127.0.0.1:${String(host.port)}/bridge`;

  /** What the page does with the key in its address: POST /session from its own origin. */
  function exchange(key: string, headers: Record<string, string> = {}): Promise<Answer> {
    return httpRequest(`${host.origin}${SESSION_PATH}`, {
      method: 'POST',
      headers: { origin: host.origin, [KEY_HEADER]: key, ...headers },
    });
  }

  function openBridge(key: string): Promise<'open' | number> {
    return trySocket(bridgeUrl(), {
      origin: host.origin,
      protocols: [BRIDGE_PROTOCOL, keyProtocol(key)],
    });
  }

  function stage(key: string): Promise<Answer> {
    return httpRequest(`${host.origin}/staging?name=a.dsc`, {
      method: 'POST',
      headers: { origin: host.origin, [KEY_HEADER]: key },
      body: 'Source: a\n',
    });
  }

  it('works once, for a session key of its own, and is refused from then on', async () => {
    const launch = keyOf(host.url);
    expect(launch).toMatch(/^[\w-]{43}$/);
    // By itself it opens nothing: not the bridge, not staging.
    await expect(openBridge(launch)).resolves.toBe(401);
    expect((await stage(launch)).status).toBe(403);

    const first = await exchange(launch);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['set-cookie']).toBeUndefined();
    const { key: session } = JSON.parse(first.body) as { key: string };
    expect(session).toMatch(/^[\w-]{43}$/);
    expect(session).not.toBe(launch);
    await expect(openBridge(session)).resolves.toBe('open');
    expect((await stage(session)).status).toBe(200);

    // Used: a second program presenting it gets nothing, anywhere.
    expect((await exchange(launch)).status).toBe(403);
    await expect(openBridge(launch)).resolves.toBe(401);
    expect((await stage(launch)).status).toBe(403);
    // The page's session is untouched by that.
    await expect(openBridge(session)).resolves.toBe('open');
  });

  it('gives way to a fresh address, told to the host’s program, good once too', async () => {
    const before = host.url;
    const answer = await exchange(keyOf(before));
    expect(answer.status).toBe(200);
    const next = host.url;
    expect(next).not.toBe(before);
    expect(printed.at(-1)).toBe(next);
    expect(new URL(next).origin).toBe(host.origin);
    const second = JSON.parse((await exchange(keyOf(next))).body) as { key: string };
    const first = JSON.parse(answer.body) as { key: string };
    // Two tabs, two sessions, both open.
    expect(second.key).not.toBe(first.key);
    await expect(openBridge(first.key)).resolves.toBe('open');
    await expect(openBridge(second.key)).resolves.toBe('open');
  });

  it('is taken by one of two programs presenting it at once, never by both', async () => {
    const launch = keyOf(host.url);
    const answers = await Promise.all(Array.from({ length: 8 }, () => exchange(launch)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403, 403, 403, 403, 403, 403]);
  });

  it('is exchanged only from the host’s own origin and Host, by POST, in its header', async () => {
    const launch = keyOf(host.url);
    const cookie = `key=${launch}`;
    const refused: [string, Promise<Answer>][] = [
      ['another origin', exchange(launch, { origin: 'http://evil.example' })],
      ['another port', exchange(launch, { origin: 'http://127.0.0.1:1' })],
      [
        'no origin',
        httpRequest(`${host.origin}${SESSION_PATH}`, {
          method: 'POST',
          headers: { [KEY_HEADER]: launch },
        }),
      ],
      [
        'GET',
        httpRequest(`${host.origin}${SESSION_PATH}`, {
          headers: { origin: host.origin, [KEY_HEADER]: launch },
        }),
      ],
      [
        'the key in the query',
        httpRequest(`${host.origin}${SESSION_PATH}?key=${launch}`, {
          method: 'POST',
          headers: { origin: host.origin },
        }),
      ],
      [
        'the key in a cookie',
        httpRequest(`${host.origin}${SESSION_PATH}`, {
          method: 'POST',
          headers: { origin: host.origin, cookie },
        }),
      ],
      ['a wrong key', exchange('A'.repeat(43))],
    ];
    for (const [what, answer] of refused) {
      expect((await answer).status, what).toBe(403);
    }
    expect((await exchange(launch, { host: 'evil.example:80' })).status).toBe(421);
    // None of that used the key up.
    expect((await exchange(launch)).status).toBe(200);
  });
});
