/**
 * A token belongs to the origin (scheme, host, port) it was issued for. Changing a
 * profile's address over the bridge drops its token, and the transports refuse to send a
 * token anywhere but the origin the token store recorded with it, whoever asks. Two local
 * servers stand in for the server that issued the token (A) and another one (B), and
 * record every header they receive.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DebusineClient } from '../../src/main/api/client';
import { HttpTransport } from '../../src/main/api/http';
import { fetchBody } from '../../src/main/artifacts/transfer/fetch-body';
import { ProfileStore } from '../../src/main/settings/profiles';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { importCliConfig } from '../../src/main/settings/cli-import';
import { CompletionWatcher, type ConnectionState } from '../../src/main/watch/completion-watcher';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';
import {
  recordingServer,
  type RecordingOptions,
  type RecordingServer,
} from '../support/token-recording-server';

const TOKEN = 'issued-by-a-0123456789abcdef';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(options: RecordingOptions = {}): Promise<RecordingServer> {
  const s = await recordingServer(options);
  cleanups.push(() => s.close());
  return s;
}

async function bridge(): Promise<ServiceBridge> {
  const b = await serviceBridge({}, ['connection.state', 'session.changed']);
  cleanups.push(() => b.close());
  return b;
}

/** Adds a server as a profile (its id: the name in lower case), signed out. */
async function addProfile(b: ServiceBridge, name: string, apiUrl: string): Promise<void> {
  await b.api.servers.add({ name, apiUrl, scope: 'debusine', defaultWorkspace: null });
}

/** Adds server A as profile `a`, signs in with A's token and waits for A's websocket. */
async function signedInToA(b: ServiceBridge, a: RecordingServer): Promise<void> {
  await addProfile(b, 'A', a.apiUrl);
  await b.api.session.signInWithToken({ serverId: 'a', token: TOKEN });
  await b.waitEvent('connection.state', (c) => c.serverId === 'a' && c.status === 'connected');
  expect(a.carrying(TOKEN).some((r) => r.kind === 'upgrade')).toBe(true);
}

/** Lets the app try every path it takes on its own (whoami, the websocket), and a few more. */
async function exercise(b: ServiceBridge, from: number): Promise<void> {
  // The watcher restarts on the new address: wait for it to settle one way or the other.
  await expect
    .poll(
      () =>
        b
          .eventsOf('connection.state')
          .slice(from)
          .some((c) => c.serverId === 'a' && c.status !== 'connecting'),
      { timeout: 10_000 },
    )
    .toBe(true);
  await b.api.session.whoami().catch(() => undefined);
  await b.api.servers.check({ id: 'a' }).catch(() => undefined);
  await b.api.workRequests.get({ id: 1 }).catch(() => undefined);
  // A watcher that would reconnect after a refusal gets the time to do so.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
}

