/**
 * A server that floods the completion websocket: a local WebSocket server stands in for
 * Debusine's (its messages as the real one sends them; docs/debusine-server-facts.md),
 * because a real server will not send two hundred thousand completions on demand. What
 * waits in the watcher stays bounded, and the watched work is read instead of what was
 * dropped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { WebSocket } from 'ws';
import type { WorkRequestResponse } from '../../src/shared/models';
import { MAX_PENDING } from '../../src/main/watch/completion-watcher';
import { watchedOverSocket } from '../support/completion-router';
import { webSocketsOnLoopback, type LoopbackWebSockets } from '../support/loopback-http';

// A context made after the flag is set has gc(), without starting Node with --expose-gc.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const FLOOD = 200_000;
/** The flood names this many work requests over and over, each time completed later. */
const DISTINCT = 3_000;
const WATCHED = 7;
/** Completion times after the watcher's first resume point ("now"), a millisecond apart. */
const at = (n: number): string => new Date(Date.UTC(2099, 0, 1) + n).toISOString();

function completed(id: number, completedAt: string): string {
  return JSON.stringify({
    type: 'websocket.send',
    text: 'work_request_completed',
    work_request_id: id,
    completed_at: completedAt,
    result: 'success',
  });
}

/** Sends in batches, each once the one before left: the fake server holds little itself. */
async function flood(socket: WebSocket, sent: () => void): Promise<void> {
  const BATCH = 2_000;
  for (let n = 0; n < FLOOD; n += BATCH) {
    await new Promise<void>((resolve, reject) => {
      for (let i = n; i < n + BATCH; i++) {
        const last = i === n + BATCH - 1;
        socket.send(completed(1_000 + (i % DISTINCT), at(i)), (error) => {
          if (error) reject(error);
          else if (last) resolve();
        });
      }
    });
  }
  // The watched work request completes last, after the flood.
  sent();
  socket.send(completed(WATCHED, at(FLOOD + 1)));
}

describe('CompletionWatcher under a flood of completions', () => {
  let server: LoopbackWebSockets | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('keeps at most MAX_PENDING waiting, coalesced, and reads the watched work instead', async () => {
    server = await webSocketsOnLoopback();
    let floodSent = false;
    server.wss.on('connection', (socket) => {
      socket.send(JSON.stringify({ type: 'websocket.send', text: 'connected' }));
      void flood(socket, () => {
        floodSent = true;
      });
    });
    const dir = await mkdtemp(join(tmpdir(), 'watch-flood-'));
    const lists: number[][] = [];
    // The watched one runs until the flood has been sent: only a read after that (its
    // completion, or a catch-up) finds it completed.
    const workRequest = (id: number): WorkRequestResponse =>
      ({
        id,
        task_name: 'noop',
        task_type: 'Worker',
        workspace: 'System',
        status: id === WATCHED && !floodSent ? 'running' : 'completed',
        result: 'success',
        completed_at: at(FLOOD + 1),
        workflow_root: null,
        created_by: 1,
      }) as WorkRequestResponse;
    // A server nearby: each read takes a few milliseconds, far slower than the flood.
    const source = {
      workRequestGet: async (id: number) => {
        await new Promise((r) => setTimeout(r, 2));
        return workRequest(id);
      },
      async *workRequestIter(filters: { ids?: readonly number[] } = {}) {
        lists.push([...(filters.ids ?? [])]);
        await new Promise((r) => setTimeout(r, 20));
        for (const id of filters.ids ?? []) yield workRequest(id);
      },
    };
    const { router, watcher, notifier } = await watchedOverSocket({
      dir,
      apiUrl: server.apiUrl,
      client: source,
      watched: WATCHED,
    });
    let handled = 0;
    let dropped = 0;
    let overflows = 0;
    let mostPending = 0;
    let messages = 0;
    watcher.on('completed', () => handled++);
    watcher.on('overflow', (count) => {
      dropped += count;
      overflows++;
    });
    let catchUps = 0;
    router.on('overflow', () => catchUps++);
    watcher.on('received', () => {
      messages++;
      mostPending = Math.max(mostPending, watcher.pending);
    });

    // What stays reachable, after a full collection: garbage not collected yet is no growth.
    const retained = (): number => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const heapBefore = retained();
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, retained());
    }, 250);
    try {
      await watcher.start();
      await watcher.whenConnected();
      // The last message, after the flood: the watched work request's completion.
      await notifier.waitFor((n) => n.workRequestId === WATCHED, 30_000);
      await watcher.idle();
      clearInterval(sampler);

      expect(mostPending).toBeLessThanOrEqual(MAX_PENDING);
      expect(overflows).toBeGreaterThan(0);
      // Completions still came out: those not dropped were handled, each work request's
      // repeats coalesced while it waited.
      expect(handled).toBeGreaterThan(0);
      expect(handled + dropped).toBeLessThanOrEqual(FLOOD + 1);
      expect(messages).toBeGreaterThan(0);
      // Catch-ups read the watched work request instead of what was dropped (besides the
      // one at connection), coalesced: far fewer than the overflows; its end notified once.
      expect(catchUps).toBeGreaterThan(0);
      expect(catchUps).toBeLessThan(overflows);
      const watchedReads = lists.filter((ids) => ids.length === 1 && ids[0] === WATCHED);
      // (A catch-up reads nothing once the watched one is known to have ended.)
      expect(watchedReads.length).toBeGreaterThanOrEqual(2);
      expect(watchedReads.length).toBeLessThanOrEqual(catchUps + 1);
      expect(notifier.shown.filter((r) => r.notification.workRequestId === WATCHED)).toHaveLength(
        1,
      );
      // Holding every completion took a hundred MiB and more; a bounded queue, a few.
      expect(heapPeak - heapBefore).toBeLessThan(32 * 1024 * 1024);
    } finally {
      clearInterval(sampler);
      router.detach();
      await watcher.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
