/**
 * A hostile server against the built web host, as a separate process: whatever a server
 * sends to a download link or to the log viewer, and whatever a local program sends to the
 * host's own sockets, the host must still be running and answering afterwards, and an
 * honest download must still work. The checks are on the process, not on messages: a
 * stream error nobody listened to ends the process, which only a process of its own shows.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import {
  cutAfter,
  endless,
  startFakeDebusine,
  whole,
  type FakeDebusine,
  type FakeFile,
  type Responder,
} from '../support/fake-debusine';
import { httpRequest } from '../support/loopback-http';
import { tarGz } from '../support/tar-build';
import { openBridgeSocket, startWebHost, type RunningWebHost } from '../support/web-host';

interface Reply {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

/** The bridge as a program outside the browser speaks it: one request, its reply. */
class BridgeClient {
  readonly #ws: WebSocket;
  readonly #replies = new Map<number, (reply: Reply) => void>();
  #next = 1;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString()) as {
        type: string;
        id: number;
        reply: Reply;
      };
      if (message.type === 'reply') this.#replies.get(message.id)?.(message.reply);
    });
  }

  static async open(host: RunningWebHost): Promise<BridgeClient> {
    const ws = await openBridgeSocket(host);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new BridgeClient(ws);
  }

  ask(channel: string, args?: unknown): Promise<Reply> {
    const id = this.#next++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no reply to ${channel} within 20 s`));
      }, 20_000);
      this.#replies.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.#ws.send(JSON.stringify({ type: 'request', id, channel, args }));
    });
  }

  send(raw: string | Buffer): void {
    this.#ws.send(raw);
  }

  close(): void {
    this.#ws.close();
  }
}

const GOOD = 'an honest file\n'.repeat(1000);

