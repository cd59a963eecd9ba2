/**
 * A CompletionRouter over a server that knows exactly the work requests a test gives, with a
 * watch list in a fresh temporary directory and a notifier that records: what the router's
 * unit tests start from, so that each states only what it varies.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebusineClient } from '../../src/main/api/client';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import {
  CompletionRouter,
  type CompletionRouterOptions,
  type WorkRequestSource,
} from '../../src/main/watch/completion-router';
import { CompletionWatcher } from '../../src/main/watch/completion-watcher';
import { WatchList } from '../../src/main/watch/watch-list';
import { DebusineError } from '../../src/shared/errors';
import type { WorkRequestResponse } from '../../src/shared/models';

/**
 * A server whose GET answers `requests` by id and `not-found` otherwise. Its lists are
 * empty, unless `lists`: then they hold `requests`, newest first as the server lists them,
 * and `ids` asks for those only. `gets` records the id of each GET.
 */
export function workRequestSourceOf(
  requests: WorkRequestResponse[],
  options: { lists?: boolean; gets?: number[] } = {},
): WorkRequestSource & DebusineClient {
  const listed = options.lists ? [...requests].sort((a, b) => b.id - a.id) : [];
  return {
    workRequestGet: (id: number) => {
      options.gets?.push(id);
      const found = requests.find((r) => r.id === id);
      return found ? Promise.resolve(found) : Promise.reject(new DebusineError('not-found', 'no'));
    },
    async *workRequestIter(filters: { ids?: number[] } = {}) {
      for (const r of listed) {
        if (!filters.ids || filters.ids.includes(r.id)) yield await Promise.resolve(r);
      }
    },
  } as unknown as WorkRequestSource & DebusineClient;
}

export interface RouterFixture {
  router: CompletionRouter;
  watchList: WatchList;
  notifier: RecordingNotifier;
  /** Work requests whose notification's "Open in browser" was chosen. */
  opened: number[];
  /**
   * Closes the router, then removes the temporary directory. Without the close, the checks
   * for waiting steps that watching or starting a running workflow schedules (up to 15 s
   * later) run after the test, and one that writes the watch list makes the directory again.
   */
  done: () => Promise<void>;
}

/** The router over `requests`; `options` adds to or replaces the router's options. */
export async function routerFixture(
  requests: WorkRequestResponse[],
  options: Partial<CompletionRouterOptions> = {},
): Promise<RouterFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'router-'));
  const watchList = new WatchList(join(dir, 'w.json'));
  const notifier = new RecordingNotifier();
  const opened: number[] = [];
  const router = new CompletionRouter({
    client: workRequestSourceOf(requests),
    watchList,
    notifier,
    ...options,
  });
  router.on('openInBrowser', (id) => opened.push(id));
  return {
    router,
    watchList,
    notifier,
    opened,
    done: async () => {
      await router.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A watcher on a loopback socket (`apiUrl`) feeding a router over `client`, with `watched`
 * on the watch list as still running: what the socket tests start from (a flood, a wake
 * from sleep). The router reads the server by ids.
 */
export async function watchedOverSocket(options: {
  dir: string;
  apiUrl: string;
  client: WorkRequestSource;
  watched: number;
}): Promise<{ router: CompletionRouter; watcher: CompletionWatcher; notifier: RecordingNotifier }> {
  const watchList = new WatchList(join(options.dir, 'watch.json'));
  await watchList.add(options.watched, 'user', 'noop');
  await watchList.setStatus(options.watched, 'running', '');
  const notifier = new RecordingNotifier();
  const router = new CompletionRouter({
    client: options.client,
    watchList,
    notifier,
    readsByIds: () => Promise.resolve(true),
  });
  const watcher = new CompletionWatcher({
    apiUrl: options.apiUrl,
    getToken: () => 'token',
    onCompletion: (event) => router.handleCompletion(event),
  });
  router.attach(watcher);
  return { router, watcher, notifier };
}
