import {
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ConnectionState, WorkRequestPage, WorkRequestResponse } from '@shared/contract';
import { useBridge } from '@renderer/bridge';
import { keys } from '@renderer/queries/keys';

/** The server-side part of the list's filters: what `workRequests.page` takes. */
export interface ServerFilters {
  status?: string;
  taskType?: string;
  rootOnly?: boolean;
}

type Pages = InfiniteData<WorkRequestPage, string | null>;

function pageKey(filters: ServerFilters): readonly unknown[] {
  return keys.workRequests.list({ view: 'pages', ...filters });
}

/** The list, newest first, one server page at a time (cursor pagination). */
export function useWorkRequestPages(filters: ServerFilters) {
  const bridge = useBridge();
  return useInfiniteQuery({
    queryKey: pageKey(filters),
    queryFn: ({ pageParam }) =>
      bridge.workRequests.page(
        pageParam === null
          ? {
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.taskType ? { taskType: filters.taskType } : {}),
              ...(filters.rootOnly ? { rootOnly: true } : {}),
            }
          : { cursor: pageParam },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Never refetched wholesale (that re-reads every loaded page): completions patch rows
    // in place and useLiveRows catches up on new work when a list is shown again.
    staleTime: Infinity,
  });
}

type ListData = Pages | WorkRequestResponse[] | { steps: WorkRequestResponse[]; complete: boolean };

function swap(list: WorkRequestResponse[], fresh: WorkRequestResponse): WorkRequestResponse[] {
  return list.map((wr) => (wr.id === fresh.id ? fresh : wr));
}

function holds(list: WorkRequestResponse[], id: number): boolean {
  return list.some((wr) => wr.id === id);
}

/** Replaces a work request wherever a loaded list holds it (structural update). */
function patchLists(queryClient: QueryClient, fresh: WorkRequestResponse): void {
  queryClient.setQueriesData<ListData>({ queryKey: keys.workRequests.lists() }, (data) => {
    if (!data) return data;
    if (Array.isArray(data)) return holds(data, fresh.id) ? swap(data, fresh) : data;
    if ('steps' in data) {
      return holds(data.steps, fresh.id) ? { ...data, steps: swap(data.steps, fresh) } : data;
    }
    if (!data.pages.some((page) => holds(page.items, fresh.id))) return data;
    return {
      ...data,
      pages: data.pages.map((page) =>
        holds(page.items, fresh.id) ? { ...page, items: swap(page.items, fresh) } : page,
      ),
    };
  });
  queryClient.setQueryData(keys.workRequests.detail(fresh.id), fresh);
}

/** Every row the paged lists hold. */
function loadedRows(queryClient: QueryClient): WorkRequestResponse[] {
  return queryClient
    .getQueriesData<ListData>({ queryKey: keys.workRequests.lists() })
    .flatMap(([, data]) => {
      if (!data || Array.isArray(data) || 'steps' in data) return [];
      return data.pages.flatMap((page) => page.items);
    });
}

/** Whether any loaded list holds the work request. */
function known(queryClient: QueryClient, id: number): boolean {
  return queryClient
    .getQueriesData<ListData>({ queryKey: keys.workRequests.lists() })
    .some(([, data]) => {
      if (!data) return false;
      if (Array.isArray(data)) return holds(data, id);
      if ('steps' in data) return holds(data.steps, id);
      return data.pages.some((page) => holds(page.items, id));
    });
}

/**
 * Work the list has not seen yet (started elsewhere since it loaded): the first page is read
 * again and its new rows are put on top of each paged list, leaving the rest as it is.
 */
async function mergeHead(
  queryClient: QueryClient,
  bridge: ReturnType<typeof useBridge>,
): Promise<void> {
  const lists = queryClient.getQueriesData<Pages>({
    queryKey: keys.workRequests.list({ view: 'pages' }).slice(0, 2),
  });
  for (const [key, data] of lists) {
    const filters = key[2] as (ServerFilters & { view?: string }) | undefined;
    if (!data || !('pages' in data) || filters?.view !== 'pages') continue;
    const first = await bridge.workRequests.page({
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.taskType ? { taskType: filters.taskType } : {}),
      ...(filters.rootOnly ? { rootOnly: true } : {}),
    });
    const old = queryClient.getQueryData<Pages>(key);
    if (!old?.pages[0]) continue;
    const have = new Set(old.pages.flatMap((p) => p.items.map((wr) => wr.id)));
    if (have.size > 0 && first.nextCursor !== null && !first.items.some((wr) => have.has(wr.id))) {
      // More new work than one page: what lies between is unknown, so the list starts
      // again from the newest rather than show a gap.
      await queryClient.resetQueries({ queryKey: key, exact: true });
      continue;
    }
    queryClient.setQueryData<Pages>(key, (current) => {
      if (!current?.pages[0]) return current;
      const known = new Set(current.pages.flatMap((p) => p.items.map((wr) => wr.id)));
      // New rows are those above the first one the list has, in the server's order
      // (newest created first; two created at once may not be in id order).
      const firstKnown = first.items.findIndex((wr) => known.has(wr.id));
      const fresh = first.items.slice(0, firstKnown === -1 ? undefined : firstKnown);
      if (fresh.length === 0) return current;
      const [head, ...rest] = current.pages;
      return {
        ...current,
        pages: [
          {
            ...head,
            items: [...fresh, ...head.items],
            creators: { ...head.creators, ...first.creators },
          },
          ...rest,
        ],
      };
    });
  }
}