describe('changing a profile’s address over the bridge', () => {
  it('sends the token to no request or websocket of the new address', async () => {
    const a = await server({ issued: TOKEN });
    const b = await server();
    const app = await bridge();
    await signedInToA(app, a);
    const from = app.eventsOf('connection.state').length;
    await app.api.servers.update({ id: 'a', apiUrl: b.apiUrl });
    await exercise(app, from);
    // B was asked (so the test looked at the paths that run), and never with the token.
    expect(b.received.length).toBeGreaterThan(0);
    expect(b.carrying(TOKEN)).toEqual([]);
    expect(b.received.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
  });

  it('reads as signed out afterwards, and going back to A does not bring the token back', async () => {
    const a = await server({ issued: TOKEN });
    const b = await server();
    const app = await bridge();
    await signedInToA(app, a);
    await app.api.servers.update({ id: 'a', apiUrl: b.apiUrl });
    expect((await app.api.servers.list()).find((s) => s.id === 'a')?.hasToken).toBe(false);
    expect(await app.api.session.whoami()).toMatchObject({ authenticated: false });
    expect(await app.made.tokens.has('a')).toBe(false);

    await app.api.servers.update({ id: 'a', apiUrl: a.apiUrl });
    const sentBefore = a.carrying(TOKEN).length;
    expect((await app.api.servers.list()).find((s) => s.id === 'a')?.hasToken).toBe(false);
    expect(await app.api.session.whoami()).toMatchObject({ authenticated: false });
    await app.waitEvent('connection.state', (c) => c.serverId === 'a' && c.status === 'signed-out');
    expect(a.carrying(TOKEN).length).toBe(sentBefore);
  });

  it('keeps the token when only the path, the scope or the name change', async () => {
    const a = await server({ issued: TOKEN });
    const app = await bridge();
    await signedInToA(app, a);
    await app.api.servers.update({
      id: 'a',
      name: 'A renamed',
      scope: 'elsewhere',
      apiUrl: `${a.origin}/debusine/api`,
    });
    expect((await app.api.servers.list()).find((s) => s.id === 'a')?.hasToken).toBe(true);
    // The same origin however it is written: the default port, a capital letter.
    await app.api.servers.update({ id: 'a', apiUrl: a.apiUrl.replace('http://', 'HTTP://') });
    expect((await app.api.servers.list()).find((s) => s.id === 'a')?.hasToken).toBe(true);
    expect(await app.api.session.whoami()).toMatchObject({ authenticated: true, user: 'alice' });
  });

  it('drops a token stored by a sign-in for the old address that ends after the change', async () => {
    const a = await server({ issued: TOKEN });
    const b = await server();
    const app = await bridge();
    await addProfile(app, 'A', a.apiUrl);
    // The sign-in checks the token with A, then the address changes before it is stored.
    const { signIn } = await import('../../src/main/settings/sign-in');
    const profile = await app.made.service.session.profiles.get('a');
    if (!profile) throw new Error('no profile a');
    await app.api.servers.update({ id: 'a', apiUrl: b.apiUrl });
    await signIn({ profile, token: TOKEN, tokens: app.made.tokens });
    await app.made.service.session.refresh();
    expect((await app.api.servers.list()).find((s) => s.id === 'a')?.hasToken).toBe(false);
    await app.api.session.whoami();
    await app.api.servers.check({ id: 'a' });
    expect(b.carrying(TOKEN)).toEqual([]);
  });
});

describe('the other ways a token could reach another origin', () => {
  it('an enrollment waiting on the old address is cancelled, and stores nothing', async () => {
    const a = await server({ issued: TOKEN });
    const b = await server();
    const app = await serviceBridge({}, ['enroll.finished']);
    cleanups.push(() => app.close());
    await addProfile(app, 'A', a.apiUrl);
    const { enrollId } = await app.api.enroll.start({ serverId: 'a' });
    await app.api.servers.update({ id: 'a', apiUrl: b.apiUrl });
    const finished = await app.waitEvent('enroll.finished', (e) => e.enrollId === enrollId, 10_000);
    expect(finished).toMatchObject({ outcome: 'error', error: { code: 'cancelled' } });
    expect(await app.made.tokens.has('a')).toBe(false);
    expect(b.carrying(TOKEN)).toEqual([]);
  });

  it('a profile added under the id of a removed one starts signed out', async () => {
    const a = await server({ issued: TOKEN });
    const b = await server();
    const app = await bridge();
    // Left behind under the id the new profile gets, for another server.
    await app.made.tokens.set('b', TOKEN, a.apiUrl);
    await addProfile(app, 'B', b.apiUrl);
    expect((await app.api.servers.list()).find((s) => s.id === 'b')?.hasToken).toBe(false);
    await app.api.servers.check({ id: 'b' });
    expect(await app.made.tokens.has('b')).toBe(false);
    expect(b.carrying(TOKEN)).toEqual([]);
  });

  it('a token stored before origins were kept is bound to its profile’s address', async () => {
    const a = await server({ issued: TOKEN });
    const app = await bridge();
    await addProfile(app, 'A', a.apiUrl);
    await writeFile(
      join(app.made.dataDir, 'tokens.json'),
      JSON.stringify({ version: 1, tokens: { a: TOKEN } }),
    );
    await app.made.service.session.refresh();
    expect((await app.api.servers.list()).find((s) => s.id === 'a')?.hasToken).toBe(true);
    expect(await app.made.tokens.get('a')).toEqual({ token: TOKEN, origin: a.origin });
    expect(await app.api.session.whoami()).toMatchObject({ authenticated: true });
  });
});

describe('the transports send a token only to the origin it was stored for', () => {
  it('an HTTP request to another origin is refused without a connection', async () => {
    const a = await server({ issued: TOKEN });
    const b = await server();
    // The transport's address is B, its token A's: nothing may reach B.
    // A's token, bound to A's origin, as the transports are given it.
    const tokenOfA = { token: TOKEN, tokenOrigin: a.origin, retries: 0 };
    const http = new HttpTransport({ apiUrl: b.apiUrl, ...tokenOfA });
    cleanups.push(() => http.close());
    await expect(
      http.send({ operation: 'whoami', method: 'GET', path: '/whoami/' }),
    ).rejects.toMatchObject({
      code: 'auth',
    });
    expect(() => http.authHeaders(b.apiUrl)).toThrow(/sign in again/i);
    // An absolute URL on another origin, through a transport whose token is for its own.
    const own = new HttpTransport({ apiUrl: a.apiUrl, token: TOKEN, retries: 0 });
    cleanups.push(() => own.close());
    await expect(
      own.send({ operation: 'whoami', method: 'GET', path: `${b.apiUrl}/1.0/whoami/` }),
    ).rejects.toMatchObject({ code: 'auth' });
    await expect(
      fetchBody(http, `${b.origin}/artifact/1/download/`, { artifact: 1 }),
    ).rejects.toMatchObject({ code: 'auth' });
    expect(b.received).toEqual([]);
    // Its own origin still gets it.
    const client = new DebusineClient({ apiUrl: a.apiUrl, ...tokenOfA });
    cleanups.push(() => client.close());
    await expect(client.whoami()).resolves.toMatchObject({ auth: true });
  });

  it('the completion websocket does not open to another origin with the token', async () => {
    const a = await server({ issued: TOKEN });
    const b = await server();
    const watcher = new CompletionWatcher({
      apiUrl: b.apiUrl,
      getToken: () => ({ token: TOKEN, origin: a.origin }),
    });
    cleanups.push(() => watcher.stop());
    const states: ConnectionState[] = [];
    watcher.on('state', (s) => states.push(s));
    await watcher.start();
    await expect.poll(() => states.at(-1)?.state).toBe('signed-out');
    expect(states.at(-1)).toMatchObject({ error: { code: 'auth' } });
    // Given time to retry, it does not: a refused token is a sign-in to do again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(b.received).toEqual([]);
  });
});

describe('redirects are not followed with the token', () => {
  it('neither an API request nor the websocket follows A’s redirect to B', async () => {
    const b = await server();
    const a = await server({ issued: TOKEN, redirectTo: b.origin });
    const http = new HttpTransport({ apiUrl: a.apiUrl, token: TOKEN, retries: 0 });
    cleanups.push(() => http.close());
    const response = await http.send({ operation: 'whoami', method: 'GET', path: '/whoami/' });
    await response.body.dump();
    expect(response.status).toBe(302);
    const watcher = new CompletionWatcher({ apiUrl: a.apiUrl, getToken: () => TOKEN });
    cleanups.push(() => watcher.stop());
    const states: ConnectionState[] = [];
    watcher.on('state', (s) => states.push(s));
    await watcher.start();
    await expect.poll(() => states.some((s) => s.state === 'reconnecting')).toBe(true);
    expect(a.received.map((r) => r.kind)).toEqual(['request', 'upgrade']);
    expect(b.received).toEqual([]);
  });
});

describe('the token store records the origin with the token', () => {
  let dir: string;
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives back the origin the token was stored for', async () => {
    dir = await mkdtemp(join(tmpdir(), 'token-origin-'));
    const tokens = new FileTokenStore(dir);
    await tokens.set('a', TOKEN, 'https://A.example:443/api');
    expect(await tokens.get('a')).toEqual({ token: TOKEN, origin: 'https://a.example' });
    expect(await tokens.originOf('a')).toBe('https://a.example');
    expect(await tokens.originOf('b')).toBeUndefined();
  });

  it('reads a token written before origins were kept as bound to no origin', async () => {
    dir = await mkdtemp(join(tmpdir(), 'token-origin-'));
    await writeFile(join(dir, 'tokens.json'), JSON.stringify({ version: 1, tokens: { a: TOKEN } }));
    const tokens = new FileTokenStore(dir);
    expect(await tokens.get('a')).toEqual({ token: TOKEN, origin: null });
    await tokens.set('b', 'another-token-1', 'http://b.example/api');
    expect(JSON.parse(await readFile(join(dir, 'tokens.json'), 'utf8'))).toMatchObject({
      version: 2,
    });
    expect(await tokens.get('a')).toEqual({ token: TOKEN, origin: null });
  });

  it('the CLI import does not keep a token stored for another origin under the same id', async () => {
    dir = await mkdtemp(join(tmpdir(), 'token-origin-'));
    const tokens = new FileTokenStore(dir);
    const profiles = new ProfileStore(dir);
    // Left over from a removed profile with the same id, for another server.
    await tokens.set('debian', 'left-over-token', 'https://elsewhere.example/api');
    const ini = join(dir, 'config.ini');
    await writeFile(
      ini,
      '[General]\ndefault-server = debian\n\n[server:debian]\napi-url = https://debusine.debian.net/api\nscope = debian\ntoken = cli-token-0123456789\n',
    );
    await importCliConfig({ profiles, tokens, path: ini });
    expect(await tokens.get('debian')).toEqual({
      token: 'cli-token-0123456789',
      origin: 'https://debusine.debian.net',
    });
  });
});
