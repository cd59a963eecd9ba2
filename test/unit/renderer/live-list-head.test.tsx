// @vitest-environment happy-dom
/**
 * The live list keeps its loaded pages: work it has not seen yet is read from the first
 * page and put on top (in the server's order), a gap wider than a page starts the list
 * again, and a completion is swapped into every list that holds the row, while a list is
 * on screen.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { useMainEvents } from '@renderer/queries/events';
import { serverQueries } from '@renderer/queries/servers';
import { useLiveRows } from '@renderer/queries/work-requests';
import { workRequestKeys, type Pages } from '@renderer/queries/work-request-keys';
import { liveRows, mergeHead, patchLists, readByIds } from '@renderer/queries/work-request-rows';
import type { WorkRequestPage, WorkRequestResponse } from '@shared/contract';
import { fakeBridge, type FakeBridge } from './support/fake-bridge';
import { workRequestFixture } from '../../support/work-requests';

const SCOPE = 'server-a';

function wr(id: number, status = 'running'): WorkRequestResponse {
  return workRequestFixture(id, { status, result: '' });
}

function page(ids: number[], nextCursor: string | null, creators = {}): WorkRequestPage {
  return { items: ids.map((id) => wr(id)), nextCursor, creators };
}

/** A cache with one paged list (first page `ids`); the server's first page is `head`. */
function setUp(ids: number[], head: WorkRequestPage, filters = {}) {
  const queryClient = new QueryClient();
  const key = workRequestKeys.pages(SCOPE, filters);
  queryClient.setQueryData<Pages>(key, {
    pages: [page(ids, 'older', { '1': 'alice' })],
    pageParams: [null],
  });
  const fake = fakeBridge({ 'workRequests.page': () => head });
  const loaded = (): number[] | undefined =>
    queryClient.getQueryData<Pages>(key)?.pages.flatMap((p) => p.items.map((w) => w.id));
  return { queryClient, key, fake, ids: loaded };
}

describe('the live list: new work on top', () => {
  it('puts the rows above the first one it has on top, and keeps the rest', async () => {
    const { queryClient, key, fake, ids } = setUp(
      [10, 9],
      page([12, 11, 10, 9], 'c', { '2': 'bob' }),
    );
    await mergeHead(queryClient, fake.client, SCOPE);
    expect(ids()).toEqual([12, 11, 10, 9]);
    // The new rows' creators join the first page's.
    expect(queryClient.getQueryData<Pages>(key)?.pages[0]?.creators).toEqual({
      '1': 'alice',
      '2': 'bob',
    });
  });

  it("keeps the server's order of new rows (two created at once may not be in id order)", async () => {
    const { queryClient, fake, ids } = setUp([10], page([11, 13, 12, 10], 'c'));
    await mergeHead(queryClient, fake.client, SCOPE);
    expect(ids()).toEqual([11, 13, 12, 10]);
  });

  it('changes nothing when nothing is new', async () => {
    const { queryClient, key, fake } = setUp([10, 9], page([10, 9], 'c'));
    const before = queryClient.getQueryData<Pages>(key);
    await mergeHead(queryClient, fake.client, SCOPE);
    expect(queryClient.getQueryData<Pages>(key)).toBe(before);
  });

  it('starts again from the newest when more is new than one page holds', async () => {
    // None of the first page's rows is known, and there is more after it: a gap.
    const { queryClient, fake, ids } = setUp([10, 9], page([30, 29, 28], 'c'));
    await mergeHead(queryClient, fake.client, SCOPE);
    expect(ids()).toBeUndefined();
  });

  it('takes a whole first page of new rows when the server has nothing after it', async () => {
    const { queryClient, fake, ids } = setUp([10, 9], page([12, 11], null));
    await mergeHead(queryClient, fake.client, SCOPE);
    expect(ids()).toEqual([12, 11, 10, 9]);
  });

  it('fills an empty list without starting it again', async () => {
    const { queryClient, fake, ids } = setUp([], page([2, 1], 'c'));
    await mergeHead(queryClient, fake.client, SCOPE);
    expect(ids()).toEqual([2, 1]);
  });

  it("reads each list's first page with that list's filters", async () => {
    const { queryClient, fake } = setUp([10], page([10], 'c'), {
      status: 'running',
      rootOnly: true,
    });
    await mergeHead(queryClient, fake.client, SCOPE);
    expect(fake.calls).toEqual([
      { channel: 'workRequests.page', args: { status: 'running', rootOnly: true } },
    ]);
  });

  it("leaves other servers' lists, and lists that are not paged, alone", async () => {
    const { queryClient, fake } = setUp([10], page([11, 10], 'c'));
    const other = workRequestKeys.pages('server-b', {});
    const otherData: Pages = { pages: [page([5], null)], pageParams: [null] };
    queryClient.setQueryData(other, otherData);
    const needsMe = workRequestKeys.list(SCOPE, { view: 'needs-me' });
    queryClient.setQueryData(needsMe, [wr(4)]);
    await mergeHead(queryClient, fake.client, SCOPE);
    expect(fake.calls).toHaveLength(1);
    expect(queryClient.getQueryData(other)).toBe(otherData);
    expect(queryClient.getQueryData<WorkRequestResponse[]>(needsMe)?.map((w) => w.id)).toEqual([4]);
  });
});

