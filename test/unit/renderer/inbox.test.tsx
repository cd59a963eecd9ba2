// @vitest-environment happy-dom
/**
 * The recent notifications list: while main has not answered it says it is loading, an
 * answer with none shows its empty state, a failure shows the error with a retry, and each
 * notification is a card whose button opens its work request; an early warning's card
 * opens the live log at the line where the running build broke, on its own server.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotificationRecord } from '@shared/contract';
import { DebusineError } from '@shared/errors';
import { BridgeProvider } from '@renderer/bridge';
import { RecentNotifications } from '@renderer/screens/work-requests/inbox';
import { useUiStore } from '@renderer/state/ui-store';
import { fakeBridge } from './support/fake-bridge';
import { SERVER_A } from './support/server-a';

function renderWith(recent: () => NotificationRecord[] | Promise<NotificationRecord[]>): void {
  const fake = fakeBridge({
    'servers.active': () => SERVER_A,
    'notifications.recent': recent,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={fake.client}>
        <RecentNotifications />
      </BridgeProvider>
    </QueryClientProvider>,
  );
}

afterEach(cleanup);

describe('RecentNotifications', () => {
  it('says it is loading until main answers', () => {
    renderWith(() => new Promise<NotificationRecord[]>(() => undefined));
    expect(screen.getByText('Loading notifications…')).toBeTruthy();
  });

  it('shows its empty state when there are none', async () => {
    renderWith(() => []);
    expect(await screen.findByText('No notifications yet')).toBeTruthy();
    expect(screen.queryByTestId('recent-notifications')).toBeNull();
  });

  it('shows the failure, with a retry', async () => {
    renderWith(() => {
      throw new DebusineError('network', 'main is unreachable');
    });
    expect(await screen.findByText(/main is unreachable/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /retry/i })).toBeTruthy();
  });

  it('lists each notification as a card that opens its work request', async () => {
    renderWith(() => [
      {
        workRequestId: 42,
        title: 'sbuild failed',
        body: 'hello_1.0',
        result: 'failure',
        shownAt: new Date().toISOString(),
        rootId: null,
        reason: null,
        serverId: SERVER_A.id,
      },
    ]);
    const card = await screen.findByTestId('notification-42');
    expect(card.closest('ul')?.getAttribute('aria-label')).toBe('Recent notifications');
    expect(screen.queryByRole('button', { name: /^Open the log/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open work request 42' }));
    expect(useUiStore.getState().detail).toEqual({
      kind: 'work-request',
      server: SERVER_A.id,
      id: 42,
    });
  });

  it("a failure's card opens the failed step's log at the line where it broke", async () => {
    renderWith(() => [
      {
        workRequestId: 40,
        title: 'Failed: workflow debian_pipeline #40',
        body: 'sbuild hello 1.0 amd64 — build: make: *** [debian/rules:4: build-arch] Error 1',
        result: 'failure',
        shownAt: new Date().toISOString(),
        rootId: null,
        reason: {
          workRequestId: 41,
          what: 'sbuild hello 1.0 amd64',
          why: 'build: make: *** [debian/rules:4: build-arch] Error 1',
          log: { artifactId: 7, path: 'hello_1.0_amd64.build', line: 172 },
        },
        serverId: SERVER_A.id,
      },
    ]);
    await screen.findByTestId('notification-40');
    fireEvent.click(
      screen.getByRole('button', { name: 'Open the log of work request 41 at line 173' }),
    );
    expect(useUiStore.getState().detail).toEqual({
      kind: 'log',
      server: SERVER_A.id,
      workRequestId: 41,
      artifactId: 7,
      path: 'hello_1.0_amd64.build',
      line: 172,
    });
  });

  it("an early warning's card opens the live log at the line where the build broke", async () => {
    useUiStore.setState({ area: 'work-requests', detail: null });
    renderWith(() => [
      {
        workRequestId: 31,
        title: 'sbuild hello 2.10-3 amd64 is failing',
        body: 'make[1]: *** [Makefile:4: hello] Error 1 (live log line 11)',
        result: 'failing',
        shownAt: new Date().toISOString(),
        rootId: 30,
        reason: null,
        liveLine: 10,
        serverId: SERVER_A.id,
      },
    ]);
    await screen.findByTestId('notification-31');
    fireEvent.click(
      screen.getByRole('button', { name: 'Open the live log of work request 31 at line 11' }),
    );
    expect(useUiStore.getState()).toMatchObject({
      area: 'work-requests',
      detail: { kind: 'live-log', server: SERVER_A.id, workRequestId: 31, line: 10 },
    });
    // The step's page stays a click away.
    expect(screen.getByRole('button', { name: 'Open work request 31' })).toBeTruthy();
  });
});
