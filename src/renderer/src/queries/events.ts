/**
 * The one place that maps main's events to the cache: small "changed" events make stale
 * the keys they concern, and the data comes back through normal requests; the few events
 * that carry the new state (the connection, upload and download progress, the session)
 * are written in directly. Mounted once, at the top of the app. The interface's own
 * reactions to an event subscribe through useMainEvent here; nothing outside queries/
 * listens to main.
 *
 * A completion or a change main reports makes stale the pages of the work requests it
 * names and, inside a workflow, that workflow's tree and its root's page, whatever the
 * step's task type and depth (the tree is read whole, root and steps: workflow-steps.ts);
 * the reports of one moment (a step, its sub-workflow, the root) make one read of each.
 * Other trees are left alone: on a busy server completions come every few seconds, and
 * each open tree reads on its own timer anyway.
 *
 * It also forgets a server's data once another server is active: a request that was on its
 * way while main switched may have been answered by the new server, and must not stay
 * cached as the old one's.
 */
import { hashKey, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useBridge } from '@renderer/bridge';
import type {
  BridgeClient,
  ConnectionState,
  EventChannel,
  EventListener,
  SessionInfo,
  UploadJob,
  WorkRequestResponse,
} from '@shared/contract';
import { NEEDS_INPUT } from '@shared/results/end';
import { EVERYTHING, NO_SERVER, type Scope } from './define';
import { putDownloadJob } from './downloads';
import { queueQueries } from './queue';
import { currentScope } from './hooks';
import { serverQueries } from './servers';
import { sessionQueries } from './session';
import { updateJob, uploadQueries } from './uploads';
import { workRequestKeys } from './work-request-keys';
import { catchUpLists, liveRows } from './work-request-rows';

/** Keys of app data, by prefix. */
const SERVERS: QueryKey = serverQueries.list.key.slice(0, 2);
const SESSION: QueryKey = sessionQueries.whoami.key.slice(0, 2);
const ACTIVE_HASH = hashKey(serverQueries.active.key);

/**
 * How long the reports of one moment are gathered before what they concern is read again:
 * main reports a step, its sub-workflow and the root within milliseconds of each other,
 * and each would otherwise start the tree's read (and the root page's) over.
 */
export const REPORTS_GATHER_MS = 150;

/** The trees of the cache that show any of these work requests, or are rooted at one. */
function treesOf(queryClient: QueryClient, scope: Scope, ids: readonly number[]): QueryKey[] {
  const wanted = new Set(ids);
  return queryClient
    .getQueriesData<{ steps?: WorkRequestResponse[] }>({ queryKey: workRequestKeys.lists(scope) })
    .filter(([key, data]) => {
      const root = workRequestKeys.treeRoot(key);
      if (root === null) return false;
      return wanted.has(root) || (data?.steps?.some((s) => wanted.has(s.id)) ?? false);
    })
    .map(([key]) => key);
}

export function useMainEvents(): void {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  useEffect(() => {
    const offs = subscribe(bridge, queryClient);
    const forget = forgetOtherServers(queryClient);
    return () => {
      forget();
      for (const off of offs) off();
    };
  }, [bridge, queryClient]);
}