describe('the live list: a row that changed', () => {
  it('is swapped into every list that holds it, and into its page', () => {
    const { queryClient, key } = setUp([10, 9], page([], null));
    const needsMe = workRequestKeys.list(SCOPE, { view: 'needs-me' });
    queryClient.setQueryData(needsMe, [wr(9)]);
    patchLists(queryClient, SCOPE, wr(9, 'completed'));
    const rows = queryClient.getQueryData<Pages>(key)?.pages[0]?.items;
    expect(rows?.map((w) => [w.id, w.status])).toEqual([
      [10, 'running'],
      [9, 'completed'],
    ]);
    expect(queryClient.getQueryData<WorkRequestResponse[]>(needsMe)?.[0]?.status).toBe('completed');
    expect(
      queryClient.getQueryData<WorkRequestResponse>(workRequestKeys.detail(SCOPE, 9))?.status,
    ).toBe('completed');
  });

  it("leaves alone the lists that do not hold it, and every workflow's tree", async () => {
    const { queryClient, key } = setUp([10, 9], page([], null));
    const needsMe = workRequestKeys.list(SCOPE, { view: 'needs-me' });
    queryClient.setQueryData(needsMe, [wr(4)]);
    // A tree read while its page was open, made stale since by a completion in it.
    const tree = workRequestKeys.steps(SCOPE, 50);
    queryClient.setQueryData(tree, { root: wr(50), steps: [wr(9)], complete: true, newest: null });
    await queryClient.invalidateQueries({ queryKey: tree, refetchType: 'none' });
    const stateOf = (k: readonly unknown[]) => {
      const state = queryClient.getQueryState(k);
      return [state?.data, state?.dataUpdatedAt, state?.isInvalidated];
    };
    const before = [stateOf(key), stateOf(needsMe), stateOf(tree)];
    // Writing a list marks it as just read: a tree so marked was shown from the cache,
    // minutes old, instead of being read when its page opened again.
    patchLists(queryClient, SCOPE, wr(8, 'completed'));
    patchLists(queryClient, SCOPE, wr(9, 'running'));
    expect([stateOf(key), stateOf(needsMe), stateOf(tree)]).toEqual(before);
    // It was in that state already: not even its page is written again.
    const detail = workRequestKeys.detail(SCOPE, 9);
    patchLists(queryClient, SCOPE, wr(9, 'completed'));
    const written = queryClient.getQueryState(detail)?.dataUpdateCount;
    patchLists(queryClient, SCOPE, wr(9, 'completed'));
    expect(queryClient.getQueryState(detail)?.dataUpdateCount).toBe(written);
    expect(stateOf(tree)).toEqual(before[2]);
  });

  it('stops reading by ids once every one was found, on a server that does not filter by them', async () => {
    // An earlier server ignores `ids`: main filters each page of the whole list.
    let served = 0;
    const fake = fakeBridge({
      'workRequests.page': () => {
        served++;
        const ids = served === 1 ? [30, 29] : served === 2 ? [] : [12];
        return { items: ids.map((id) => wr(id)), nextCursor: 'more', creators: {} };
      },
    });
    const found = await readByIds(fake.client, [29, 30], 100);
    expect(found.map((w) => w.id)).toEqual([30, 29]);
    expect(served).toBe(1);
    // One the server no longer has: the read stops at its bound, not at the list's end.
    served = 0;
    await readByIds(fake.client, [29, 5], 3);
    expect(served).toBe(3);
  });

  it('is read again when a list holds it, and tells the list on screen', async () => {
    const { queryClient } = setUp([10, 9], page([], null));
    const fake = fakeBridge({ 'workRequests.get': ({ id }) => wr(id, 'completed') });
    const told: number[] = [];
    const stop = liveRows.listen((id) => told.push(id));
    try {
      liveRows.refresh(queryClient, fake.client, SCOPE, 9);
      await expect.poll(() => told).toEqual([9]);
      expect(fake.calls.map((c) => c.channel)).toEqual(['workRequests.get']);
    } finally {
      stop();
    }
    expect(liveRows.listening).toBe(false);
  });

  it('brings new work in on top when no list holds it', async () => {
    const { queryClient, ids } = setUp([10], page([], null));
    const fake = fakeBridge({ 'workRequests.page': () => page([11, 10], 'c') });
    const told: number[] = [];
    const stop = liveRows.listen((id) => told.push(id));
    try {
      liveRows.refresh(queryClient, fake.client, SCOPE, 11);
      await expect.poll(() => told).toEqual([11]);
      expect(ids()).toEqual([11, 10]);
    } finally {
      stop();
    }
  });
});

