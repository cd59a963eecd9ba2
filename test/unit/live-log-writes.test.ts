/**
 * The live log's copy on disk under a flood of small chunks, as a server streaming a build
 * that prints many short lines sends them: every line is kept, in order, and the chunks are
 * written in batches rather than one write each.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { LiveLog } from '../../src/main/logs/live-log';
import { webSocketsOnLoopback, type LoopbackWebSockets } from '../support/loopback-http';

const FRAMES = 200_000;

let server: LoopbackWebSockets | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

/** The prototype of the file handles fs/promises opens, whose `write` the copy calls. */
async function fileHandleWrite(dir: string) {
  const probe = await open(join(dir, 'probe'), 'w');
  await probe.close();
  const prototype = Object.getPrototypeOf(probe) as { write: (...args: never[]) => unknown };
  return vi.spyOn(prototype, 'write');
}

it('keeps every line of a flood of small chunks, in order, in far fewer writes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ddt-live-writes-'));
  const writes = await fileHandleWrite(dir);
  server = await webSocketsOnLoopback();
  server.wss.on('connection', (socket: WebSocket) => {
    socket.send(JSON.stringify({ type: 'connected' }));
    let sent = 0;
    // A thousand at a time, so that the client reads while the server sends.
    const pump = (): void => {
      for (const last = Math.min(FRAMES, sent + 1000); sent < last; sent++) {
        const timestamp = new Date(Date.UTC(2026, 0, 1) + sent).toISOString();
        socket.send(
          JSON.stringify({ type: 'log_data', data: `line ${String(sent)}\n`, timestamp }),
        );
      }
      if (sent < FRAMES) {
        setImmediate(pump);
        return;
      }
      socket.send(JSON.stringify({ type: 'log_data_end', exit_code: 0 }));
      socket.close();
    };
    pump();
  });
  const file = join(dir, 'live.log');
  const log = new LiveLog({
    apiUrl: server.apiUrl,
    workRequestId: 1,
    file,
    sbuild: false,
    stillRunning: () => Promise.resolve(false),
    onChange: () => undefined,
  });
  log.start();
  await log.done;
  expect(log.status).toBe('ended');
  expect(log.message).toBeNull();
  expect(log.index.lines).toBe(FRAMES);
  const lines = readFileSync(file, 'utf8').split('\n');
  expect(lines).toHaveLength(FRAMES + 1);
  for (let i = 0; i < FRAMES; i++) {
    if (lines[i] !== `line ${String(i)}`) expect(lines[i]).toBe(`line ${String(i)}`);
  }
  // Batched: a write gathers what arrived while the one before it ran.
  expect(writes.mock.calls.length).toBeLessThan(FRAMES / 100);
  await log.close();
}, 60_000);
