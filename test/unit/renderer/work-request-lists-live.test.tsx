// @vitest-environment happy-dom
/**
 * The lists of the work request screen while they are shown: what main reports is patched
 * in, and what it never reports (a step unblocked, started or aborted, a root aborted) is
 * read now and then, a bounded number of rows at a time and never while the window is
 * hidden; the Workflows tab's rows follow as the list of all work requests does. The app's
 * own event mapping and screen, over a table the test moves as the server would.
 */
import { focusManager, type QueryClient } from '@tanstack/react-query';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIST_REFRESH_MS, LIST_REFRESH_ROWS } from '@renderer/queries/work-requests';
import { useViewsStore, type WorkRequestsTab } from '@renderer/screens/work-requests/views-store';
import { useUiStore } from '@renderer/state/ui-store';
import type { WorkRequestResponse } from '@shared/contract';
import { NO_WORKFLOW_FILTERS } from '@shared/results/workflow-list';
import { fakeTimersInEachTest } from '../../support/fake-timers';
import { workRequestFixture } from '../../support/work-requests';
import { useFakeLayout } from './support/fake-layout';
import { showWorkRequests, wait } from './support/live-screen';
import { tableBridge, type TableBridge } from './support/table-bridge';

const at = (seconds: number): string =>
  new Date(Date.UTC(2026, 10, 28, 10, 0, 0) + seconds * 1000).toISOString();

/** Two running workflows of a step each, the newest first in the lists. */
function rows(): WorkRequestResponse[] {
  const open = { result: '', completed_at: null };
  return [
    workRequestFixture(10, {
      created_at: at(10),
      task_type: 'Workflow',
      task_name: 'debian_pipeline',
      workflow_root: 10,
      status: 'running',
      ...open,
    }),
    workRequestFixture(11, {
      created_at: at(11),
      task_type: 'Server',
      task_name: 'packageupload',
      parent: 10,
      workflow_root: 10,
      status: 'blocked',
      ...open,
    }),
    workRequestFixture(20, {
      created_at: at(20),
      task_type: 'Workflow',
      task_name: 'debian_pipeline',
      workflow_root: 20,
      status: 'running',
      ...open,
    }),
    workRequestFixture(21, {
      created_at: at(21),
      task_name: 'sbuild',
      parent: 20,
      workflow_root: 20,
      status: 'running',
      ...open,
    }),
  ];
}

let queryClient: QueryClient;

function show(server: TableBridge, tab: WorkRequestsTab): void {
  act(() => {
    useUiStore.getState().navigate('work-requests');
    useViewsStore.getState().setTab(tab);
  });
  queryClient = showWorkRequests(server);
}

const rowText = (testId: string): string | null => screen.getByTestId(testId).textContent;

fakeTimersInEachTest();
useFakeLayout();

beforeEach(() => {
  focusManager.setFocused(undefined);
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
  useViewsStore.setState({ workflowFilters: NO_WORKFLOW_FILTERS });
});

describe('the list of all work requests, shown', () => {
  it('shows a step unblocked and an aborted root, which main never reports, within a refresh', async () => {
    const server = tableBridge(rows());
    show(server, 'list');
    await wait(1_000);
    expect(rowText('wr-row-11')).toContain('Blocked');
    server.update(11, { status: 'pending' });
    server.update(20, { status: 'aborted', completed_at: at(99) });
    await wait(LIST_REFRESH_MS + 1_000);
    expect(rowText('wr-row-11')).toContain('Pending');
    expect(rowText('wr-row-20')).toContain('Aborted');
  });

  it('reads a bounded number of rows again, and nothing while the window is hidden', async () => {
    const many = Array.from({ length: 80 }, (_, i) =>
      workRequestFixture(100 + i, {
        created_at: at(100 + i),
        status: 'running',
        result: '',
        completed_at: null,
      }),
    );
    const server = tableBridge([...rows(), ...many]);
    show(server, 'list');
    await wait(1_000);
    act(() => {
      focusManager.setFocused(false);
    });
    server.calls.length = 0;
    await wait(5 * LIST_REFRESH_MS);
    expect(server.calls).toEqual([]);
    act(() => {
      focusManager.setFocused(true);
    });
    await wait(LIST_REFRESH_MS);
    const byIds = server.callsOf('workRequests.page').flatMap((args) => {
      const ids = (args as { ids?: number[] } | undefined)?.ids;
      return ids ?? [];
    });
    expect(byIds.length).toBeGreaterThan(0);
    expect(byIds.length).toBeLessThanOrEqual(LIST_REFRESH_ROWS);
  });

  it('reads the newest rows once for a burst of completions of work no list holds', async () => {
    const server = tableBridge(rows());
    show(server, 'list');
    await wait(1_000);
    server.calls.length = 0;
    for (let id = 500; id < 510; id++) {
      server.table.set(id, workRequestFixture(id, { created_at: at(id) }));
      server.completed(id);
    }
    await wait(1_000);
    // One read under way when the burst came, and one more after it.
    expect(server.callsOf('workRequests.page').length).toBeLessThanOrEqual(2);
    expect(screen.getByTestId('wr-row-509')).toBeTruthy();
  });
});

