/**
 * Work requests and workflows of the active server: the paged list, one work request, the
 * "needs me" inbox, a workflow's steps, creators' names and the watch list; and what the
 * work request page does to them. The app's own notification records and signing tool are
 * here too, since only this area shows them.
 */
import {
  focusManager,
  useInfiniteQuery,
  useQueries,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBridge } from '@renderer/bridge';
import type { WorkRequestResponse } from '@shared/contract';
import { hasEnded } from '@shared/results/end';
import { APP, PENDING, defineMutation, defineQuery, queryOptionsOf, type Scope } from './define';
import { useScope, useServerQuery } from './hooks';
import { catchUpLists, liveRows, loadedRows } from './work-request-rows';
import { firstPageArgs, workRequestKeys, type ServerFilters } from './work-request-keys';
import {
  LIVE_MAX_MS,
  readWorkflowSteps,
  stepsRefreshDelay,
  type WorkflowStepsData,
} from './workflow-steps';

export { STEP_SCAN_MAX_PAGES } from './workflow-steps';

/**
 * How often the page of a work request that has not ended reads it again: a step is
 * unblocked, starts or is aborted with no message from main. Not a workflow's: its page
 * shows its tree, whose reads bring the workflow with them (workflow-steps.ts).
 */
export function detailRefreshDelay(wr: WorkRequestResponse | undefined): number | false {
  if (!wr || hasEnded(wr.status) || wr.task_type === 'Workflow') return false;
  return LIVE_MAX_MS;
}

/** While a list is shown, how often its unfinished rows are read again, and how many. */
export const LIST_REFRESH_MS = 10_000;
export const LIST_REFRESH_ROWS = 50;

export const workRequestQueries = {
  detail: (scope: Scope, id: number) =>
    defineQuery(workRequestKeys.detail(scope, id), (bridge) => bridge.workRequests.get({ id }), {
      refetchInterval: (query) => detailRefreshDelay(query.state.data),
    }),
  needsMe: (scope: Scope) =>
    defineQuery(
      workRequestKeys.list(scope, { view: 'needs-me' }),
      (bridge) => bridge.workRequests.needsMe(),
      { refetchInterval: 60_000 },
    ),
  /**
   * A workflow's steps, by its root's id, refreshed while anything in it has not ended
   * (workflow-steps.ts). A tree shown again is read again at once: what the cache holds
   * may be from minutes ago, when the page was last open.
   */
  steps: (scope: Scope, rootId: number) =>
    defineQuery(
      workRequestKeys.steps(scope, rootId),
      (bridge, context) => readWorkflowSteps(bridge, rootId, context),
      { refetchInterval: (query) => stepsRefreshDelay(query.state.data), staleTime: 0 },
    ),
  /**
   * The address of a page of the active server's web UI (`path`, as web-paths.ts and
   * workflow-list.ts build them), as main makes it for that server; kept under its scope,
   * as the artifact and log pages' addresses are, so that another server's list never
   * finds it (and a switch of servers makes it stale, to be read again).
   */
  webPage: (scope: Scope, path: string) =>
    defineQuery([scope, 'webui', path], (bridge) => bridge.links.webui({ server: scope, path }), {
      staleTime: Infinity,
    }),
  /** Usernames for these user ids (sorted, without repeats), as far as the server names them. */
  userNames: (scope: Scope, ids: readonly number[]) =>
    defineQuery(
      [scope, 'users', 'names', ...ids],
      (bridge) => bridge.users.names({ ids: [...ids] }),
      {
        staleTime: Infinity,
      },
    ),
  watchList: (scope: Scope) =>
    defineQuery(workRequestKeys.watch(scope), (bridge) => bridge.watch.list()),
  /**
   * The notifications main showed for the active server (work request ids are per
   * server), refreshed when it shows one.
   */
  recentNotifications: (scope: Scope) =>
    defineQuery(workRequestKeys.notifications(scope), (bridge) => bridge.notifications.recent()),
  /** Whether this machine can sign (debsign): the app's, not the server's. */
  signingAvailable: defineQuery(
    [APP, 'signing', 'available'],
    (bridge) => bridge.signing.available(),
    {
      staleTime: 5 * 60_000,
    },
  ),
  /**
   * The key signing step `id` would use, chosen by main as signing chooses it (from the
   * step's .changes, on the server it is read from), with every key to sign with another;
   * read again whenever the signing step is shown (a key may have been made meanwhile).
   */
  signingKeyChoice: (scope: Scope, id: number) =>
    defineQuery(
      [scope, 'signing', 'keyChoice', id],
      (bridge) => bridge.signing.keyChoice({ workRequestId: id, serverId: scope }),
      { staleTime: 0 },
    ),
};

