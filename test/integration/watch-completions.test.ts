import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { UserDirectory } from '../../src/main/identity/user-directory';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import {
  CompletionRouter,
  type CompletionRouterOptions,
  type WorkRequestSource,
} from '../../src/main/watch/completion-router';
import { READ_AHEAD_FROM } from '../../src/main/watch/read-ahead';
import {
  CompletionWatcher,
  type CompletionEvent,
  type ConnectionState,
} from '../../src/main/watch/completion-watcher';
import { MemoryResumeStore, ResumeFile } from '../../src/main/watch/resume-state';
import { WatchList } from '../../src/main/watch/watch-list';
import { clientFor, waitForCompletion, createNoop } from '../support/clients';
import { hasServer, testServer } from '../support/sandbox';
import { seedWorkRequestBy } from '../support/seed-steps';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

// The completion websocket of the real current server, with real noop work requests.
describe.runIf(hasServer('current'))('watching completions on the current server', () => {
  const server = testServer('current');
  const token = server.users.owner.token;
  let client: DebusineClient;
  let dir: string;

  beforeAll(async () => {
    client = clientFor(server);
    dir = await mkdtemp(join(tmpdir(), 'watch-it-'));
  });
  afterAll(async () => {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function noop(): Promise<number> {
    const created = await createNoop(client);
    return created.id;
  }

  function collect(watcher: CompletionWatcher): CompletionEvent[] {
    const events: CompletionEvent[] = [];
    watcher.on('completed', (event) => events.push(event));
    return events;
  }

  function routerFor(
    watchList: WatchList,
    notifier: RecordingNotifier,
    extra: Partial<CompletionRouterOptions> = {},
  ): CompletionRouter {
    return new CompletionRouter({
      client,
      watchList,
      notifier,
      ...extra,
    });
  }

  /** A watcher on the real server that feeds this router, once connected. */
  async function connectedTo(router: CompletionRouter) {
    const watcher = new CompletionWatcher({
      apiUrl: server.apiUrl,
      getToken: () => token,
      onCompletion: (event) => router.handleCompletion(event),
    });
    router.attach(watcher);
    const events = collect(watcher);
    await watcher.start();
    await watcher.whenConnected();
    return { watcher, events };
  }

  async function until(check: () => boolean, ms = 60_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('delivers completions of real noop work requests, and notifies within the bound', async () => {
    const notifier = new RecordingNotifier();
    const watchList = new WatchList(join(dir, 'watch-a.json'));
    const router = routerFor(watchList, notifier);
    const { watcher, events } = await connectedTo(router);

    const ids = [await noop(), await noop()];
    for (const id of ids) {
      const wr = await client.workRequestGet(id);
      await router.started(wr);
    }
    await until(
      () => ids.every((id) => events.some((e) => e.workRequestId === id)),
      90_000,
      'completions',
    );
    const notified = await Promise.all(
      ids.map((id) => notifier.waitFor((n) => n.workRequestId === id, 10_000)),
    );
    const latencies = notified.map((record) => {
      const event = events.find((e) => e.workRequestId === record.notification.workRequestId);
      return record.shownAt - (event?.receivedAt ?? 0);
    });
    console.log(`completion → notification latency (ms): ${latencies.join(', ')}`);
    expect(notified[0]?.notification.title).toMatch(/^Succeeded: noop #\d+$/);
    // A success is notified from the watch list at once, before the work request is read:
    // its status there follows that read.
    await until(() => watchList.get(ids[0] ?? 0)?.status === 'completed', 10_000, 'the status');

    // Clicking opens the work request in the app.
    const opened: number[] = [];
    router.on('open', (id) => opened.push(id));
    notified[0]?.handlers.onClick();
    expect(opened).toEqual([ids[0]]);

    // Mode "mine": a work request not on the watch list notifies after one fetch.
    router.setFilter({ mode: 'mine', workspaces: [] });
    const unwatched = await noop();
    const record = await notifier.waitFor((n) => n.workRequestId === unwatched, 90_000);
    const event = events.find((e) => e.workRequestId === unwatched);
    const fetched = record.shownAt - (event?.receivedAt ?? 0);
    console.log(
      `completion → notification latency with a fetch (mode mine): ${String(fetched)} ms`,
    );
    expect(fetched).toBeLessThan(1000);
    expect(watchList.has(unwatched)).toBe(false);
    await watcher.stop();
  });

  it.runIf(server.sandbox && server.users.noRoles)(
    "mode mine: notifies for work the user started elsewhere, not for anyone else's",
    async () => {
      const other = server.users.noRoles?.username ?? '';
      const notifier = new RecordingNotifier();
      const watchList = new WatchList(join(dir, 'watch-mine.json'));
      // A fresh directory: the user's id is not known yet, the server names creators.
      const users = new UserDirectory(join(dir, 'identities-mine.json'));
      const me = await client.whoami();
      const router = routerFor(watchList, notifier, {
        filter: { mode: 'mine', workspaces: [] },
        isMine: (wr) => users.isMine('sandbox', client, me.user, wr.created_by),
      });
      const { watcher, events } = await connectedTo(router);

      const theirs = await seedWorkRequestBy(server, other, 'pending');
      const mine = await noop();
      await notifier.waitFor((n) => n.workRequestId === mine, 90_000);
      await until(() => events.some((e) => e.workRequestId === theirs), 120_000, 'their noop');
      // Their completion went through the router too (it had to fetch and ask whose it is).
      await new Promise((r) => setTimeout(r, 1500));
      expect(notifier.shown.map((r) => r.notification.workRequestId)).not.toContain(theirs);
      await expect(users.selfId('sandbox', client.apiUrl, me.user)).resolves.toBe(
        (await client.workRequestGet(mine)).created_by,
      );
      await watcher.stop();
    },
  );

  it('notifies once for each completion across an outage cut at a TCP proxy', async () => {
    const apiPort = Number(new URL(server.apiUrl).port);
    const proxy: TcpProxy = await startTcpProxy('127.0.0.1', apiPort);
    const states: ConnectionState[] = [];
    const watcher = new CompletionWatcher({
      apiUrl: proxy.url('/api'),
      getToken: () => token,
      initialBackoffMs: 300,
      maxBackoffMs: 1_000,
      resume: new ResumeFile(join(dir, 'outage-resume.json')),
    });
    watcher.on('state', (s) => states.push(s));
    const events = collect(watcher);
    try {
      await watcher.start();
      await watcher.whenConnected();
      const before = await noop();
      await until(() => events.some((e) => e.workRequestId === before), 90_000, 'first completion');

      proxy.cut();
      await until(() => states.some((s) => s.state === 'reconnecting'), 10_000, 'reconnecting');
      const during = [await noop(), await noop()];
      for (const id of during) await waitForCompletion(client, id);
      expect(events.some((e) => during.includes(e.workRequestId))).toBe(false);

      proxy.restore();
      await until(
        () => during.every((id) => events.some((e) => e.workRequestId === id)),
        60_000,
        'replayed completions',
      );
      const after = await noop();
      await until(() => events.some((e) => e.workRequestId === after), 90_000, 'live completion');
      await watcher.idle();

      const all = [before, ...during, after];
      for (const id of all) {
        expect(events.filter((e) => e.workRequestId === id)).toHaveLength(1);
      }
      const reconnecting = states.find((s) => s.state === 'reconnecting');
      expect(reconnecting && 'nextAttemptAt' in reconnecting).toBe(true);
      expect(proxy.connections).toBeGreaterThanOrEqual(2);
    } finally {
      await watcher.stop();
      await proxy.close();
    }
  });

  it('resumes from the resume file after a restart of the watcher', async () => {
    const file = join(dir, 'restart-resume.json');
    /** A watcher resuming from `file`, started and connected; the completions it delivers. */
    const startFromFile = async () => {
      const watcher = new CompletionWatcher({
        apiUrl: server.apiUrl,
        getToken: () => token,
        resume: new ResumeFile(file),
      });
      const events = collect(watcher);
      await watcher.start();
      await watcher.whenConnected();
      return { watcher, events };
    };
    const { watcher: first, events: firstEvents } = await startFromFile();
    const seen = await noop();
    await until(() => firstEvents.some((e) => e.workRequestId === seen), 90_000, 'completion');
    await first.stop();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { last_completed_at: string };
    expect(typeof saved.last_completed_at).toBe('string');

    // Completes while no watcher runs.
    const missed = await noop();
    await waitForCompletion(client, missed);

    const { watcher: second, events: secondEvents } = await startFromFile();
    await until(() => secondEvents.some((e) => e.workRequestId === missed), 30_000, 'replay');
    await second.idle();
    // `seen` was handled before the restart: never delivered again.
    expect(secondEvents.filter((e) => e.workRequestId === seen)).toHaveLength(0);
    expect(secondEvents.filter((e) => e.workRequestId === missed)).toHaveLength(1);
    await second.stop();
  });

  it('reads a replayed backlog by ids, a page at a time, and misses none', async () => {
    // A backlog of noops completes while nothing watches; then a watcher starts from before.
    const ids = await Promise.all(Array.from({ length: READ_AHEAD_FROM + 2 }, () => noop()));
    const done = await Promise.all(ids.map((id) => waitForCompletion(client, id)));
    const first = Math.min(...done.map((wr) => Date.parse(wr.completed_at ?? '')));
    const resume = new MemoryResumeStore();
    resume.point = { lastCompletedAt: new Date(first - 1_000).toISOString(), idsAtLast: [] };
    const gets: number[] = [];
    const lists: number[][] = [];
    const counting: WorkRequestSource = {
      workRequestGet: (id) => {
        gets.push(id);
        return client.workRequestGet(id);
      },
      workRequestIter: (filters) => {
        lists.push([...(filters?.ids ?? [])]);
        return client.workRequestIter(filters);
      },
    };
    const router = routerFor(new WatchList(join(dir, 'backlog.json')), new RecordingNotifier(), {
      client: counting,
      readsByIds: async () => (await client.serverRevision()).features.workRequestFilters,
    });
    const changed = new Map<number, string>();
    router.on('changed', (c) => changed.set(c.workRequestId, c.status));
    const watcher = new CompletionWatcher({
      apiUrl: server.apiUrl,
      getToken: () => token,
      resume,
      onCompletion: (event) => router.handleCompletion(event),
    });
    router.attach(watcher);
    await watcher.start();
    await until(() => ids.every((id) => changed.has(id)), 60_000, 'the replay');
    await watcher.stop();
    router.detach();
    // Each of them read, from the real server, as completed.
    expect(ids.map((id) => changed.get(id))).toEqual(ids.map(() => 'completed'));
    // The replay came in together: most were read in list requests filtered by their ids.
    const listed = lists.flat().filter((id) => ids.includes(id));
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(ids.filter((id) => gets.includes(id)).length).toBeLessThan(ids.length);
  });

  it('stops and asks to sign in again when the token is refused', async () => {
    const watcher = new CompletionWatcher({
      apiUrl: server.apiUrl,
      getToken: () => '0'.repeat(64),
    });
    const states: ConnectionState[] = [];
    watcher.on('state', (s) => states.push(s));
    await watcher.start();
    await expect(watcher.whenConnected()).rejects.toMatchObject({ code: 'auth' });
    expect(states.at(-1)?.state).toBe('signed-out');
    await watcher.stop();
  });
});