describe('the Workflows tab, shown', () => {
  it('reads a closed row’s tree for its counts no more often than the list’s rows', async () => {
    // Every row is on screen (happy-dom's observer never says so).
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly seen: (entries: { isIntersecting: boolean }[]) => void) {}
        observe(): void {
          this.seen([{ isIntersecting: true }]);
        }
        disconnect(): void {
          // Nothing to stop.
        }
      },
    );
    const server = tableBridge(rows());
    show(server, 'workflows');
    await wait(1_000);
    // The older workflow's row is closed: only its counts want its tree.
    expect(
      screen.getByRole('button', { name: 'Expand workflow debian_pipeline #10' }),
    ).toBeTruthy();
    const readsOf10 = (): number =>
      server.callsOf('workRequests.get').filter((a) => (a as { id: number }).id === 10).length;
    expect(readsOf10()).toBe(1);
    await wait(3 * LIST_REFRESH_MS);
    expect(readsOf10()).toBeLessThanOrEqual(4);
    expect(readsOf10()).toBeGreaterThan(1);
  });

  it('drops a root the server listed as running once it is not, and counts what matches', async () => {
    act(() => {
      useViewsStore.setState({ workflowFilters: { ...NO_WORKFLOW_FILTERS, status: 'running' } });
    });
    const server = tableBridge(rows());
    show(server, 'workflows');
    await wait(1_000);
    expect(screen.getByTestId('workflow-footer').textContent).toContain('2 workflows loaded');
    server.update(10, { status: 'aborted', completed_at: at(99) });
    server.update(11, { status: 'aborted', completed_at: at(99) });
    await wait(LIST_REFRESH_MS + 1_000);
    expect(screen.queryByTestId('workflow-10')).toBeNull();
    expect(screen.getByTestId('workflow-footer').textContent).toContain(
      '1 of the 2 loaded workflows match',
    );
  });

  it('shows a root aborted with no message, open or not', async () => {
    const server = tableBridge(rows());
    show(server, 'workflows');
    await wait(1_000);
    // The newest workflow opens into its tree, which reads its root with its steps; the
    // other is a row only.
    expect(rowText('workflow-20')).toContain('Running');
    expect(rowText('workflow-10')).toContain('Running');
    // The open row's step counts come from the tree it shows, and follow it.
    expect(screen.getAllByTestId('step-counts')[0]?.textContent).toBe('1 running');
    server.update(20, { status: 'aborted', completed_at: at(99) });
    server.update(21, { status: 'aborted', completed_at: at(99) });
    server.update(10, { status: 'aborted', completed_at: at(99) });
    server.update(11, { status: 'aborted', completed_at: at(99) });
    await wait(5_000);
    expect(rowText('workflow-20')).toMatch(/^Aborted/);
    expect(screen.getAllByTestId('step-counts')[0]?.textContent).toBe('1 aborted');
    await wait(LIST_REFRESH_MS);
    expect(rowText('workflow-10')).toMatch(/^Aborted/);
  });
});