/** Rows and pages that may have changed while no list was listening. */
async function catchUpLists(
  queryClient: QueryClient,
  bridge: ReturnType<typeof useBridge>,
): Promise<void> {
  await mergeHead(queryClient, bridge);
  const active = loadedRows(queryClient)
    .filter((wr) => wr.status === 'pending' || wr.status === 'running' || wr.status === 'blocked')
    .map((wr) => wr.id);
  const ids = [...new Set(active)].slice(0, 500);
  if (ids.length === 0) return;
  const page = await bridge.workRequests.page({ ids });
  for (const fresh of page.items) patchLists(queryClient, fresh);
}

/**
 * Completions from the websocket update the rows they concern in place: the one work
 * request is fetched again and swapped into every loaded page, without reloading the list;
 * one the lists have not seen yet brings the newest rows in on top.
 */
export function useLiveRows(onUpdated?: (id: number) => void): void {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  useEffect(() => {
    const refresh = (id: number): void => {
      if (!known(queryClient, id)) {
        void mergeHead(queryClient, bridge).then(
          () => onUpdated?.(id),
          () => undefined,
        );
        return;
      }
      void bridge.workRequests.get({ id }).then(
        (fresh) => {
          patchLists(queryClient, fresh);
          onUpdated?.(id);
        },
        () => undefined,
      );
    };
    // Completions while the websocket was not connected (the list loaded before it, or it
    // dropped) are not announced: on (re)connection, unfinished rows are read again.
    let connected = queryClient.getQueryData<ConnectionState>(keys.connection.state())?.status;
    const catchUp = (): Promise<void> => catchUpLists(queryClient, bridge);
    // Nor are those that came while no list was on screen (the user was on a work
    // request's page): a list shown again from the cache catches up first.
    if (loadedRows(queryClient).length > 0) void catchUp().catch(() => undefined);
    const offs = [
      bridge.on('connection.state', (state) => {
        if (state.status === 'connected' && connected !== 'connected') {
          void catchUp().catch(() => undefined);
        }
        connected = state.status;
      }),
      bridge.on('workRequest.completed', (event) => {
        refresh(event.workRequestId);
      }),
      bridge.on('workRequests.changed', (event) => {
        for (const id of event.ids.slice(0, 50)) refresh(id);
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [bridge, queryClient, onUpdated]);
}

/** Usernames for these user ids (creators), as far as the server names them. */
export function useUserNames(ids: readonly (number | null | undefined)[]) {
  const bridge = useBridge();
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))].sort(
    (a, b) => a - b,
  );
  return useQuery({
    queryKey: keys.users.names(wanted),
    queryFn: () => bridge.users.names({ ids: wanted }),
    enabled: wanted.length > 0,
    staleTime: Infinity,
  });
}

export function useWorkRequest(id: number) {
  const bridge = useBridge();
  return useQuery({
    queryKey: keys.workRequests.detail(id),
    queryFn: () => bridge.workRequests.get({ id }),
  });
}

export function useNeedsMe() {
  const bridge = useBridge();
  return useQuery({
    queryKey: keys.workRequests.list({ view: 'needs-me' }),
    queryFn: () => bridge.workRequests.needsMe(),
    refetchInterval: 60_000,
  });
}

export function useWatchList() {
  const bridge = useBridge();
  return useQuery({ queryKey: keys.watch.list(), queryFn: () => bridge.watch.list() });
}

const RECENT_KEY = keys.notifications.recent();

/** The notifications main showed; refreshed when it shows one. */
export function useRecentNotifications() {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      bridge.on('notification.shown', () => {
        void queryClient.invalidateQueries({ queryKey: RECENT_KEY });
      }),
    [bridge, queryClient],
  );
  return useQuery({ queryKey: RECENT_KEY, queryFn: () => bridge.notifications.recent() });
}

/**
 * A workflow's steps. The list endpoint has no parent filter, and steps are created after
 * their root, so the newest-first list is read until it passes the root's id; rows whose
 * `workflow_root` is the root are its steps. Capped, so that an old workflow on a busy
 * server cannot make it read everything.
 */
export const STEP_SCAN_MAX_PAGES = 40;

export function useWorkflowSteps(rootId: number, enabled: boolean) {
  const bridge = useBridge();
  return useQuery({
    queryKey: keys.workRequests.list({ view: 'steps', rootId }),
    enabled,
    queryFn: async () => {
      const steps: WorkRequestResponse[] = [];
      let cursor: string | null = null;
      for (let n = 0; n < STEP_SCAN_MAX_PAGES; n++) {
        const page: WorkRequestPage = await bridge.workRequests.page(
          cursor === null ? {} : { cursor },
        );
        // A root's own workflow_root is itself on current servers.
        for (const wr of page.items) {
          if (wr.workflow_root === rootId && wr.id !== rootId) steps.push(wr);
        }
        const last = page.items.at(-1);
        cursor = page.nextCursor;
        if (!cursor || !last || last.id < rootId) return { steps, complete: true };
      }
      return { steps, complete: false };
    },
  });
}
