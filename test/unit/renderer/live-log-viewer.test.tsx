// @vitest-environment happy-dom
/**
 * The log viewer on a live log, over a fake main: it follows the newest line as the log
 * grows, stops following when the user scrolls up (and follows again on "Follow"), says in
 * one line why a refused stream has no live log with "Open in browser", and tells its page
 * when the step ended.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BridgeProvider } from '@renderer/bridge';
import { LogViewer } from '@renderer/screens/logs/log-viewer';
import type { LiveLogInfo, LogState } from '@shared/log-types';
import { fakeBridge, type FakeBridge } from './support/fake-bridge';
import { useFakeLayout } from './support/fake-layout';

const HANDLE = 'live-1';

function liveState(lines: number, live: Partial<LiveLogInfo> = {}): LogState {
  const status = live.status ?? 'streaming';
  return {
    handle: HANDLE,
    artifactId: 0,
    path: 'live log of work request #31',
    size: lines * 10,
    bytes: lines * 10,
    lines,
    state: status === 'streaming' || status === 'connecting' ? 'loading' : 'ready',
    fromCache: false,
    error: null,
    analysis: null,
    live: {
      workRequestId: 31,
      server: 'http://debusine.test/api',
      status,
      message: null,
      exitCode: null,
      sbuildStart: null,
      ...live,
    },
  };
}

function fakeLive(first: LogState): { fake: FakeBridge; total: { lines: number } } {
  const total = { lines: first.lines };
  const fake = fakeBridge({
    'logs.openLive': () => first,
    'logs.close': () => undefined,
    'logs.lines': ({ from, count }) => {
      const end = Math.min(total.lines, from + count);
      const lines = [];
      for (let i = from; i < end; i++) lines.push({ text: `line ${String(i)}`, cut: null });
      return { handle: HANDLE, from, lines, totalLines: total.lines, done: false };
    },
  });
  return { fake, total };
}

function renderLive(
  fake: FakeBridge,
  more: { onLiveEnded?: (s: LogState, line: number) => void; onOpen?: () => void } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const Wrapper = (props: { children: ReactNode }): React.JSX.Element => (
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={fake.client}>{props.children}</BridgeProvider>
    </QueryClientProvider>
  );
  return render(
    <LogViewer
      profile="p1"
      artifactId={0}
      path="Live log"
      line={null}
      category={null}
      backLabel="Back to work request #31"
      onBack={() => undefined}
      webUrl={null}
      server={null}
      onLineChange={() => undefined}
      liveWorkRequestId={31}
      {...(more.onLiveEnded ? { onLiveEnded: more.onLiveEnded } : {})}
      {...(more.onOpen ? { onLiveOpenInBrowser: more.onOpen } : {})}
    />,
    { wrapper: Wrapper },
  );
}

useFakeLayout();

afterEach(cleanup);

describe('the live log in the viewer', () => {
  it('follows the newest line, stops when scrolled up, and follows again on Follow', async () => {
    const { fake, total } = fakeLive(liveState(50));
    renderLive(fake);
    await screen.findByText('line 49');
    expect(screen.getByTestId('live-bar').textContent).toContain('Live: the step is running');
    expect(screen.getByRole('button', { name: 'Following' })).toBeTruthy();

    total.lines = 400;
    act(() => {
      fake.emit('logs.progress', liveState(400));
    });
    await screen.findByText('line 399');

    // The user scrolls up: following stops, and new lines no longer move the view.
    const body = screen.getByTestId('log-body');
    act(() => {
      body.scrollTop = 0;
      body.dispatchEvent(new Event('scroll'));
    });
    await screen.findByRole('button', { name: 'Follow' });
    total.lines = 600;
    act(() => {
      fake.emit('logs.progress', liveState(600));
    });
    await screen.findByText('600 lines so far, 5.9 KiB', { exact: false });
    expect(screen.queryByText('line 599')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    await screen.findByText('line 599');
    expect(screen.getByRole('button', { name: 'Following' })).toBeTruthy();
  });

  it('says why a refused stream has no live log, and offers the browser', async () => {
    const onOpen = vi.fn();
    const { fake } = fakeLive(
      liveState(0, {
        status: 'refused',
        message:
          'The server streams live logs only of public workspaces to the app; this one is not.',
      }),
    );
    renderLive(fake, { onOpen });
    const bar = await screen.findByTestId('live-bar');
    expect(bar.textContent).toContain('only of public workspaces');
    expect(bar.getAttribute('data-status')).toBe('refused');
    fireEvent.click(screen.getByRole('button', { name: 'Open in browser' }));
    expect(onOpen).toHaveBeenCalledOnce();
    expect(screen.queryByRole('button', { name: /^Follow/ })).toBeNull();
  });

  it('tells its page once when the step ended', async () => {
    const onLiveEnded = vi.fn();
    const { fake, total } = fakeLive(liveState(20));
    renderLive(fake, { onLiveEnded });
    await screen.findByText('line 19');
    total.lines = 30;
    act(() => {
      fake.emit('logs.progress', liveState(30, { status: 'ended', exitCode: 2, sbuildStart: 4 }));
    });
    await waitFor(() => {
      expect(onLiveEnded).toHaveBeenCalledOnce();
    });
    const [state] = onLiveEnded.mock.calls[0] as [LogState, number];
    expect(state.live).toMatchObject({ status: 'ended', sbuildStart: 4 });
    act(() => {
      fake.emit('logs.progress', liveState(30, { status: 'ended', exitCode: 2, sbuildStart: 4 }));
    });
    expect(onLiveEnded).toHaveBeenCalledOnce();
  });
});
