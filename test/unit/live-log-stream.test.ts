/**
 * The live log's websocket client against a local WebSocket server standing in for
 * Debusine's: what it keeps of a first connection whatever the timestamps say, what it skips
 * of the stream a reconnection reads again from its start (and when it says something may
 * be missing), and how it gives up on a server that accepts the connection and then says
 * nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { LiveLogStream, type LiveStreamEnd } from '../../src/main/logs/live-log-stream';
import { webSocketsOnLoopback, type LoopbackWebSockets } from '../support/loopback-http';

let server: LoopbackWebSockets | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CONNECTED = JSON.stringify({ type: 'connected' });
const at = (iso: string, text: string): string =>
  JSON.stringify({ type: 'log_data', data: text, stream: 'stdout', timestamp: iso });
const END = JSON.stringify({ type: 'log_data_end', exit_code: 0 });

/** A server whose every connection is handed to `onConnection` with its 1-based number. */
async function fakeServer(
  onConnection: (socket: WebSocket, attempt: number) => void,
): Promise<{ apiUrl: string; attempts: () => number; closed: Promise<void> }> {
  server = await webSocketsOnLoopback();
  let attempts = 0;
  let sawClose: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (sawClose = resolve));
  server.wss.on('connection', (socket: WebSocket) => {
    attempts++;
    socket.on('close', () => {
      sawClose();
    });
    onConnection(socket, attempts);
  });
  return { apiUrl: server.apiUrl, attempts: () => attempts, closed };
}

interface Heard {
  texts: string[];
  notices: string[];
  end: Promise<LiveStreamEnd>;
}

function follow(
  apiUrl: string,
  stillRunning: () => boolean,
  more: { firstMessageMs?: number } = {},
): Heard {
  const texts: string[] = [];
  const notices: string[] = [];
  let ended: (end: LiveStreamEnd) => void = () => undefined;
  const end = new Promise<LiveStreamEnd>((resolve) => (ended = resolve));
  new LiveLogStream({
    apiUrl,
    workRequestId: 12,
    onText: (text) => texts.push(text),
    onNotice: (notice) => notices.push(notice),
    onEnd: ended,
    stillRunning: () => Promise.resolve(stillRunning()),
    reconnectDelayMs: () => 0,
    ...more,
  }).start();
  return { texts, notices, end };
}

describe('the live log stream', () => {
  it('keeps every chunk of a first connection in order, whatever their timestamps', async () => {
    const fake = await fakeServer((socket) => {
      socket.send(CONNECTED);
      socket.send(at('2026-01-01T10:00:02.000000+00:00', 'b\n'));
      // Older than the one before: a worker's two streams need not agree on the clock.
      socket.send(at('2026-01-01T10:00:01.000000+00:00', 'a\n'));
      // A forged timestamp far in the future.
      socket.send(at('2100-01-01T00:00:00.000000+00:00', 'future\n'));
      socket.send(at('2026-01-01T10:00:03.000000+00:00', 'c\n'));
      socket.send(at('2026-01-01T10:00:03.000000+00:00', 'c\n'));
      socket.send(END);
      socket.close();
    });
    const heard = follow(fake.apiUrl, () => false);
    expect(await heard.end).toEqual({ kind: 'ended', exitCode: 0 });
    expect(heard.texts).toEqual(['b\n', 'a\n', 'future\n', 'c\n', 'c\n']);
    expect(heard.notices).toEqual([]);
  });

  it('skips what a reconnection reads again, even past a forged future timestamp', async () => {
    const seen = [
      at('2026-01-01T10:00:01.000000+00:00', 'one\n'),
      at('2100-01-01T00:00:00.000000+00:00', 'forged\n'),
      at('2026-01-01T10:00:02.000000+00:00', 'two\n'),
      // Long enough to be remembered by its digest.
      at('2026-01-01T10:00:02.500000+00:00', `${'x'.repeat(1000)}\n`),
    ];
    let running = true;
    const fake = await fakeServer((socket, attempt) => {
      socket.send(CONNECTED);
      for (const message of seen) socket.send(message);
      if (attempt === 2) {
        socket.send(at('2026-01-01T10:00:03.000000+00:00', 'three\n'));
        running = false;
      }
      socket.send(END);
      socket.close();
    });
    const heard = follow(fake.apiUrl, () => running);
    expect(await heard.end).toEqual({ kind: 'ended', exitCode: 0 });
    expect(heard.texts).toEqual(['one\n', 'forged\n', 'two\n', `${'x'.repeat(1000)}\n`, 'three\n']);
    expect(heard.notices).toEqual([]);
    expect(fake.attempts()).toBe(2);
  });

  it('skips a replay that starts part-way, the server having let its start go', async () => {
    let running = true;
    const fake = await fakeServer((socket, attempt) => {
      socket.send(CONNECTED);
      if (attempt === 1) {
        socket.send(at('2026-01-01T10:00:01.000000+00:00', 'one\n'));
        socket.send(at('2026-01-01T10:00:02.000000+00:00', 'two\n'));
      } else {
        socket.send(at('2026-01-01T10:00:02.000000+00:00', 'two\n'));
        socket.send(at('2026-01-01T10:00:03.000000+00:00', 'three\n'));
        running = false;
      }
      socket.send(END);
      socket.close();
    });
    const heard = follow(fake.apiUrl, () => running);
    await heard.end;
    expect(heard.texts).toEqual(['one\n', 'two\n', 'three\n']);
    expect(heard.notices).toEqual([]);
  });

  it('says output may be lost when a reconnection no longer holds what was seen', async () => {
    let running = true;
    const fake = await fakeServer((socket, attempt) => {
      socket.send(CONNECTED);
      if (attempt === 1) {
        socket.send(at('2026-01-01T10:00:01.000000+00:00', 'one\n'));
      } else {
        // The server's stream was trimmed past 'one' and whatever followed it.
        socket.send(at('2026-01-01T10:00:09.000000+00:00', 'nine\n'));
        running = false;
      }
      socket.send(END);
      socket.close();
    });
    const heard = follow(fake.apiUrl, () => running);
    await heard.end;
    expect(heard.texts).toEqual(['one\n', 'nine\n']);
    expect(heard.notices).toEqual([
      'Some output may have been lost while reconnecting: the server no longer held the last output shown.',
    ]);
  });

  it('says so when a replay does not line up with what was seen', async () => {
    let running = true;
    const fake = await fakeServer((socket, attempt) => {
      socket.send(CONNECTED);
      socket.send(at('2026-01-01T10:00:01.000000+00:00', 'one\n'));
      if (attempt === 1) {
        socket.send(at('2026-01-01T10:00:02.000000+00:00', 'two\n'));
      } else {
        socket.send(at('2026-01-01T10:00:05.000000+00:00', 'other\n'));
        running = false;
      }
      socket.send(END);
      socket.close();
    });
    const heard = follow(fake.apiUrl, () => running);
    await heard.end;
    expect(heard.texts).toEqual(['one\n', 'two\n', 'other\n']);
    expect(heard.notices).toEqual([
      'Some output may be missing or repeated: on reconnecting, the server sent output that did not line up with what was shown.',
    ]);
  });

  it('gives up on a server that accepts the connection and then sends nothing', async () => {
    const fake = await fakeServer(() => undefined);
    const heard = follow(fake.apiUrl, () => true, { firstMessageMs: 200 });
    const end = await heard.end;
    expect(end).toEqual({
      kind: 'lost',
      reason: 'The server accepted the live log connection but sent nothing for 0.2 s.',
    });
    // The client closed its socket: the server saw it go.
    await fake.closed;
    expect(fake.attempts()).toBe(1);
  });
});
