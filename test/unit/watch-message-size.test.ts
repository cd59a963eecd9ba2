/**
 * The completion websocket reads messages of at most 64 KiB: a local WebSocket server stands
 * in for Debusine's and sends a completion of exactly that size, then one a byte larger,
 * which the watcher refuses, saying why, and reconnects after.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  CompletionWatcher,
  type CompletionEvent,
  type ConnectionState,
} from '../../src/main/watch/completion-watcher';
import { webSocketsOnLoopback, type LoopbackWebSockets } from '../support/loopback-http';

const LIMIT = 64 * 1024;

/** A completion message of exactly `length` bytes (its padding in `result`). */
function completionOf(id: number, length: number): string {
  const message = (result: string): string =>
    JSON.stringify({
      type: 'websocket.send',
      text: 'work_request_completed',
      work_request_id: id,
      completed_at: new Date(Date.UTC(2099, 0, 1) + id).toISOString(),
      result,
    });
  return message('x'.repeat(length - message('').length));
}

let server: LoopbackWebSockets | undefined;
let watcher: CompletionWatcher | undefined;
afterEach(async () => {
  await watcher?.stop();
  await server?.close();
});

describe('the completion websocket', () => {
  it('takes a message of 64 KiB and refuses one a byte larger', async () => {
    server = await webSocketsOnLoopback();
    const closes: number[] = [];
    server.wss.on('connection', (socket: WebSocket) => {
      socket.on('close', (code) => closes.push(code));
      socket.send(JSON.stringify({ type: 'websocket.send', text: 'connected' }));
      socket.send(completionOf(1, LIMIT));
      socket.send(completionOf(2, LIMIT + 1));
    });
    const received: CompletionEvent[] = [];
    const states: ConnectionState[] = [];
    watcher = new CompletionWatcher({
      apiUrl: server.apiUrl,
      getToken: () => 'token',
      // No second attempt within the test.
      initialBackoffMs: 60_000,
      random: () => 0,
    });
    watcher.on('received', (event) => received.push(event));
    watcher.on('state', (state) => states.push(state));
    await watcher.start();
    await new Promise<void>((resolve) => {
      watcher?.on('state', (state) => {
        if (state.state === 'reconnecting') resolve();
      });
    });
    expect(received.map((e) => e.workRequestId)).toEqual([1]);
    // Taken whole, and its result, which is none Debusine has, read as unknown.
    expect(received[0]?.result).toBe('unknown');
    expect(states.at(-1)).toMatchObject({
      state: 'reconnecting',
      error: {
        code: 'bad-response',
        message: 'The notification service sent a message larger than 64 KiB',
      },
    });
    // 1009: "message too big", the close code ws sends when it refuses a message.
    await expect.poll(() => closes).toEqual([1009]);
  });
});
