/**
 * The loaded work request lists, kept live without reloading them: a work request main
 * reports as completed or changed is read again and swapped into every list that holds
 * it; one no list holds yet brings the newest rows in on top; and while a list is shown,
 * its unfinished rows are read again now and then (a step that is unblocked, starts or is
 * aborted sends no message). A paged list is never refetched wholesale, since that
 * re-reads every loaded page (a thousand requests at 10,000 rows).
 *
 * A workflow's tree is not one of these lists: it reads itself, root and steps together
 * (workflow-steps.ts), and a row swapped in from elsewhere could be older than its own
 * read. Only the lists that hold a row are written: writing a list marks it as just read
 * and no longer stale, and a tree so marked while its page was closed was shown again
 * from the cache, as it was minutes before, instead of being read.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { BridgeClient, WorkRequestPage, WorkRequestResponse } from '@shared/contract';
import { isActive } from '@shared/results/end';
import type { Scope } from './define';
import {
  firstPageArgs,
  workRequestKeys,
  type Pages,
  type ServerFilters,
} from './work-request-keys';

type ListData = Pages | WorkRequestResponse[];

/** What the server's list answers a page: ten work requests. */
const PAGE_SIZE = 10;

/** Whether `fresh` says anything `known` does not (the server sends the same row the same). */
function differs(known: WorkRequestResponse, fresh: WorkRequestResponse): boolean {
  return JSON.stringify(known) !== JSON.stringify(fresh);
}

/** Whether `list` holds `fresh`'s work request in another state. */
function outdated(list: readonly WorkRequestResponse[], fresh: WorkRequestResponse): boolean {
  return list.some((wr) => wr.id === fresh.id && differs(wr, fresh));
}

function swap(list: WorkRequestResponse[], fresh: WorkRequestResponse): WorkRequestResponse[] {
  return list.map((wr) => (wr.id === fresh.id ? fresh : wr));
}

function holds(list: readonly WorkRequestResponse[], id: number): boolean {
  return list.some((wr) => wr.id === id);
}

/** The loaded lists of work requests (paged, or whole like "needs me"): not the trees. */
function listsOf(queryClient: QueryClient, scope: Scope): [QueryKey, ListData | undefined][] {
  return queryClient
    .getQueriesData<ListData>({ queryKey: workRequestKeys.lists(scope) })
    .filter(([key]) => workRequestKeys.treeRoot(key) === null);
}

/** Replaces a work request in the loaded lists that hold it in another state, and nowhere else. */
function patchHolders(queryClient: QueryClient, scope: Scope, fresh: WorkRequestResponse): void {
  for (const [key, data] of listsOf(queryClient, scope)) {
    if (!data) continue;
    if (Array.isArray(data)) {
      if (outdated(data, fresh)) queryClient.setQueryData<ListData>(key, swap(data, fresh));
      continue;
    }
    if (!data.pages.some((page) => outdated(page.items, fresh))) continue;
    queryClient.setQueryData<Pages>(key, {
      ...data,
      pages: data.pages.map((page) =>
        holds(page.items, fresh.id) ? { ...page, items: swap(page.items, fresh) } : page,
      ),
    });
  }
}

/**
 * Replaces a work request wherever a loaded list holds it (structural update), and gives
 * its page what was read.
 */
export function patchLists(
  queryClient: QueryClient,
  scope: Scope,
  fresh: WorkRequestResponse,
): void {
  patchHolders(queryClient, scope, fresh);
  const key = workRequestKeys.detail(scope, fresh.id);
  const known = queryClient.getQueryData<WorkRequestResponse>(key);
  if (!known || differs(known, fresh)) queryClient.setQueryData(key, fresh);
}

/**
 * Gives what a workflow's tree read to the lists that hold these work requests and to the
 * pages open on them, where it differs, as a completion would (the Workflows tab's row of
 * an open tree then shows its root as the tree does, and a workflow's page its head).
 */
export function shareRows(
  queryClient: QueryClient,
  scope: Scope,
  read: readonly WorkRequestResponse[],
): void {
  for (const fresh of read) {
    patchHolders(queryClient, scope, fresh);
    const key = workRequestKeys.detail(scope, fresh.id);
    const known = queryClient.getQueryData<WorkRequestResponse>(key);
    if (known && differs(known, fresh)) queryClient.setQueryData(key, fresh);
  }
}

/**
 * These work requests, by id, every page of the answer, up to `maxPages` pages. The list
 * filters by ids on current servers (one page per ten ids); earlier ones ignore the filter,
 * and main then filters each page of the whole list, so the read stops as soon as every id
 * was found, and after `maxPages` pages in any case (an id the server no longer has would
 * otherwise make it read the whole list).
 */
export async function readByIds(
  bridge: BridgeClient,
  ids: readonly number[],
  maxPages: number,
  signal?: AbortSignal,
): Promise<WorkRequestResponse[]> {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  const out: WorkRequestResponse[] = [];
  let page: WorkRequestPage = await bridge.workRequests.page({ ids: [...ids] });
  for (let n = 1; ; n++) {
    for (const wr of page.items) {
      if (wanted.delete(wr.id)) out.push(wr);
    }
    if (page.nextCursor === null || wanted.size === 0 || n >= maxPages) return out;
    signal?.throwIfAborted();
    page = await bridge.workRequests.page({ cursor: page.nextCursor });
  }
}

/** Every row the paged lists hold. */
export function loadedRows(queryClient: QueryClient, scope: Scope): WorkRequestResponse[] {
  return listsOf(queryClient, scope).flatMap(([, data]) => {
    if (!data || Array.isArray(data)) return [];
    return data.pages.flatMap((page) => page.items);
  });
}

