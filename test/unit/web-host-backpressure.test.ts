/**
 * A page that stops reading its bridge: the real web host, two real WebSocket clients on
 * loopback, one of which stops reading its TCP socket while main emits large events. What
 * the host holds for it stays bounded, it is closed, and the other page is still answered.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createDispatcher } from '../../src/main/bridge/dispatch';
import { EventHub } from '../../src/main/bridge/event-outbox';
import { createService } from '../../src/main/composition-root';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { StagedFiles } from '../../src/main/service/staged-files';
import { MAX_BUFFERED_BYTES, startWebHost, type WebHost } from '../../src/main/web/host';
import {
  BRIDGE_PROTOCOL,
  FELL_BEHIND_CODE,
  KEY_HEADER,
  SESSION_PATH,
  keyProtocol,
} from '../../src/shared/web-host-key';
import { httpRequest, openSocket } from '../support/loopback-http';

/** About the size of a completion event the attack sent (118 MiB for 2,000). */
const EVENT_BYTES = 60 * 1024;
const EVENTS = 2_000;

describe('the web host with a page that stops reading', () => {
  let host: WebHost;
  let hub: EventHub;
  let key: string;
  const dirs: string[] = [];
  const files = new StagedFiles((p) => rm(p, { force: true }));

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'web-host-bp-'));
    const dataDir = await mkdtemp(join(tmpdir(), 'web-host-bp-data-'));
    const stagingDir = await mkdtemp(join(tmpdir(), 'web-host-bp-staging-'));
    dirs.push(root, dataDir, stagingDir);
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    hub = new EventHub();
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
      stagingDir,
    });
    const launch = new URLSearchParams(new URL(host.url).hash.slice(1)).get('key') ?? '';
    const exchanged = await httpRequest(`${host.origin}${SESSION_PATH}`, {
      method: 'POST',
      headers: { origin: host.origin, [KEY_HEADER]: launch },
    });
    key = (JSON.parse(exchanged.body) as { key: string }).key;
  });
  afterAll(async () => {
    await host.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** A page: its bridge open, and 'ready' said, so that events flow to it. */
  async function page(): Promise<WebSocket> {
    const ws = openSocket(`ws://127.0.0.1:${String(host.port)}/bridge`, {
      protocols: [BRIDGE_PROTOCOL, keyProtocol(key)],
      origin: host.origin,
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'ready' }));
    return ws;
  }

  function ask(ws: WebSocket, id: number): Promise<unknown> {
    return new Promise((resolve) => {
      const onMessage = (data: WebSocket.RawData): void => {
        const message = JSON.parse(String(data)) as { type: string; id?: number };
        if (message.type === 'reply' && message.id === id) {
          ws.off('message', onMessage);
          resolve(message);
        }
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ type: 'request', id, channel: 'app.info', args: undefined }));
    });
  }

  it('holds at most its bound for the page, closes it, and answers the other page', async () => {
    const stalled = await page();
    const reading = await page();
    let eventsRead = 0;
    reading.on('message', () => eventsRead++);
    // The host's own sockets (ws marks them as the server's): how much each held unsent at
    // every message it was given.
    const mostBuffered = new Map<WebSocket, number>();
    const original = WebSocket.prototype.send;
    const spy = vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (
      this: WebSocket,
      ...args: Parameters<WebSocket['send']>
    ) {
      if ((this as unknown as { _isServer: boolean })._isServer) {
        mostBuffered.set(this, Math.max(mostBuffered.get(this) ?? 0, this.bufferedAmount));
      }
      original.apply(this, args);
    });
    // The stalled page reads nothing more: what the host sends waits in the kernel, then in
    // the host.
    (stalled as unknown as { _socket: Socket })._socket.pause();
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      stalled.once('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
      });
    });
    try {
      const big = 'x'.repeat(EVENT_BYTES);
      for (let n = 0; n < EVENTS; n++) {
        hub.emit('workRequests.changed', { big, n } as never);
        // Let the sockets write between events, as main's events come over time.
        if (n % 20 === 19) await new Promise((r) => setImmediate(r));
      }
      // The page that reads is answered, after all those events.
      await ask(reading, 1);
      expect(eventsRead).toBeGreaterThanOrEqual(EVENTS);
    } finally {
      spy.mockRestore();
    }
    const held = [...mostBuffered.values()];
    expect(held).toHaveLength(2);
    // Never more than the bound and one event (checked before each send).
    for (const bytes of held) expect(bytes).toBeLessThan(MAX_BUFFERED_BYTES + 2 * EVENT_BYTES);
    // The stalled page, reading again, finds it was closed and why: it reconnects anew.
    (stalled as unknown as { _socket: Socket })._socket.resume();
    const { code, reason } = await closed;
    expect(code).toBe(FELL_BEHIND_CODE);
    expect(reason).toMatch(/stopped reading/);
    // The other page is still answered.
    await ask(reading, 2);
    reading.close();
  }, 60_000);
});
