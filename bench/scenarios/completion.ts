/**
 * Completion latency: a real noop work request completes on the sandbox's worker; the
 * time from its websocket message to the app's Notifier.show() call is measured with the
 * app's own watcher and router. A raw `ws` listener in the same process, on the same
 * server, gives a second arrival stamp that owes nothing to the app's code.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { CompletionRouter } from '../../src/main/watch/completion-router';
import { CompletionWatcher, type CompletionEvent } from '../../src/main/watch/completion-watcher';
import { completionSocketUrl } from '../../src/main/watch/socket-url';
import { WatchList } from '../../src/main/watch/watch-list';
import type { BenchContext } from '../lib/context';
import { stats } from '../lib/stats';

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function rawListener(ctx: BenchContext, arrivals: Map<number, number>): Promise<WebSocket> {
  const socket = new WebSocket(completionSocketUrl(ctx.server.apiUrl, {}), {
    headers: { Token: ctx.server.token },
  });
  socket.on('message', (data: Buffer) => {
    const at = Date.now();
    try {
      const message = JSON.parse(data.toString('utf8')) as { work_request_id?: unknown };
      if (typeof message.work_request_id === 'number' && !arrivals.has(message.work_request_id)) {
        arrivals.set(message.work_request_id, at);
      }
    } catch {
      // not JSON: not a completion
    }
  });
  return new Promise((resolve, reject) => {
    socket.once('message', () => {
      resolve(socket); // the server's `connected` message
    });
    socket.once('error', reject);
  });
}

export async function completionLatency(ctx: BenchContext): Promise<void> {
  const runs = Math.max(ctx.runs, 3);
  const dir = await mkdtemp(join(tmpdir(), 'bench-watch-'));
  const notifier = new RecordingNotifier();
  const watchList = new WatchList(join(dir, 'watch.json'));
  const router = new CompletionRouter({
    client: ctx.client,
    watchList,
    notifier,
  });
  const events: CompletionEvent[] = [];
  const watcher = new CompletionWatcher({
    apiUrl: ctx.server.apiUrl,
    getToken: () => ctx.server.token,
    onCompletion: (event) => router.handleCompletion(event),
  });
  watcher.on('completed', (event) => events.push(event));
  router.attach(watcher);
  const arrivals = new Map<number, number>();
  const raw = await rawListener(ctx, arrivals);
  const appLatency: number[] = [];
  const rawLatency: number[] = [];
  const endToEnd: number[] = [];
  try {
    await watcher.start();
    await watcher.whenConnected();
    for (let i = 0; i < runs; i++) {
      const created = Date.now();
      const wr = await ctx.client.workRequestCreate({
        task_name: 'noop',
        task_data: {},
        event_reactions: {},
      });
      await router.started(wr);
      const record = await notifier.waitFor((n) => n.workRequestId === wr.id, 120_000);
      await until(() => arrivals.has(wr.id), 10_000, 'the raw listener');
      const event = events.find((e) => e.workRequestId === wr.id);
      if (!event) throw new Error(`no completion event for ${String(wr.id)}`);
      appLatency.push(record.shownAt - event.receivedAt);
      rawLatency.push(record.shownAt - (arrivals.get(wr.id) ?? 0));
      endToEnd.push(record.shownAt - created);
    }
  } finally {
    raw.close();
    await watcher.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const scenario = 'completion → notification';
  ctx.record({
    scenario,
    subject: 'app',
    stats: stats(appLatency),
    note: "the watcher's message stamp → Notifier.show()",
  });
  ctx.record({
    scenario,
    subject: 'raw ws listener',
    stats: stats(rawLatency),
    note: 'arrival on a separate raw socket → Notifier.show()',
  });
  ctx.record({
    scenario,
    subject: 'noop, end to end',
    stats: stats(endToEnd),
    note: 'created → notified: the worker and scheduler',
  });
  const appStats = stats(appLatency);
  ctx.target(scenario, 'completion → notification, median ms', appStats.medianMs, {
    max: 100,
    text: '< 100 ms',
  });
}
