/**
 * The loaded work request lists, kept live without reloading them: a work request main
 * reports as completed or changed is read again and swapped into every list that holds
 * it; one no list holds yet brings the newest rows in on top. A paged list is never
 * refetched wholesale, since that re-reads every loaded page (a thousand requests at
 * 10,000 rows).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { BridgeClient, WorkRequestPage, WorkRequestResponse } from '@shared/contract';
import { isActive } from '@shared/results/end';
import type { Scope } from './define';
import {
  firstPageArgs,
  workRequestKeys,
  type Pages,
  type ServerFilters,
} from './work-request-keys';

type ListData = Pages | WorkRequestResponse[] | { steps: WorkRequestResponse[]; complete: boolean };

function swap(list: WorkRequestResponse[], fresh: WorkRequestResponse): WorkRequestResponse[] {
  return list.map((wr) => (wr.id === fresh.id ? fresh : wr));
}

function holds(list: WorkRequestResponse[], id: number): boolean {
  return list.some((wr) => wr.id === id);
}

/** Replaces a work request wherever a loaded list holds it (structural update). */
export function patchLists(
  queryClient: QueryClient,
  scope: Scope,
  fresh: WorkRequestResponse,
): void {
  queryClient.setQueriesData<ListData>({ queryKey: workRequestKeys.lists(scope) }, (data) => {
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
  queryClient.setQueryData(workRequestKeys.detail(scope, fresh.id), fresh);
}

/** Every row the paged lists hold. */
export function loadedRows(queryClient: QueryClient, scope: Scope): WorkRequestResponse[] {
  return queryClient
    .getQueriesData<ListData>({ queryKey: workRequestKeys.lists(scope) })
    .flatMap(([, data]) => {
      if (!data || Array.isArray(data) || 'steps' in data) return [];
      return data.pages.flatMap((page) => page.items);
    });
}

/** Whether any loaded list holds the work request. */
function known(queryClient: QueryClient, scope: Scope, id: number): boolean {
  return queryClient
    .getQueriesData<ListData>({ queryKey: workRequestKeys.lists(scope) })
    .some(([, data]) => {
      if (!data) return false;
      if (Array.isArray(data)) return holds(data, id);
      if ('steps' in data) return holds(data.steps, id);
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

/**
 * Rows and pages that may have changed while no list was listening: new work on top, and
 * the unfinished rows read again (completions are not announced while the websocket is
 * down, nor heard while no list is shown).
 */
export async function catchUpLists(
  queryClient: QueryClient,
  bridge: BridgeClient,
  scope: Scope,
): Promise<void> {
  await mergeHead(queryClient, bridge, scope);
  const active = loadedRows(queryClient, scope)
    .filter((wr) => isActive(wr.status))
    .map((wr) => wr.id);
  const ids = [...new Set(active)].slice(0, 500);
  if (ids.length === 0) return;
  // The server answers a few rows a page: every page of the ids is read, not the first only.
  let page: WorkRequestPage = await bridge.workRequests.page({ ids });
  for (;;) {
    for (const fresh of page.items) patchLists(queryClient, scope, fresh);
    if (page.nextCursor === null) return;
    page = await bridge.workRequests.page({ cursor: page.nextCursor });
  }
}

const listeners = new Set<(id: number) => void>();

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
      void mergeHead(queryClient, bridge, scope).then(told, () => undefined);
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