/** The most pages any paged list has loaded. */
function pagesLoaded(queryClient: QueryClient, scope: Scope): number {
  let most = 0;
  for (const [, data] of listsOf(queryClient, scope)) {
    if (data && !Array.isArray(data)) most = Math.max(most, data.pages.length);
  }
  return most;
}

/** Whether any loaded list holds the work request (a tree reads its own). */
function known(queryClient: QueryClient, scope: Scope, id: number): boolean {
  return listsOf(queryClient, scope).some(([, data]) => {
    if (!data) return false;
    if (Array.isArray(data)) return holds(data, id);
    return data.pages.some((page) => holds(page.items, id));
  });
}

/**
 * Work the lists have not seen yet (started elsewhere since they loaded): the first page of
 * each paged list is read again and its new rows are put on top, leaving the rest as it is.
 * When more is new than one page holds, what lies between is unknown: that list starts
 * again from the newest rather than show a gap.
 */
export async function mergeHead(
  queryClient: QueryClient,
  bridge: BridgeClient,
  scope: Scope,
): Promise<void> {
  const lists = queryClient.getQueriesData<Pages>({ queryKey: workRequestKeys.lists(scope) });
  for (const [key, data] of lists) {
    if (!data || !('pages' in data) || !workRequestKeys.isPagedList(key)) continue;
    const filters = key[3] as ServerFilters;
    const first = await bridge.workRequests.page(firstPageArgs(filters));
    const old = queryClient.getQueryData<Pages>(key);
    if (!old?.pages[0]) continue;
    const have = new Set(old.pages.flatMap((p) => p.items.map((wr) => wr.id)));
    if (have.size > 0 && first.nextCursor !== null && !first.items.some((wr) => have.has(wr.id))) {
      await queryClient.resetQueries({ queryKey: key, exact: true });
      continue;
    }
    queryClient.setQueryData<Pages>(key, (current) => {
      if (!current?.pages[0]) return current;
      const seen = new Set(current.pages.flatMap((p) => p.items.map((wr) => wr.id)));
      // New rows are those above the first one the list has, in the server's order
      // (newest created first; two created at once may not be in id order).
      const firstKnown = first.items.findIndex((wr) => seen.has(wr.id));
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

/** Unfinished rows a catch-up reads again, at most (newest first): fifty list pages. */
export const CATCH_UP_MAX = 500;

/**
 * Rows and pages that may have changed while no list was listening: new work on top, and
 * the unfinished rows read again, the newest `limit` of them (completions are not
 * announced while the websocket is down, nor heard while no list is shown, and a step that
 * is unblocked, starts or is aborted is never announced).
 */
export async function catchUpLists(
  queryClient: QueryClient,
  bridge: BridgeClient,
  scope: Scope,
  limit = CATCH_UP_MAX,
): Promise<void> {
  await mergeHead(queryClient, bridge, scope);
  const active = loadedRows(queryClient, scope)
    .filter((wr) => isActive(wr.status))
    .map((wr) => wr.id);
  const ids = [...new Set(active)].slice(0, limit);
  if (ids.length === 0) return;
  // On earlier servers the rows are among the loaded pages (main filters each page).
  const maxPages = Math.max(Math.ceil(ids.length / PAGE_SIZE), pagesLoaded(queryClient, scope)) + 1;
  for (const fresh of await readByIds(bridge, ids, maxPages)) {
    patchLists(queryClient, scope, fresh);
  }
}

const listeners = new Set<(id: number) => void>();

/** The read of new work on top under way, and whether it is wanted once more after it. */
let merging: Promise<void> | undefined;
let mergeAgain = false;
/** A function, not the variable read in the loop: it is set while a read awaits the server. */
const askedAgain = (): boolean => mergeAgain;

/**
 * Reads new work on top (mergeHead), one read at a time: on a busy server completions of
 * work no list holds come every few seconds, each asking for it. Asked while a read is
 * under way, it reads once more when that one ends, however many times it was asked.
 */
function mergeSoon(queryClient: QueryClient, bridge: BridgeClient, scope: Scope): Promise<void> {
  if (merging) {
    mergeAgain = true;
    return merging;
  }
  merging = (async () => {
    do {
      mergeAgain = false;
      await mergeHead(queryClient, bridge, scope).catch(() => undefined);
    } while (askedAgain());
  })().finally(() => {
    merging = undefined;
  });
  return merging;
}

/**
 * The lists that want to stay live (the list on screen registers itself), and what main's
 * events do to them while one does (events.ts calls these).
 */
export const liveRows = {
  /** Registers a list on screen; `onUpdated` hears of each row refreshed. Returns the undo. */
  listen(onUpdated: (id: number) => void): () => void {
    listeners.add(onUpdated);
    return () => {
      listeners.delete(onUpdated);
    };
  },
  get listening(): boolean {
    return listeners.size > 0;
  },
  /** Reads one work request again into the lists, or brings new work in on top. */
  refresh(queryClient: QueryClient, bridge: BridgeClient, scope: Scope, id: number): void {
    const told = (): void => {
      for (const listener of listeners) listener(id);
    };
    if (!known(queryClient, scope, id)) {
      void mergeSoon(queryClient, bridge, scope).then(told);
      return;
    }
    void bridge.workRequests.get({ id }).then(
      (fresh) => {
        patchLists(queryClient, scope, fresh);
        told();
      },
      () => undefined,
    );
  },
};