/** What a hostile server does to one file, by the way it answers the file's URL. */
const HOSTILE_FILES: [string, FakeFile][] = [
  [
    'a Content-Length below the declared size',
    { path: 'a.log', content: GOOD, serve: whole('short') },
  ],
  [
    'a Content-Length above the declared size',
    { path: 'a.log', content: GOOD, serve: whole(`${GOOD}and more`) },
  ],
  [
    'a body that goes on past the declared size',
    { path: 'a.log', content: GOOD, serve: endless() },
  ],
  ['a connection cut half-way', { path: 'a.log', content: GOOD, serve: cutAfter(GOOD, 5000) }],
  [
    'a connection cut before the body',
    { path: 'a.log', content: GOOD, serve: cutAfter(GOOD, 0, false) },
  ],
  [
    'bytes that do not match the SHA-256',
    { path: 'a.log', content: GOOD, serve: whole(GOOD.replace('honest', 'HONEST')) },
  ],
  [
    'a gzipped body, as a proxy compressing on the fly sends it',
    {
      path: 'a.log',
      content: GOOD,
      serve: (_req, res) => {
        const body = tarGz([{ name: 'x', body: GOOD }]);
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
      },
    },
  ],
  [
    'a redirect to itself, forever',
    {
      path: 'a.log',
      content: GOOD,
      serve: (req, res) => {
        res.writeHead(302, { location: req.url ?? '/' }).end();
      },
    },
  ],
  [
    'an error page with a huge body',
    {
      path: 'a.log',
      content: GOOD,
      serve: (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 0x3c);
        let left = 8 * 2 ** 20;
        const pump = (): void => {
          while (left > 0 && !res.destroyed) {
            left -= chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
      },
    },
  ],
];

/** Tarballs a hostile server sends for the whole-artifact link. */
const HOSTILE_TARBALLS: [string, Responder | Buffer][] = [
  ['a tarball that is not gzip', Buffer.from('not gzip at all')],
  ['a tarball cut half-way', cutAfter(tarGz([{ name: 'a.log', body: GOOD }]), 100, true)],
  ['a tarball with a Content-Length it does not keep', whole('x')],
  ['an endless tarball', endless()],
];

describe('a hostile server cannot take the web host down', () => {
  let fake: FakeDebusine;
  let host: RunningWebHost;
  let bridge: BridgeClient;
  let nextId = 1;
  const goodId = 1000;

  beforeAll(async () => {
    fake = await startFakeDebusine();
    fake.artifact(goodId, [{ path: 'good.log', content: GOOD }], {
      tarball: tarGz([{ name: 'good.log', body: GOOD }]),
    });
    host = await startWebHost({
      DEBUSINE_DESKTOP_API_URL: fake.apiUrl,
      DEBUSINE_DESKTOP_TOKEN: 'hostile-test-token',
    });
    bridge = await BridgeClient.open(host);
  });
  afterAll(async () => {
    bridge.close();
    await host.stop();
    await fake.close();
  });

  /** Fetches a download link the way the browser would; the status and the body's size. */
  async function followLink(artifactId: number, path?: string) {
    const active = (await bridge.ask('servers.active')).result as { id: string };
    const reply = await bridge.ask('downloads.link', {
      server: active.id,
      artifactId,
      ...(path ? { path } : {}),
    });
    expect(reply.ok, JSON.stringify(reply.error)).toBe(true);
    const { url } = reply.result as { url: string };
    return httpRequest(new URL(url, host.origin).toString());
  }

  /** The property after every case: the host runs, answers, and serves an honest download. */
  async function expectHostWell(): Promise<void> {
    // An error nobody listened to ends the process on a later turn of its loop.
    await sleep(100);
    host.assertRunning();
    expect((await bridge.ask('app.info')).ok).toBe(true);
    const good = await followLink(goodId, 'good.log');
    expect(good.status).toBe(200);
    expect(good.body).toBe(GOOD);
  }

  it.each(HOSTILE_FILES)('a download link: %s', async (_name, file) => {
    const id = nextId++;
    fake.artifact(id, [file]);
    const answer = await followLink(id, file.path);
    expect(answer.status).not.toBe(200);
    expect(answer.body).toMatch(new RegExp(`artifact ${String(id)}`));
    await expectHostWell();
  });

  it.each(HOSTILE_FILES)('the log viewer: %s', async (_name, file) => {
    const id = nextId++;
    fake.artifact(id, [file]);
    // A log is opened on the server its page names: the active one.
    const active = (await bridge.ask('servers.active')).result as { id: string };
    const opened = await bridge.ask('logs.open', {
      server: active.id,
      artifactId: id,
      path: file.path,
    });
    if (opened.ok) {
      const { handle } = opened.result as { handle: string };
      await expect
        .poll(
          async () =>
            ((await bridge.ask('logs.info', { handle })).result as { state: string }).state,
          { timeout: 20_000 },
        )
        .toBe('failed');
      await bridge.ask('logs.close', { handle });
    } else {
      expect(opened.error?.message).toMatch(new RegExp(`artifact ${String(id)}`));
    }
    await expectHostWell();
  });

  it.each(HOSTILE_TARBALLS)('a whole-artifact link: %s', async (_name, tarball) => {
    const id = nextId++;
    fake.artifact(id, [{ path: 'a.log', content: GOOD }], { tarball });
    const answer = await followLink(id);
    expect(answer.status).not.toBe(200);
    await expectHostWell();
  });

  it('a bridge message over the size limit closes that socket only', async () => {
    const other = await BridgeClient.open(host);
    other.send(Buffer.alloc(5 * 2 ** 20, 0x61).toString());
    await sleep(200);
    await expectHostWell();
  });

  it('a connection reset after a refused upgrade', async () => {
    const port = new URL(host.origin).port;
    for (let i = 0; i < 20; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `GET /bridge HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      // Reset (RST, not FIN) as the host answers its refusal.
      socket.resetAndDestroy();
    }
    await expectHostWell();
  });
});