/** The list, newest first, one server page at a time (cursor pagination). */
export function useWorkRequestPages(filters: ServerFilters) {
  const bridge = useBridge();
  const scope = useScope();
  return useInfiniteQuery({
    // While the scope is unknown nothing is fetched, and the key is dropped once it is known.
    queryKey: workRequestKeys.pages(scope ?? PENDING, filters),
    queryFn: ({ pageParam }) =>
      bridge.workRequests.page(pageParam === null ? firstPageArgs(filters) : { cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: scope !== undefined,
    ...(scope === undefined ? { gcTime: 0 } : {}),
    // Never refetched wholesale (that re-reads every loaded page): completions patch rows
    // in place and useLiveRows catches up on new work when a list is shown again.
    staleTime: Infinity,
  });
}

/**
 * Keeps the loaded lists live while the calling list is shown: completions and changes
 * from main patch their rows in place, or bring new rows in on top (see
 * work-request-rows.ts); `onUpdated` hears of each row so refreshed. A list shown again from
 * the cache first catches up on what happened while none was listening; and every
 * LIST_REFRESH_MS while the window is visible, new work is brought in and the newest
 * LIST_REFRESH_ROWS unfinished rows are read again, for what main never reports (a step
 * unblocked, started or aborted; work others started).
 */
export function useLiveRows(onUpdated: (id: number) => void): void {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const scope = useScope();
  useEffect(() => liveRows.listen(onUpdated), [onUpdated]);
  useEffect(() => {
    if (scope === undefined || loadedRows(queryClient, scope).length === 0) return;
    void catchUpLists(queryClient, bridge, scope).catch(() => undefined);
  }, [bridge, queryClient, scope]);
  useEffect(() => {
    if (scope === undefined) return;
    let reading = false;
    const timer = setInterval(() => {
      // One read at a time, and none while the window is hidden (as react-query's intervals).
      if (reading || !focusManager.isFocused()) return;
      reading = true;
      void catchUpLists(queryClient, bridge, scope, LIST_REFRESH_ROWS)
        .catch(() => undefined)
        .finally(() => {
          reading = false;
        });
    }, LIST_REFRESH_MS);
    return () => {
      clearInterval(timer);
    };
  }, [bridge, queryClient, scope]);
}

export function useWorkRequest(id: number) {
  return useServerQuery((scope) => workRequestQueries.detail(scope, id));
}

export function useNeedsMe() {
  return useServerQuery(workRequestQueries.needsMe);
}

export function useWatchList() {
  return useServerQuery(workRequestQueries.watchList);
}

export function useWebPage(path: string, enabled: boolean) {
  return useServerQuery((scope) => workRequestQueries.webPage(scope, path), { enabled });
}

export function useWorkflowSteps(rootId: number, enabled: boolean) {
  return useServerQuery((scope) => workRequestQueries.steps(scope, rootId), { enabled });
}

/**
 * The trees of several workflows, by their roots' ids, through the same query as one tree
 * (`steps`), so that a list and an open tree share one read; each is read only while its
 * root is in `wanted` (the list's rows on screen), and what is in the cache is given for
 * the others. In the order of `rootIds`; undefined for a tree not read yet.
 *
 * A tree the list reads only to count its steps is read again no more often than the
 * list's rows are (LIST_REFRESH_MS), not at an open tree's pace: a screen of running
 * workflows would otherwise read the server every few seconds per row. An open tree
 * keeps its own pace (its own observer's interval).
 */
export function useWorkflowStepsOf(
  rootIds: readonly number[],
  wanted: ReadonlySet<number>,
): (WorkflowStepsData | undefined)[] {
  const bridge = useBridge();
  const scope = useScope();
  return useQueries({
    queries: rootIds.map((id) => ({
      ...queryOptionsOf(workRequestQueries.steps(scope ?? PENDING, id), bridge),
      enabled: scope !== undefined && wanted.has(id),
      refetchInterval: (query: { state: { data: WorkflowStepsData | undefined } }) => {
        const delay = stepsRefreshDelay(query.state.data);
        return delay === false ? false : Math.max(delay, LIST_REFRESH_MS);
      },
      ...(scope === undefined ? { gcTime: 0 } : {}),
    })),
    combine: (results) => results.map((r) => r.data),
  });
}

export function useUserNames(ids: readonly (number | null | undefined)[]) {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))].sort(
    (a, b) => a - b,
  );
  return useServerQuery((scope) => workRequestQueries.userNames(scope, wanted), {
    enabled: wanted.length > 0,
  });
}

