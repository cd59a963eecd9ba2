// @vitest-environment happy-dom
/**
 * The log viewer on a live log, over a fake main: it follows the newest line as the log
 * grows, stops following when the user scrolls up (and follows again on "Follow"), says in
 * one line why a refused stream has no live log with "Open in browser", tells its page
 * when the step ended, and its page then opens the stored build log at the line the live
 * view showed: the newest while following, else the one in the middle of the screen.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { serverQueries } from '@renderer/queries/servers';
import { LiveLogScreen, LogScreen } from '@renderer/screens/logs';
import { LogViewer } from '@renderer/screens/logs/log-viewer';
import { useUiStore } from '@renderer/state/ui-store';
import type { ArtifactResponse, WorkRequestResponse } from '@shared/contract';
import type { LiveLogInfo, LogState } from '@shared/log-types';
import { fakeBridge, type FakeBridge } from './support/fake-bridge';
import { useFakeLayout } from './support/fake-layout';
import { SERVER_A } from './support/server-a';

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
      notices: [],
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

  it('says in a visible line when output may have been lost on reconnecting', async () => {
    const { fake, total } = fakeLive(liveState(20));
    renderLive(fake);
    await screen.findByText('line 19');
    expect(screen.queryByTestId('live-notice')).toBeNull();
    total.lines = 30;
    const notice =
      'Some output may have been lost while reconnecting: the server no longer held the last output shown.';
    act(() => {
      fake.emit('logs.progress', liveState(30, { notices: [notice] }));
    });
    const shown = await screen.findByTestId('live-notice');
    expect(shown.textContent).toBe(notice);
    // Still streaming: the notice is beside the status, not instead of it.
    expect(screen.getByTestId('live-bar').textContent).toContain('Live: the step is running');
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

/** Lines in the stream before sbuild's own log, which is the stored build log. */
const WORKER_LINES = 4;
const STORED = 'stored-1';
const BUILD_LOG = 'hello_1.0_amd64.build';

/** The stored log's line from which the live log has `dropped` more lines. */
const DROPPED_AT = 100;

/**
 * The live log of step #31 and, once it ended, its stored build log (artifact 7), whose
 * line k is the live line k + WORKER_LINES: the same text, "line <live number>". With
 * `dropped`, the stream has that many lines more than the file before its line DROPPED_AT
 * (as a verbose sbuild prints lines its log file does not hold).
 */
function fakeStep(first: number, dropped = 0): { fake: FakeBridge; total: { lines: number } } {
  const total = { lines: first };
  const storedLines = (): number => total.lines - WORKER_LINES - dropped;
  const liveNumber = (stored: number): number =>
    stored + WORKER_LINES + (stored >= DROPPED_AT ? dropped : 0);
  const fake = fakeBridge({
    'servers.active': () => SERVER_A,
    'logs.openLive': () => liveState(first),
    'logs.open': () => {
      const stored: LogState = {
        ...liveState(storedLines(), { status: 'ended' }),
        handle: STORED,
        artifactId: 7,
        path: BUILD_LOG,
      };
      delete stored.live;
      return stored;
    },
    'logs.close': () => undefined,
    'logs.lines': ({ handle, from, count }) => {
      const end = Math.min(handle === STORED ? storedLines() : total.lines, from + count);
      const lines = [];
      for (let i = from; i < end; i++) {
        lines.push({ text: `line ${String(handle === STORED ? liveNumber(i) : i)}`, cut: null });
      }
      return { handle, from, lines, totalLines: end, done: handle === STORED };
    },
    'workRequests.get': ({ id }) =>
      ({ id, artifacts: [7], links: {}, url: null }) as unknown as WorkRequestResponse,
    'artifacts.get': ({ id }) =>
      ({
        id,
        workspace: 'System',
        category: 'debian:package-build-log',
        data: { filename: BUILD_LOG },
        files: { [BUILD_LOG]: {} },
      }) as unknown as ArtifactResponse,
    'links.webui': ({ path }) => `https://a.example${path}`,
  });
  return { fake, total };
}

/** The screen the app shows for the ui store's page, as the shell does for a log. */
function Page(): React.JSX.Element | null {
  const detail = useUiStore((s) => s.detail);
  if (detail?.kind === 'live-log') return <LiveLogScreen target={detail} />;
  if (detail?.kind === 'log') return <LogScreen target={detail} />;
  return null;
}

