/**
 * The live log of a running step against a local WebSocket server standing in for
 * Debusine's WorkRequestLogsConsumer: what it reads, how it reconnects (bounded, without
 * repeating what it saw), how a refusal reads, and what a hostile server cannot do (no
 * credentials leave, memory and disk stay bounded, main keeps running).
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { LiveLogStore, type LiveOpen } from '../../src/main/logs/live-log-store';
import { MAX_RECONNECTS } from '../../src/main/logs/live-log-stream';
import type { LogState } from '../../src/shared/log-types';
import { webSocketsOnLoopback, type LoopbackWebSockets } from '../support/loopback-http';

let server: LoopbackWebSockets | undefined;
let store: LiveLogStore | undefined;
afterEach(async () => {
  await store?.closeAll();
  await server?.close();
  server = undefined;
});

interface Fake {
  apiUrl: string;
  requests: IncomingMessage[];
}

async function fakeServer(
  onConnection: (socket: WebSocket, attempt: number, request: IncomingMessage) => void,
  options: { refuseUpgrade?: number } = {},
): Promise<Fake> {
  const requests: IncomingMessage[] = [];
  server = await webSocketsOnLoopback({
    verifyClient: (_info, done) => {
      if (options.refuseUpgrade) done(false, options.refuseUpgrade);
      else done(true);
    },
  });
  server.wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    requests.push(request);
    onConnection(socket, requests.length, request);
  });
  return { apiUrl: server.apiUrl, requests };
}

let stamp = Date.UTC(2026, 0, 1);
const data = (text: string, at = stamp++) =>
  JSON.stringify({
    type: 'log_data',
    data: text,
    stream: 'stdout',
    timestamp: new Date(at).toISOString().replace('Z', '+00:00'),
  });
const end = (exitCode: number) =>
  JSON.stringify({
    type: 'log_data_end',
    exit_code: exitCode,
    timestamp: new Date().toISOString(),
  });
const CONNECTED = JSON.stringify({ type: 'connected' });

/**
 * A server that sends message after message (each made by `message`), the next as soon as
 * the last has gone, until the client goes away or more than `most` have gone.
 */
function floodingServer(message: () => string, most: number): Promise<Fake> {
  return fakeServer((socket) => {
    socket.send(CONNECTED);
    let sent = 0;
    const pump = (): void => {
      if (socket.readyState !== socket.OPEN || sent > most) return;
      sent++;
      socket.send(message(), pump);
    };
    pump();
  });
}

/** A store whose states are recorded, with a wait on a condition over them. */
function liveStore(maxBytes?: number, maxLines?: number) {
  const states: LogState[] = [];
  const waiters: { match: (s: LogState) => boolean; resolve: (s: LogState) => void }[] = [];
  store = new LiveLogStore({
    dir: join(mkdtempSync(join(tmpdir(), 'ddt-live-')), 'live'),
    reconnectDelayMs: () => 0,
    ...(maxBytes === undefined ? {} : { maxBytes }),
    ...(maxLines === undefined ? {} : { maxLines }),
    emit: (state) => {
      states.push(state);
      for (const w of [...waiters]) {
        if (w.match(state)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(state);
        }
      }
    },
  });
  const until = (match: (s: LogState) => boolean): Promise<LogState> => {
    const seen = states.find(match);
    return seen
      ? Promise.resolve(seen)
      : new Promise((resolve) => waiters.push({ match, resolve }));
  };
  return { store, states, until };
}

async function lineTexts(s: LiveLogStore, handle: string, apiUrl: string): Promise<string[]> {
  const window = await s.lines(handle, apiUrl, 0, 2000);
  return window.lines.map((l) => l.text);
}

/**
 * Opens the live log of work request `workRequestId` on `fake` in `s`: of a step that is
 * not sbuild and still runs whenever asked, unless `step` says otherwise. Its handle, and
 * the reads the tests make of it on that server: its end, and the text of its lines.
 */
async function openLive(
  s: LiveLogStore,
  fake: { apiUrl: string },
  workRequestId: number,
  step: Partial<Pick<LiveOpen, 'sbuild' | 'stillRunning'>> = {},
) {
  const { handle } = await s.open({
    apiUrl: fake.apiUrl,
    workRequestId,
    sbuild: false,
    stillRunning: () => Promise.resolve(true),
    ...step,
  });
  return {
    handle,
    ended: () => s.ended(handle, fake.apiUrl),
    lineTexts: () => lineTexts(s, handle, fake.apiUrl),
  };
}