export function useRecentNotifications() {
  return useServerQuery(workRequestQueries.recentNotifications);
}

/** What an action on a work request answers with: the work request as it is now. */
function settle(queryClient: QueryClient, scope: Scope, fresh: WorkRequestResponse): void {
  queryClient.setQueryData(workRequestKeys.detail(scope, fresh.id), fresh);
}

const lists = (scope: Scope) => [workRequestKeys.lists(scope)];

/**
 * The page of the workflow an action's work request belongs to: acting on a step may
 * change its root (an abort aborts it, a signature lets it finish), which that page shows.
 * The trees are lists: `lists` makes them stale too, and a tree shown is read at once.
 */
function rootPage(scope: Scope, wr: WorkRequestResponse): QueryKey[] {
  const root = wr.workflow_root;
  return typeof root === 'number' && root !== wr.id ? [workRequestKeys.detail(scope, root)] : [];
}

export const workRequestMutations = {
  /** Ordinary tasks are superseded by a new work request: the answer is that one. */
  retry: defineMutation({
    fn: (bridge, id: number) => bridge.workRequests.retry({ id }),
    writes: settle,
    invalidates: (scope, id, fresh) => [
      ...lists(scope),
      workRequestKeys.detail(scope, id),
      ...rootPage(scope, fresh),
    ],
  }),
  abort: defineMutation({
    fn: (bridge, id: number) => bridge.workRequests.abort({ id }),
    writes: settle,
    invalidates: (scope, _id, fresh) => [...lists(scope), ...rootPage(scope, fresh)],
  }),
  setPriority: defineMutation({
    fn: (bridge, args: { id: number; priorityAdjustment: number }) =>
      bridge.workRequests.setPriority(args),
    writes: settle,
    invalidates: lists,
  }),
  /**
   * Answers a waiting step: a confirmation (with a comment) or a manual unblock (with
   * notes), accepted or rejected.
   */
  decide: defineMutation({
    fn: (
      bridge,
      args: { id: number; kind: 'confirm' | 'unblock'; accept: boolean; notes: string },
    ) =>
      args.kind === 'confirm'
        ? bridge.workRequests.confirm({
            id: args.id,
            confirm: args.accept,
            ...(args.notes ? { comment: args.notes } : {}),
          })
        : bridge.workRequests.unblock({
            id: args.id,
            action: args.accept ? 'accept' : 'reject',
            ...(args.notes ? { notes: args.notes } : {}),
          }),
    writes: settle,
    invalidates: (scope, _args, fresh) => [...lists(scope), ...rootPage(scope, fresh)],
  }),
  /**
   * Signs the upload a waiting step names with the local key, and completes the step, on
   * the server the step was read from; `key`: the fingerprint the user chose, if any, else
   * `expected`: the one the page showed as debsign's.
   */
  sign: defineMutation({
    fn: (
      bridge,
      args: {
        workRequestId: number;
        serverId: string;
        key?: string | undefined;
        expected?: string | undefined;
        /** The digest of the review the page showed (and the user confirmed, where asked). */
        reviewed?: string | undefined;
      },
    ) =>
      bridge.signing.signAndComplete({
        workRequestId: args.workRequestId,
        serverId: args.serverId,
        ...(args.reviewed === undefined ? {} : { reviewed: args.reviewed }),
        ...(args.key === undefined ? {} : { key: args.key }),
        ...(args.expected === undefined ? {} : { expected: args.expected }),
      }),
    writes: (queryClient, scope, result, args) => {
      // The answer is the step of the server it was signed on, which may no longer be active.
      if (result.status === 'signed' && args.serverId === scope) {
        settle(queryClient, scope, result.workRequest);
      }
    },
    invalidates: (scope, args, result) => [
      ...lists(scope),
      ...(result.status === 'signed' && args.serverId === scope
        ? rootPage(scope, result.workRequest)
        : []),
    ],
  }),
  watch: defineMutation({
    fn: async (bridge, args: { id: number; watched: boolean; label: string }) => {
      if (args.watched) await bridge.watch.remove({ workRequestId: args.id });
      else await bridge.watch.add({ workRequestId: args.id, label: args.label });
    },
    invalidates: (scope) => [workRequestKeys.watch(scope)],
  }),
  /**
   * Opens a page of the server's web UI: in the system browser on the desktop; in a new tab
   * in a browser, where the app already is (the web host's bridge opens it there).
   */
  openWebPage: defineMutation({
    fn: async (bridge, page: { server: Scope; path: string }) => {
      await bridge.app.openExternal({ url: await bridge.links.webui(page) });
    },
  }),
};
