/**
 * Stopping the completion watcher with a backlog: a local WebSocket server stands in for
 * Debusine's (its messages as the real one sends them; docs/debusine-server-facts.md),
 * because a real server will not send a thousand completions on demand.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkRequestResponse } from '../../src/shared/models';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { CompletionRouter } from '../../src/main/watch/completion-router';
import { READ_AHEAD_BATCH } from '../../src/main/watch/read-ahead';
import {
  CompletionWatcher,
  type CompletionEvent,
  type CompletionWatcherOptions,
} from '../../src/main/watch/completion-watcher';
import { WatchList } from '../../src/main/watch/watch-list';
import { MemoryResumeStore } from '../../src/main/watch/resume-state';
import { webSocketsOnLoopback, type LoopbackWebSockets } from '../support/loopback-http';

const BACKLOG = 1000;
/** Completion times after the watcher's first resume point ("now"), a millisecond apart. */
const at = (id: number): string => new Date(Date.UTC(2099, 0, 1) + id).toISOString();

async function fakeServer(): Promise<LoopbackWebSockets> {
  const server = await webSocketsOnLoopback();
  server.wss.on('connection', (socket, request) => {
    // As the real server: what completed at or after completed_at_since, oldest first.
    const since = new URL(request.url ?? '/', 'http://x').searchParams.get('completed_at_since');
    socket.send(JSON.stringify({ type: 'websocket.send', text: 'connected' }));
    for (let id = 1; id <= BACKLOG; id++) {
      if (since !== null && Date.parse(at(id)) < Date.parse(since)) continue;
      socket.send(
        JSON.stringify({
          type: 'websocket.send',
          text: 'work_request_completed',
          work_request_id: id,
          completed_at: at(id),
          result: 'success',
        }),
      );
    }
  });
  return server;
}

/** A watcher on the fake server, with a token it accepts. */
function watcherOn(
  apiUrl: string,
  onCompletion: CompletionWatcherOptions['onCompletion'],
  resume?: MemoryResumeStore,
): CompletionWatcher {
  return new CompletionWatcher({ apiUrl, getToken: () => 'token', resume, onCompletion });
}

describe('CompletionWatcher with a backlog', () => {
  let server: LoopbackWebSockets | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('finishes the completion at hand, leaves the rest to the next start, loses none', async () => {
    server = await fakeServer();
    const resume = new MemoryResumeStore();
    const handled: number[] = [];
    const slow = async (event: CompletionEvent): Promise<void> => {
      handled.push(event.workRequestId);
      await new Promise((r) => setTimeout(r, 20));
    };
    const first = watcherOn(server.apiUrl, slow, resume);
    await first.start();
    await first.whenConnected();
    await expect.poll(() => handled.length).toBeGreaterThan(3);
    const started = Date.now();
    await first.stop();
    // A thousand handlers of 20 ms would take 20 s; stopping takes one.
    expect(Date.now() - started).toBeLessThan(5_000);
    const before = handled.length;
    expect(before).toBeLessThan(BACKLOG);
    expect(resume.point?.lastCompletedAt).toBe(at(before));

    // The next start replays from the resume point: nothing handled twice, nothing lost.
    const fast = (event: CompletionEvent): void => {
      handled.push(event.workRequestId);
    };
    const second = watcherOn(server.apiUrl, fast, resume);
    await second.start();
    await second.whenConnected();
    await expect.poll(() => handled.length, { timeout: 10_000 }).toBe(BACKLOG);
    await second.idle();
    expect(new Set(handled).size).toBe(BACKLOG);
    await second.stop();
  });

  it('goes on after a handler that fails, with nobody listening for errors', async () => {
    server = await fakeServer();
    const resume = new MemoryResumeStore();
    const handled: number[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const watcher = watcherOn(
      server.apiUrl,
      (event) => {
        if (event.workRequestId === 2) throw new Error('cannot read #2');
        handled.push(event.workRequestId);
      },
      resume,
    );
    try {
      await watcher.start();
      await watcher.whenConnected();
      await expect.poll(() => handled.length, { timeout: 10_000 }).toBe(BACKLOG - 1);
      await watcher.idle();
      // Without a listener, an 'error' event would have thrown in the queue and ended the
      // process (an unhandled rejection); it is logged instead, and the queue goes on.
      expect(warn).toHaveBeenCalledWith('Notifications: A completion handler failed');
      expect(handled).not.toContain(2);
      expect(resume.point?.lastCompletedAt).toBe(at(BACKLOG));
      await watcher.stop();
    } finally {
      warn.mockRestore();
    }
  });

  it.each([
    ['reads the backlog a page at a time where the server filters by ids', true],
    ['reads the backlog one by one where it cannot', false],
  ])('%s', async (_name, filtersByIds) => {
    server = await fakeServer();
    const dir = await mkdtemp(join(tmpdir(), 'read-ahead-'));
    const gets: number[] = [];
    const lists: number[][] = [];
    const workRequest = (id: number): WorkRequestResponse =>
      ({
        id,
        task_name: 'noop',
        task_type: 'Worker',
        workspace: 'System',
        status: 'completed',
        result: 'success',
        workflow_root: null,
        created_by: 1,
      }) as WorkRequestResponse;
    const source = {
      // A request takes a few milliseconds, as on a server nearby.
      workRequestGet: async (id: number) => {
        gets.push(id);
        await new Promise((r) => setTimeout(r, 2));
        return workRequest(id);
      },
      // As the server: only the ids asked for (one of them is in nobody's sight).
      async *workRequestIter(filters: { ids?: readonly number[] } = {}) {
        lists.push([...(filters.ids ?? [])]);
        await new Promise((r) => setTimeout(r, 5));
        for (const id of filters.ids ?? []) if (id !== 500) yield workRequest(id);
      },
    };
    const router = new CompletionRouter({
      client: source,
      watchList: new WatchList(join(dir, 'watch.json')),
      notifier: new RecordingNotifier(),
      readsByIds: () => Promise.resolve(filtersByIds),
    });
    const changed: number[] = [];
    router.on('changed', (c) => changed.push(c.workRequestId));
    const watcher = watcherOn(server.apiUrl, (event) => router.handleCompletion(event));
    router.attach(watcher);
    try {
      await watcher.start();
      await expect.poll(() => changed.length, { timeout: 20_000 }).toBe(BACKLOG);
      await watcher.idle();
      expect(new Set(changed).size).toBe(BACKLOG);
      if (filtersByIds) {
        // Every id asked for once at most, in batches; the few read alone are those handled
        // before the first batch was asked for, and the one the list did not return.
        expect(lists.every((ids) => ids.length <= READ_AHEAD_BATCH)).toBe(true);
        const listed = lists.flat();
        expect(new Set(listed).size).toBe(listed.length);
        expect(gets).toContain(500);
        expect(gets.length).toBeLessThan(10);
        expect(listed.length + gets.length).toBeLessThanOrEqual(BACKLOG + 1);
      } else {
        expect(lists).toEqual([]);
        expect(gets.length).toBe(BACKLOG);
      }
    } finally {
      router.detach();
      await watcher.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
