import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/main/bridge/dispatch';
import { EventHub } from '../../src/main/bridge/event-outbox';
import { createService } from '../../src/main/service';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { StagedFiles } from '../../src/main/service/staged-files';
import { isLoopbackAddress } from '../../src/main/web/auth';
import { startWebHost, type WebHost } from '../../src/main/web/host';

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function get(
  host: WebHost,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${host.origin}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function connect(url: string, origin?: string): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin === undefined ? {} : { origin });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', () => {
      resolve(0);
    });
  });
}

describe('the web host', () => {
  let host: WebHost;
  let root: string;
  let dataDir: string;
  const files = new StagedFiles((p) => rm(p, { force: true }));

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'web-host-test-'));
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    const hub = new EventHub();
    dataDir = await mkdtemp(join(tmpdir(), 'web-host-data-'));
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
    });
  });
  afterAll(async () => {
    await host.close();
    await rm(root, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints a loopback URL that carries the key', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?key=[\w-]{43}$/);
  });

  it('serves the app with the key, then by the cookie it sets, and refuses without', async () => {
    const withKey = await get(host, `/?key=${host.key}`);
    expect(withKey.status).toBe(200);
    expect(withKey.headers['content-security-policy']).toContain("script-src 'self'");
    const cookie = String(withKey.headers['set-cookie']).split(';')[0] ?? '';
    expect(cookie).toContain(host.key);
    expect(String(withKey.headers['set-cookie'])).toContain('HttpOnly');
    expect((await get(host, '/', { cookie })).status).toBe(200);
    expect((await get(host, '/')).status).toBe(403);
    expect((await get(host, '/?key=wrong')).status).toBe(403);
    expect((await get(host, `/?key=${host.key}`, { host: 'evil.example:80' })).status).toBe(421);
  });

  it('opens the bridge only with the key and from its own origin', async () => {
    const ws = `ws://127.0.0.1:${String(host.port)}/bridge`;
    await expect(connect(`${ws}?key=${host.key}`, host.origin)).resolves.toBe('open');
    await expect(connect(`${ws}?key=wrong`, host.origin)).resolves.toBe(401);
    await expect(connect(ws, host.origin)).resolves.toBe(401);
    await expect(connect(`${ws}?key=${host.key}`, 'http://evil.example')).resolves.toBe(403);
    await expect(connect(`${ws}?key=${host.key}`, 'http://localhost:1')).resolves.toBe(403);
    await expect(connect(`${ws}?key=${host.key}`)).resolves.toBe(403);
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

  it('stages an uploaded file and hands back only an id', async () => {
    const headers = { 'x-debusine-key': host.key, origin: host.origin };
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
});