function subscribe(bridge: BridgeClient, queryClient: QueryClient): (() => void)[] {
  const scope = (): Scope => currentScope(queryClient) ?? NO_SERVER;
  const invalidate = (queryKey: QueryKey): void => {
    void queryClient.invalidateQueries({ queryKey });
  };
  // The paged lists update their rows in place (work-request-rows.ts): refetching one
  // would re-read every loaded page. The trees are made stale by what they show (below).
  const invalidateListsExceptPaged = (): void => {
    void queryClient.invalidateQueries({
      queryKey: workRequestKeys.lists(scope()),
      predicate: (query) =>
        !workRequestKeys.isPagedList(query.queryKey) &&
        workRequestKeys.treeRoot(query.queryKey) === null,
    });
  };
  // Work requests reported since the last gathering: their pages, and the trees that show
  // them or are rooted at them, are made stale together (each once, however often named).
  const reported = new Set<number>();
  let gathering: ReturnType<typeof setTimeout> | undefined;
  const invalidateAround = (ids: readonly number[], root: number | null): void => {
    for (const id of ids) reported.add(id);
    if (root !== null) reported.add(root);
    gathering ??= setTimeout(() => {
      gathering = undefined;
      const now = [...reported];
      reported.clear();
      for (const id of now) invalidate(workRequestKeys.detail(scope(), id));
      for (const key of treesOf(queryClient, scope(), now)) invalidate(key);
    }, REPORTS_GATHER_MS);
  };
  const catchUp = (): void => {
    void catchUpLists(queryClient, bridge, scope()).catch(() => undefined);
  };
  return [
    () => {
      clearTimeout(gathering);
    },
    bridge.on('session.changed', (info) => {
      // The session names the server now active: server data is scoped by it from here on.
      queryClient.setQueryData(serverQueries.active.key, info.server);
      queryClient.setQueryData(sessionQueries.whoami.key, info);
      invalidate(SESSION);
      invalidate(SERVERS);
      invalidate(workRequestKeys.all(scope()));
    }),
    bridge.on('servers.changed', () => {
      invalidate(SERVERS);
      invalidate(SESSION);
    }),
    bridge.on('connection.state', (state) => {
      const before = queryClient.getQueryData<ConnectionState>(sessionQueries.connection.key);
      queryClient.setQueryData(sessionQueries.connection.key, state);
      // Completions while the websocket was not connected are not announced: on
      // (re)connection, the lists on screen read their unfinished rows again.
      if (liveRows.listening && state.status === 'connected' && before?.status !== 'connected') {
        catchUp();
      }
    }),
    bridge.on('watch.changed', () => {
      invalidate(workRequestKeys.watch(scope()));
      // What of the user's cannot start is of the work watched.
      invalidate(queueQueries.stuck(scope()).key);
    }),
    bridge.on('workRequest.completed', (event) => {
      invalidateAround([event.workRequestId], event.workflowRoot);
      invalidateListsExceptPaged();
      invalidate(workRequestKeys.watch(scope()));
      if (liveRows.listening) liveRows.refresh(queryClient, bridge, scope(), event.workRequestId);
    }),
    bridge.on('workRequests.changed', (event) => {
      // Main names the root with the step (the router's `changed`), or the work request
      // acted on alone: a tree that shows it is found by it.
      invalidateAround(event.ids, null);
      invalidateListsExceptPaged();
      // Main learns the user's id from the first work request started here ("mine").
      const me = queryClient.getQueryData<SessionInfo>(sessionQueries.whoami.key);
      if (me?.authenticated && me.userId === null) invalidate(sessionQueries.whoami.key);
      if (liveRows.listening) {
        for (const id of event.ids.slice(0, 50)) liveRows.refresh(queryClient, bridge, scope(), id);
      }
    }),
    // Progress arrives many times a second: it updates the cached list in place.
    bridge.on('upload.progress', (event) => {
      const job: UploadJob = { ...event };
      delete (job as Partial<typeof event>).file;
      updateJob(queryClient, job);
    }),
    bridge.on('upload.finished', (job) => {
      updateJob(queryClient, job);
      invalidate(uploadQueries.jobs.key);
    }),
    // Main's downloads, as they progress and end: the pages that started them read them here.
    bridge.on('download.progress', (job) => {
      putDownloadJob(queryClient, job);
    }),
    bridge.on('download.finished', (job) => {
      putDownloadJob(queryClient, job);
    }),
    bridge.on('notification.shown', (record) => {
      invalidate(workRequestKeys.notifications(scope()));
      // A step started waiting for the user: main found it by reading, with no message
      // from the server, and the inbox and its workflow's tree have yet to show it.
      if (record.result === NEEDS_INPUT) {
        invalidate(workRequestKeys.list(scope(), { view: 'needs-me' }));
        invalidateAround([record.workRequestId], record.rootId);
      }
    }),
    bridge.on('enroll.finished', (event) => {
      // A confirmed enrollment signed in: what was read may now read differently.
      if (event.outcome === 'confirm') invalidate(EVERYTHING);
    }),
  ];
}

/**
 * A reaction of the interface to one of main's events (a page to open, a notification to
 * show, an enrollment that ended): what it changes is the window's, not data, which the
 * cache takes above. The newest `listener` is called; `enabled` false listens to nothing.
 */
export function useMainEvent<E extends EventChannel>(
  event: E,
  listener: EventListener<E>,
  enabled = true,
): void {
  const bridge = useBridge();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!enabled) return;
    return bridge.on(event, (payload) => {
      latest.current(payload);
    });
  }, [bridge, event, enabled]);
}

/** Removes the previous server's data from the cache whenever the active server changes. */
function forgetOtherServers(queryClient: QueryClient): () => void {
  let known = currentScope(queryClient);
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== ACTIVE_HASH) return;
    const now = currentScope(queryClient);
    if (now === undefined || now === known) return;
    const previous = known;
    known = now;
    if (previous !== undefined) {
      // After the listeners of this update: the screens move to the new keys first.
      queueMicrotask(() => {
        queryClient.removeQueries({ queryKey: [previous] });
      });
    }
  });
}
