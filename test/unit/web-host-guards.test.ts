import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/main/bridge/dispatch';
import { EventHub } from '../../src/main/bridge/event-outbox';
import { createService } from '../../src/main/composition-root';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { StagedFiles } from '../../src/main/service/staged-files';
import { isLoopbackAddress } from '../../src/main/web/auth';
import { startWebHost, type WebHost } from '../../src/main/web/host';
import {
  BRIDGE_PROTOCOL,
  KEY_HEADER,
  SESSION_PATH,
  keyProtocol,
} from '../../src/shared/web-host-key';
import {
  httpRequest,
  openSocket,
  trySocket as connect,
  type Answer,
  type SocketAttempt as Attempt,
} from '../support/loopback-http';

function get(
  host: WebHost,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<Answer> {
  return httpRequest(`${host.origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

describe('the web host', () => {
  let host: WebHost;
  /** A session key, as the page gets it for the printed address's key. */
  let key: string;
  let root: string;
  let dataDir: string;
  let stagingDir: string;
  const files = new StagedFiles((p) => rm(p, { force: true }));

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'web-host-test-'));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(join(root, 'app.js'), 'console.log("app");');
    const hub = new EventHub();
    dataDir = await mkdtemp(join(tmpdir(), 'web-host-data-'));
    stagingDir = await mkdtemp(join(tmpdir(), 'web-host-staging-'));
    const service = createService({
      dataDir,
      tokens: new FileTokenStore(dataDir),
      notifier: new RecordingNotifier(false),
      files,
      host: { transport: 'web', platform: 'linux' },
      emit: hub.emit.bind(hub),
      env: {},
    });
    host = await startWebHost({
      root,
      dispatch: createDispatcher(service.handlers),
      hub,
      files,
      downloads: service.downloads,
      stagingDir,
    });
    const launch = new URLSearchParams(new URL(host.url).hash.slice(1)).get('key') ?? '';
    const exchanged = await get(
      host,
      SESSION_PATH,
      { origin: host.origin, [KEY_HEADER]: launch },
      'POST',
    );
    key = (JSON.parse(exchanged.body) as { key: string }).key;
  });
  afterAll(async () => {
    await host.close();
    await rm(root, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
    await rm(stagingDir, { recursive: true, force: true });
  });

  const bridgeUrl = (): string => `ws://127.0.0.1:${String(host.port)}/bridge`;

  it('prints a loopback URL that carries the key in the fragment, which no request sends', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]{43}$/);
    expect(new URL(host.url).search).toBe('');
  });

  it('serves the app without a key, and never hands the key to the browser', async () => {
    for (const path of ['/', `/?key=${key}`, '/app.js', '/work-requests']) {
      const answer = await get(host, path);
      expect(answer.status, path).toBe(200);
      // No cookie at all: a cookie on 127.0.0.1 goes to every port of 127.0.0.1.
      expect(answer.headers['set-cookie'], path).toBeUndefined();
      expect(JSON.stringify(answer), path).not.toContain(key);
    }
    const page = await get(host, '/');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await get(host, '/', { host: 'evil.example:80' })).status).toBe(421);
  });

  it('opens the bridge with the key offered as a subprotocol, from its own origin', async () => {
    const ws = openSocket(bridgeUrl(), {
      protocols: [BRIDGE_PROTOCOL, keyProtocol(key)],
      origin: host.origin,
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    // The host answers with the plain protocol: the key is not echoed back.
    expect(ws.protocol).toBe(BRIDGE_PROTOCOL);
    ws.close();
  });

  it('refuses a bridge client with no key, a wrong key or a key anywhere but the subprotocol', async () => {
    const origin = host.origin;
    const cookie = `debusine_desktop_key_${String(host.port)}=${key}`;
    const attempts: [string, string, Attempt][] = [
      ['no key', bridgeUrl(), { origin, protocols: [BRIDGE_PROTOCOL] }],
      [
        'a wrong key',
        bridgeUrl(),
        { origin, protocols: [BRIDGE_PROTOCOL, keyProtocol('A'.repeat(43))] },
      ],
      ['the key in the query', `${bridgeUrl()}?key=${key}`, { origin }],
      ['the key in a cookie', bridgeUrl(), { origin, headers: { cookie } }],
      ['the key in a header', bridgeUrl(), { origin, headers: { 'x-debusine-key': key } }],
      ['the key as the only protocol', bridgeUrl(), { origin, protocols: [keyProtocol(key)] }],
    ];
    for (const [what, url, attempt] of attempts) {
      await expect(connect(url, attempt), what).resolves.toBe(401);
    }
    const keyed = [BRIDGE_PROTOCOL, keyProtocol(key)];
    for (const foreign of ['http://evil.example', 'http://localhost:1', undefined]) {
      await expect(
        connect(bridgeUrl(), { protocols: keyed, ...(foreign ? { origin: foreign } : {}) }),
        String(foreign),
      ).resolves.toBe(403);
    }
  });

  it('refuses to bind anywhere but loopback', async () => {
    for (const address of ['0.0.0.0', '::', '192.168.1.10', 'localhost', 'example.org']) {
      expect(isLoopbackAddress(address)).toBe(false);
      await expect(
        startWebHost({
          root,
          dispatch: createDispatcher({} as never),
          hub: new EventHub(),
          files,
          host: address,
        }),
      ).rejects.toThrow(/loopback only/);
    }
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
  });

  it('stages an uploaded file with the key in its header and hands back only an id', async () => {
    const headers = { 'x-debusine-key': key, origin: host.origin };
    const answer = await get(host, '/staging?name=hello.dsc', headers, 'POST', 'Source: hello\n');
    expect(answer.status).toBe(200);
    const reply = JSON.parse(answer.body) as {
      ok: boolean;
      result: { id: string; name: string; size: number };
    };
    expect(reply.result).toMatchObject({ name: 'hello.dsc', size: 14 });
    expect(answer.body).not.toContain('/');
    await expect(readFile(files.path(reply.result.id), 'utf8')).resolves.toBe('Source: hello\n');
    const foreign = await get(
      host,
      '/staging?name=x',
      { ...headers, origin: 'http://evil.example' },
      'POST',
      'x',
    );
    expect(foreign.status).toBe(403);
    const badName = await get(host, '/staging?name=..%2Fetc', headers, 'POST', 'x');
    expect(badName.status).toBe(400);
  });

  it('refuses staging with the key anywhere but its header', async () => {
    const origin = host.origin;
    const cookie = `debusine_desktop_key_${String(host.port)}=${key}`;
    const before = await readdir(stagingDir);
    for (const [what, path, headers] of [
      ['no key', '/staging?name=a.dsc', { origin }],
      ['the key in the query', `/staging?name=a.dsc&key=${key}`, { origin }],
      ['the key in a cookie', '/staging?name=a.dsc', { origin, cookie }],
    ] as const) {
      const answer = await get(host, path, headers, 'POST', 'x');
      expect(answer.status, what).toBe(403);
    }
    await expect(readdir(stagingDir)).resolves.toEqual(before);
  });

  it('serves a download link by its one-time token alone, and nothing else under /download/', async () => {
    // No key is needed (the browser follows the link as a plain navigation); the token is
    // the capability, handed out over the keyed bridge, and an unknown one gets nothing.
    const answer = await get(host, `/download/${'x'.repeat(32)}`);
    expect(answer.status).toBe(404);
    expect((await get(host, `/download/${'x'.repeat(32)}`, {}, 'POST')).status).toBe(405);
  });

  it('never lets the bridge set a program to run on completion', async () => {
    const ws = openSocket(bridgeUrl(), {
      protocols: [BRIDGE_PROTOCOL, keyProtocol(key)],
      origin: host.origin,
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const replies = new Map<number, { ok: boolean; error?: { code: string } }>();
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as {
        type: string;
        id: number;
        reply: { ok: boolean };
      };
      if (message.type === 'reply') replies.set(message.id, message.reply);
    });
    const ask = async (id: number, channel: string, args?: unknown) => {
      ws.send(JSON.stringify({ type: 'request', id, channel, args }));
      await expect.poll(() => replies.has(id)).toBe(true);
      return replies.get(id);
    };
    const hook = { enabled: true, command: ['/bin/sh', '-c', 'touch /tmp/pwned'] };
    await expect(
      ask(1, 'notifications.setSettings', { failuresOnly: true, commandHook: hook }),
    ).resolves.toMatchObject({ ok: false, error: { code: 'validation' } });
    await expect(ask(2, 'notifications.setSettings', { commandHook: hook })).resolves.toMatchObject(
      { ok: false },
    );
    await expect(ask(3, 'notifications.chooseCommand')).resolves.toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    // What is on disk afterwards: no hook in the settings file, no command file at all.
    await expect(
      ask(4, 'notifications.setSettings', { failuresOnly: true }),
    ).resolves.toMatchObject({ ok: true });
    const onDisk = JSON.parse(
      await readFile(join(dataDir, 'notifications.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ failuresOnly: true });
    expect(onDisk).not.toHaveProperty('commandHook');
    await expect(readFile(join(dataDir, 'completion-command.json'))).rejects.toThrow(/ENOENT/);
    ws.close();
  });
});