describe("main's events and the list on screen", () => {
  afterEach(() => {
    cleanup();
  });

  /** The app's event mapping, and (with `onScreen`) a list showing, over `fake`. */
  function mount(queryClient: QueryClient, fake: FakeBridge, onScreen: boolean) {
    queryClient.setQueryData(serverQueries.active.key, {
      id: SCOPE,
      name: 'A',
      apiUrl: 'https://a.example/api',
      scope: null,
      defaultWorkspace: null,
      hasToken: true,
    });
    const told: number[] = [];
    const onUpdated = (id: number): void => {
      told.push(id);
    };
    const wrapper = (props: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <BridgeProvider client={fake.client}>{props.children}</BridgeProvider>
      </QueryClientProvider>
    );
    const withList = (): void => {
      useMainEvents();
      useLiveRows(onUpdated);
    };
    renderHook(onScreen ? withList : useMainEvents, { wrapper });
    return told;
  }

  it('swap a completed row into the list on screen', async () => {
    const { queryClient, key } = setUp([10, 9], page([], null));
    const fake = fakeBridge({ 'workRequests.get': ({ id }) => wr(id, 'completed') });
    const told = mount(queryClient, fake, true);
    fake.emit('workRequest.completed', {
      workRequestId: 9,
      completedAt: '2025-01-01T00:00:00Z',
      status: 'completed',
      result: 'success',
      workspace: 'System',
      workflowRoot: null,
    });
    await expect.poll(() => told).toEqual([9]);
    const rows = queryClient.getQueryData<Pages>(key)?.pages[0]?.items;
    expect(rows?.map((w) => w.status)).toEqual(['running', 'completed']);
  });

  it('read nothing for the lists while none is on screen', async () => {
    const { queryClient } = setUp([10, 9], page([], null));
    const fake = fakeBridge({ 'workRequests.get': ({ id }) => wr(id, 'completed') });
    mount(queryClient, fake, false);
    fake.emit('workRequests.changed', { ids: [9, 11] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.calls.map((c) => c.channel)).toEqual([]);
  });
});