function renderStep(fake: FakeBridge): void {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(serverQueries.active.key, SERVER_A);
  useUiStore.setState({
    area: 'work-requests',
    detail: { kind: 'live-log', server: SERVER_A.id, workRequestId: 31, line: null },
  });
  render(
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={fake.client}>
        <Page />
      </BridgeProvider>
    </QueryClientProvider>,
  );
}

/** The stored log, once it replaced the live one: its marked row and the lines on screen. */
async function storedShown(): Promise<{ marked: HTMLElement; top: number; bottom: number }> {
  await screen.findByRole('heading', { name: BUILD_LOG });
  const body = await screen.findByTestId('log-body');
  const marked = await waitFor(() => {
    const row = body.querySelector<HTMLElement>('.log-row.marked');
    if (row === null) throw new Error('No line is marked yet.');
    expect(row.textContent).not.toContain('…');
    return row;
  });
  // Rows are 18 px and the screen 540 px: 30 lines from the one at the scroll position.
  const top = Math.floor(body.scrollTop / 18);
  return { marked, top, bottom: top + 29 };
}

/**
 * The step's live log, scrolled up to show lines 200 to 229 (following stops), then the
 * step ends with 450 lines.
 */
async function scrolledUpThenEnded(fake: FakeBridge, total: { lines: number }): Promise<void> {
  renderStep(fake);
  await screen.findByText('line 399');
  const body = screen.getByTestId('log-body');
  act(() => {
    body.scrollTop = 200 * 18;
    body.dispatchEvent(new Event('scroll'));
  });
  await screen.findByRole('button', { name: 'Follow' });
  await screen.findByText('line 214');
  total.lines = 450;
  act(() => {
    fake.emit('logs.progress', liveState(450, { status: 'ended', exitCode: 2, sbuildStart: 4 }));
  });
}

/** Line `index` is among the lines on screen, `top` to `bottom`, and selected. */
function expectShownAndSelected(index: number, top: number, bottom: number): void {
  expect(index).toBeGreaterThanOrEqual(top);
  expect(index).toBeLessThanOrEqual(bottom);
  expect(
    screen.getByRole('button', { name: `Line ${String(index + 1)}` }).getAttribute('aria-pressed'),
  ).toBe('true');
}

describe('the stored log after the live one', () => {
  it('opens at the newest line the live view followed', async () => {
    const { fake, total } = fakeStep(400);
    renderStep(fake);
    await screen.findByText('line 399');
    total.lines = 450;
    act(() => {
      fake.emit('logs.progress', liveState(450, { status: 'ended', exitCode: 2, sbuildStart: 4 }));
    });

    const { marked, top, bottom } = await storedShown();
    expect(useUiStore.getState().detail).toEqual({
      kind: 'log',
      server: SERVER_A.id,
      workRequestId: 31,
      artifactId: 7,
      path: BUILD_LOG,
      line: 449 - WORKER_LINES,
      lineTexts: Array.from({ length: 21 }, (_, k) => `line ${String(429 + k)}`),
    });
    // The same line: the live log's newest, on screen and marked.
    expect(marked.querySelector('.log-text')?.textContent).toBe('line 449');
    const index = Number(marked.dataset.index);
    expect(index).toBe(449 - WORKER_LINES);
    expectShownAndSelected(index, top, bottom);
  });

  it('opens at the line in the middle of the screen once the user scrolled up', async () => {
    const { fake, total } = fakeStep(400);
    await scrolledUpThenEnded(fake, total);

    const { marked, top, bottom } = await storedShown();
    // Lines 200 to 229 were on screen; the middle one, 214, is the stored log's 210.
    expect(marked.querySelector('.log-text')?.textContent).toBe('line 214');
    expect(Number(marked.dataset.index)).toBe(214 - WORKER_LINES);
    expect(top).toBeLessThanOrEqual(200 - WORKER_LINES + 1);
    expect(bottom).toBeGreaterThanOrEqual(229 - WORKER_LINES - 1);
  });

  it('finds the line by its text when the stream has lines the stored log has not', async () => {
    // 13 lines of the stream are not in the file: the live line 214 is the stored 197.
    const { fake, total } = fakeStep(400, 13);
    await scrolledUpThenEnded(fake, total);

    const { marked, top, bottom } = await storedShown();
    expect(marked.querySelector('.log-text')?.textContent).toBe('line 214');
    const index = Number(marked.dataset.index);
    expect(index).toBe(214 - WORKER_LINES - 13);
    expectShownAndSelected(index, top, bottom);
    // The page keeps the line found, to come back to it.
    expect(useUiStore.getState().detail).toMatchObject({ kind: 'log', line: index });
    expect(useUiStore.getState().detail).not.toHaveProperty('lineTexts');
  });
});