describe('the live log', () => {
  it('shows lines as they arrive, sends no credentials, and ends with the exit code', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const fake = await fakeServer((socket) => {
      socket.send(CONNECTED);
      socket.send(data('sbuild (Debian sbuild) 0.89\nfirst line\nsecond '));
      socket.send(data('line\n'));
      void released.then(() => {
        socket.send(data('make: *** [debian/rules:4: build] Error 1\n'));
        socket.send(end(2));
        socket.close();
      });
    });
    const { store: s, until } = liveStore();
    const opened = await openLive(s, fake, 31, {
      sbuild: true,
      stillRunning: () => Promise.resolve(false),
    });
    const growing = await until((state) => state.lines >= 3);
    expect(growing.state).toBe('loading');
    expect(growing.live?.status).toBe('streaming');
    expect(await opened.lineTexts()).toEqual([
      'sbuild (Debian sbuild) 0.89',
      'first line',
      'second line',
    ]);
    release();
    const ended = await opened.ended();
    expect(ended).toMatchObject({ state: 'ready', lines: 4 });
    expect(ended.live).toMatchObject({ status: 'ended', exitCode: 2, sbuildStart: 0 });
    expect(ended.analysis?.errorLines).toEqual([3]);
    const request = fake.requests[0];
    expect(request?.url).toBe('/api/ws/1.0/work-request/31/logs/');
    expect(request?.headers.token).toBeUndefined();
    expect(request?.headers.cookie).toBeUndefined();
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('reconnects while the step runs, without repeating what the stream sends again', async () => {
    const first = data('one\n');
    const second = data('two\n');
    let running = true;
    const fake = await fakeServer((socket, attempt) => {
      socket.send(CONNECTED);
      // Every connection reads the stream from its start, as the server's does.
      socket.send(first);
      socket.send(second);
      if (attempt === 1) {
        socket.send(end(0));
        socket.close();
      } else {
        socket.send(data('three\n'));
        running = false;
        socket.send(end(1));
        socket.close();
      }
    });
    const { store: s } = liveStore();
    const opened = await openLive(s, fake, 7, {
      stillRunning: () => Promise.resolve(running),
    });
    const ended = await opened.ended();
    expect(ended.live).toMatchObject({ status: 'ended', exitCode: 1 });
    expect(await opened.lineTexts()).toEqual(['one', 'two', 'three']);
    expect(fake.requests).toHaveLength(2);
  });

  it('tells the view when a reconnect no longer finds what it showed last', async () => {
    let running = true;
    const fake = await fakeServer((socket, attempt) => {
      socket.send(CONNECTED);
      if (attempt === 1) {
        socket.send(data('one\n'));
      } else {
        // The server's stream let 'one', and whatever followed it, go.
        socket.send(data('nine\n'));
        running = false;
      }
      socket.send(end(0));
      socket.close();
    });
    const { store: s } = liveStore();
    const opened = await openLive(s, fake, 10, { stillRunning: () => Promise.resolve(running) });
    const ended = await opened.ended();
    expect(await opened.lineTexts()).toEqual(['one', 'nine']);
    expect(ended.live?.notices).toEqual([
      'Some output may have been lost while reconnecting: the server no longer held the last output shown.',
    ]);
  });

  it('ends, not refused, when a reconnect finds the step no longer running', async () => {
    const fake = await fakeServer((socket, attempt) => {
      if (attempt === 1) {
        socket.send(CONNECTED);
        socket.send(data('built\n'));
        socket.send(end(2));
      } else {
        socket.send(
          JSON.stringify({ type: 'connection_rejected', reason: 'x', reason_code: 'not_running' }),
        );
      }
      socket.close();
    });
    const { store: s } = liveStore();
    const opened = await openLive(s, fake, 8, {
      // Still uploading its results when the command's stream closes.
      stillRunning: () => Promise.resolve(true),
    });
    const ended = await opened.ended();
    expect(ended.live).toMatchObject({ status: 'ended', exitCode: 2, message: null });
    expect(fake.requests).toHaveLength(2);
  });

  it('reconnects a bounded number of times to a server that keeps dropping it', async () => {
    const fake = await fakeServer((socket) => {
      socket.send(CONNECTED);
      socket.terminate();
    });
    const { store: s } = liveStore();
    const opened = await openLive(s, fake, 7);
    const ended = await opened.ended();
    expect(ended.live?.status).toBe('lost');
    expect(ended.live?.message).toMatch(/stopped arriving/);
    expect(fake.requests).toHaveLength(MAX_RECONNECTS + 1);
  });

  it('says in one line why a private step or an older server has no live log', async () => {
    const fake = await fakeServer((socket) => {
      socket.send(
        JSON.stringify({
          type: 'connection_rejected',
          reason: '<script>alert(1)</script>',
          reason_code: 'not_found',
        }),
      );
      socket.close();
    });
    const { store: s } = liveStore();
    const opened = await openLive(s, fake, 9);
    const refused = await opened.ended();
    expect(refused.live?.status).toBe('refused');
    expect(refused.live?.message).toBe(
      'The server streams live logs only of public workspaces to the app; this one is not.',
    );
    // Refused is final: no second attempt.
    expect(fake.requests).toHaveLength(1);
    await s.closeAll();
    await server?.close();

    const older = await fakeServer(() => undefined, { refuseUpgrade: 404 });
    const again = await openLive(s, older, 9);
    const none = await again.ended();
    expect(none.live).toMatchObject({ status: 'refused' });
    expect(none.live?.message).toMatch(/no live log \(it needs Debusine 0\.16/);
  });

  it('keeps a handle to its own server: asked for on another, it answers nothing', async () => {
    const fake = await fakeServer((socket) => {
      socket.send(CONNECTED);
      socket.send(data('secret of server A\n'));
    });
    const { store: s, until } = liveStore();
    const opened = await openLive(s, fake, 5);
    await until((state) => state.lines === 1);
    await expect(s.lines(opened.handle, 'https://b.example/api', 0, 10)).rejects.toMatchObject({
      code: 'not-found',
    });
    expect(() => s.state(opened.handle, null)).toThrow(/another server/);
  });
});

describe('a hostile live log', () => {
  it('survives garbage, binary frames, wrong types and an oversized message', async () => {
    const fake = await fakeServer((socket, attempt) => {
      socket.send(CONNECTED);
      if (attempt > 1) {
        socket.send(data('after\n'));
        socket.send(end(0));
        socket.close();
        return;
      }
      socket.send('not json {');
      socket.send(Buffer.from([0, 1, 2, 3]), { binary: true });
      socket.send(JSON.stringify([1, 2, 3]));
      socket.send(JSON.stringify({ type: 'log_data', data: { nested: true } }));
      socket.send(JSON.stringify({ type: 'log_data_end', exit_code: 'x'.repeat(100) }));
      socket.send(JSON.stringify({ type: '__proto__', data: 'x' }));
      socket.send(data('\u001b[31mred\u001b[0m bell\u0007 nul\u0000 bidi\u202e end\n'));
      // More than the 512 KiB a message may be: the client closes the connection.
      socket.send(data('y'.repeat(600 * 1024)));
    });
    let running = true;
    const { store: s } = liveStore();
    const opened = await openLive(s, fake, 3, {
      sbuild: true,
      stillRunning: () => {
        const answer = running;
        running = false;
        return Promise.resolve(answer);
      },
    });
    const ended = await opened.ended();
    expect(ended.live?.status).toBe('ended');
    const texts = await opened.lineTexts();
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('red');
    // Shown as text: no escape, bell, NUL or reordering character survives as itself.
    for (const code of [0x00, 0x07, 0x1b, 0x202e]) {
      expect(texts[0]).not.toContain(String.fromCharCode(code));
    }
    expect(texts[1]).toBe('after');
  });

  it('stops an endless log at its bound on disk, in one huge line or many', async () => {
    const MAX = 256 * 1024;
    const chunk = 'z'.repeat(60 * 1024);
    // Endless, one line with no line break, until the client goes away.
    const fake = await floodingServer(() => data(chunk), 400);
    const { store: s } = liveStore(MAX);
    const opened = await openLive(s, fake, 4, { sbuild: true });
    const ended = await opened.ended();
    expect(ended.live?.status).toBe('stopped');
    expect(ended.live?.message).toMatch(/stops at/);
    expect(ended.bytes).toBe(MAX);
    expect(fake.requests).toHaveLength(1);
    const window = await s.lines(opened.handle, fake.apiUrl, 0, 10);
    expect(window.lines).toHaveLength(1);
    // A line this long is read by its start only.
    expect(window.lines[0]?.cut).toBe(MAX);
    const dir = readdirSync(join(tmpdir()))
      .filter((name) => name.startsWith('ddt-live-'))
      .map((name) => join(tmpdir(), name, 'live'));
    const sizes = dir.flatMap((d) => {
      try {
        return readdirSync(d).map((f) => statSync(join(d, f)).size);
      } catch {
        return [];
      }
    });
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX);
  });

  it('stops a flood of empty lines at its bound of lines, whatever the bytes', async () => {
    const MAX_LINES = 100_000;
    // Nothing but line breaks: four bytes of index a line, one byte of disk.
    const fake = await floodingServer(() => data('\n'.repeat(60_000)), 100);
    const { store: s } = liveStore(undefined, MAX_LINES);
    const opened = await openLive(s, fake, 6);
    const ended = await opened.ended();
    expect(ended.live?.status).toBe('stopped');
    expect(ended.live?.message).toMatch(/stops at 100,000 lines/);
    // The last chunk may carry it past the bound by at most one message's lines.
    expect(ended.lines).toBeGreaterThanOrEqual(MAX_LINES);
    expect(ended.lines).toBeLessThan(MAX_LINES + 60_000 * 2);
  });
});
