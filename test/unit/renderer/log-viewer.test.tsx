// @vitest-environment happy-dom
/**
 * The log viewer over a fake main: it holds a bounded number of lines however far a huge
 * log is scrolled, its search bar steps through main's matches and shows main's count,
 * "Jump to the error" goes to where the build broke (not to the summary), and a line's
 * text is only ever text: markup in it makes no element, and only http(s) addresses
 * become links, opened through main.
 */
import {
  act,
  cleanup,
  fireEvent,
  render,
  renderHook,
  screen,
  waitFor,
} from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BridgeProvider } from '@renderer/bridge';
import { useLogLines } from '@renderer/queries/logs';
import { LogWindowCache, MAX_WINDOWS, WINDOW_LINES } from '@renderer/queries/log-window-cache';
import { LogViewer } from '@renderer/screens/logs/log-viewer';
import { splitLinks } from '@renderer/screens/logs/line-text';
import type { LogSearchResult, LogState, SbuildLogAnalysis } from '@shared/log-types';
import { fakeBridge, type FakeBridge, type FakeHandlers } from './support/fake-bridge';
import { useFakeLayout } from './support/fake-layout';

const HANDLE = 'h1';

function logState(lines: number, analysis: SbuildLogAnalysis | null = null): LogState {
  return {
    handle: HANDLE,
    artifactId: 7,
    path: 'build.log',
    size: lines * 10,
    bytes: lines * 10,
    lines,
    state: 'ready',
    fromCache: false,
    error: null,
    analysis,
  };
}

/** A fake main holding a log of `total` lines, line i reading `text(i)`. */
function fakeLog(
  total: number,
  text: (i: number) => string = (i) => `line ${String(i)}`,
  extra: FakeHandlers = {},
  analysis: SbuildLogAnalysis | null = null,
): FakeBridge {
  return fakeBridge({
    'logs.open': () => logState(total, analysis),
    'logs.close': () => undefined,
    'logs.lines': ({ from, count }) => {
      const end = Math.min(total, from + count);
      const lines = [];
      for (let i = from; i < end; i++) lines.push({ text: text(i), cut: null });
      return { handle: HANDLE, from, lines, totalLines: total, done: true };
    },
    ...extra,
  });
}

function wrapper(fake: FakeBridge) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return function Wrapper(props: { children: ReactNode }): React.JSX.Element {
    return (
      <QueryClientProvider client={queryClient}>
        <BridgeProvider client={fake.client}>{props.children}</BridgeProvider>
      </QueryClientProvider>
    );
  };
}

function renderViewer(fake: FakeBridge, line: number | null = null) {
  return render(
    <LogViewer
      profile="p1"
      artifactId={7}
      path="build.log"
      line={line}
      category="debusine:work-request-debug-logs"
      backLabel="Back to artifact #7"
      onBack={() => undefined}
      webUrl={null}
      server="http://debusine.test/api"
      onLineChange={() => undefined}
    />,
    { wrapper: wrapper(fake) },
  );
}

useFakeLayout();

afterEach(cleanup);

function lineRequests(fake: FakeBridge): { from: number; count: number }[] {
  return fake.calls
    .filter((c) => c.channel === 'logs.lines')
    .map((c) => c.args as { from: number; count: number });
}

describe('the window cache', () => {
  it('never holds more than its bound while a 1,000,000-line log is scrolled through', async () => {
    const total = 1_000_000;
    const fake = fakeLog(total);
    const cache = new LogWindowCache();
    const bound = MAX_WINDOWS * WINDOW_LINES;
    const { result, rerender } = renderHook(
      (p: { first: number }) => useLogLines(HANDLE, total, p.first, p.first + 60, cache),
      { wrapper: wrapper(fake), initialProps: { first: 0 } },
    );
    let most = 0;
    for (let first = 0; first < total; first += 25_000 + 137) {
      rerender({ first });
      await waitFor(() => {
        expect(result.current.line(first)?.text).toBe(`line ${String(first)}`);
      });
      most = Math.max(most, cache.heldLines());
      expect(cache.heldLines()).toBeLessThanOrEqual(bound);
    }
    // It did scroll through (many windows were read), and only ever kept a few.
    expect(lineRequests(fake).length).toBeGreaterThan(40);
    expect(most).toBeLessThanOrEqual(bound);
    expect(result.current.line(0)).toBeUndefined();
    // Every request stays within main's limit.
    for (const r of lineRequests(fake)) expect(r.count).toBeLessThanOrEqual(2000);
  });

  it('reads a window again when the log grew while its first read was on the way', async () => {
    // Main answers the first read with the 3 lines it had then; the log has 8 by the time
    // that answer arrives, and the view already asked for 8.
    let total = 3;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answered = 0;
    const fake = fakeBridge({
      'logs.lines': async ({ from, count }) => {
        const now = total;
        if (answered++ === 0) await gate;
        const end = Math.min(now, from + count);
        const lines = [];
        for (let i = from; i < end; i++) lines.push({ text: `line ${String(i)}`, cut: null });
        return { handle: HANDLE, from, lines, totalLines: now, done: true };
      },
    });
    const { result, rerender } = renderHook(
      (p: { total: number }) => useLogLines(HANDLE, p.total, 0, 60),
      { wrapper: wrapper(fake), initialProps: { total: 3 } },
    );
    await waitFor(() => {
      expect(lineRequests(fake)).toHaveLength(1);
    });
    total = 8;
    rerender({ total: 8 });
    release();
    await waitFor(() => {
      expect(result.current.line(7)?.text).toBe('line 7');
    });
    // Once more, and no more: the second answer covers the log as the view knows it.
    expect(lineRequests(fake)).toHaveLength(2);
  });

  it('drops the window used longest ago, not the one just touched', () => {
    const cache = new LogWindowCache(2);
    const window = (from: number) => ({
      handle: HANDLE,
      from,
      lines: [{ text: `at ${String(from)}`, cut: null }],
      totalLines: 10_000,
      done: true,
    });
    cache.put(window(0));
    cache.put(window(WINDOW_LINES));
    cache.touch(0);
    cache.put(window(2 * WINDOW_LINES));
    expect(cache.line(0)?.text).toBe('at 0');
    expect(cache.line(WINDOW_LINES)).toBeUndefined();
    expect(cache.line(2 * WINDOW_LINES)?.text).toBe(`at ${String(2 * WINDOW_LINES)}`);
  });
});

describe('the viewer', () => {
  it('says so when the clipboard refuses a copy', async () => {
    const writeText = vi.fn(() =>
      Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
    );
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const fake = fakeLog(100);
    renderViewer(fake);
    await screen.findByText('line 0');
    fireEvent.click(screen.getByRole('button', { name: 'Copy line' }));
    await waitFor(() => {
      expect(screen.getByRole('status').textContent).toContain(
        'Could not copy to the clipboard (Write permission denied.)',
      );
    });
    expect(writeText).toHaveBeenCalledWith('line 0');
  });

  it('shows the first screen of lines, with line numbers from 1', async () => {
    const fake = fakeLog(1_000_000);
    renderViewer(fake);
    expect(await screen.findByText('line 0')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Line 1' })).toBeTruthy();
    // Only the windows around the screen were asked for.
    expect(lineRequests(fake).every((r) => r.from < 2 * WINDOW_LINES)).toBe(true);
  });

  it('steps through matches with Enter, Shift+Enter and F3, and shows main’s count', async () => {
    const searches: { fromLine: number; direction: string; query: string }[] = [];
    /** Main's answer for the `ordinal`th of the log's three matches, at `line`. */
    const match = (line: number, ordinal: number): LogSearchResult => ({
      matches: 3,
      line,
      ordinal,
      wrapped: false,
      complete: true,
      searchedLines: 1000,
      counted: true,
    });
    const answers: Record<string, LogSearchResult> = {
      next0: match(40, 1),
      next41: match(90, 2),
      next91: match(700, 3),
      previous699: match(90, 2),
    };
    const fake = fakeLog(1000, undefined, {
      'logs.search': (args) => {
        if (args.regex) {
          return {
            matches: 0,
            line: null,
            ordinal: null,
            wrapped: false,
            complete: true,
            searchedLines: 1000,
            counted: true,
          };
        }
        // Main's defaults: from the first line, forwards.
        const fromLine = args.fromLine ?? 0;
        const direction = args.direction ?? 'next';
        searches.push({ fromLine, direction, query: args.query });
        const answer = answers[`${direction}${String(fromLine)}`];
        if (!answer) throw new Error(`unexpected search ${direction} ${String(fromLine)}`);
        return answer;
      },
    });
    renderViewer(fake);
    await screen.findByText('line 0');
    const box = screen.getByRole('textbox', { name: 'Search the log' });
    fireEvent.change(box, { target: { value: 'warning' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('1 of 3')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('2 of 3')).toBeTruthy();
    // F3 works from anywhere in the viewer.
    fireEvent.keyDown(screen.getByRole('region', { name: 'Log lines' }), { key: 'F3' });
    expect(await screen.findByText('3 of 3')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    await waitFor(() => {
      expect(screen.getByText('2 of 3')).toBeTruthy();
    });
    expect(searches).toEqual([
      { fromLine: 0, direction: 'next', query: 'warning' },
      { fromLine: 41, direction: 'next', query: 'warning' },
      { fromLine: 91, direction: 'next', query: 'warning' },
      { fromLine: 699, direction: 'previous', query: 'warning' },
    ]);
    // The match shown is on screen, and marked.
    const row = await waitForRow(90);
    expect(row.className).toContain('match');
    // The regex and case toggles go with the query.
    fireEvent.click(screen.getByRole('button', { name: 'Regular expression' }));
    fireEvent.click(screen.getByRole('button', { name: 'Match case' }));
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('No matches')).toBeTruthy();
    expect(fake.calls.at(-1)?.args).toMatchObject({ regex: true, caseSensitive: true });
  });

  it('shows the first match as soon as main finds it, and the count when main has it', async () => {
    const asked: { fromLine: number; until: string }[] = [];
    let count: (result: LogSearchResult) => void = () => undefined;
    const fake = fakeLog(1000, undefined, {
      'logs.search': (args) => {
        const until = args.until ?? 'counted';
        asked.push({ fromLine: args.fromLine ?? 0, until });
        const found = { line: 40, ordinal: 1, wrapped: false, searchedLines: 0 };
        if (until === 'found') {
          return { ...found, matches: 1, complete: false, counted: false };
        }
        // Main is still going through the file.
        return new Promise<LogSearchResult>((resolve) => {
          count = resolve;
        });
      },
    });
    renderViewer(fake);
    await screen.findByText('line 0');
    const box = screen.getByRole('textbox', { name: 'Search the log' });
    fireEvent.change(box, { target: { value: 'warning' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('1 of 1 or more, counting…')).toBeTruthy();
    const row = await waitForRow(40);
    expect(row.className).toContain('match');
    expect(asked).toEqual([
      { fromLine: 0, until: 'found' },
      { fromLine: 0, until: 'counted' },
    ]);
    act(() => {
      count({
        line: 40,
        ordinal: 1,
        wrapped: false,
        searchedLines: 1000,
        matches: 120,
        complete: true,
        counted: true,
      });
    });
    expect(await screen.findByText('1 of 120')).toBeTruthy();
  });

  it('goes one match on per Enter, however quickly they come', async () => {
    const froms: number[] = [];
    const lines = [40, 90, 700];
    const fake = fakeLog(1000, undefined, {
      'logs.search': async (args) => {
        const fromLine = args.fromLine ?? 0;
        froms.push(fromLine);
        // Main takes its time: the next Enter comes before this answer.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const at = lines.findIndex((line) => line >= fromLine);
        return {
          matches: 3,
          line: lines[at] ?? null,
          ordinal: at + 1,
          wrapped: false,
          complete: true,
          searchedLines: 1000,
          counted: true,
        };
      },
    });
    renderViewer(fake);
    await screen.findByText('line 0');
    const box = screen.getByRole('textbox', { name: 'Search the log' });
    fireEvent.change(box, { target: { value: 'warning' } });
    for (let i = 0; i < 3; i++) fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('3 of 3')).toBeTruthy();
    expect(froms).toEqual([0, 41, 91]);
  });

  it('jumps to where the build broke, not to the summary at the end', async () => {
    const analysis: SbuildLogAnalysis = {
      kind: 'sbuild',
      outline: [
        { title: 'build.log', line: 0, kind: 'package', date: null },
        { title: 'Build', line: 3000, kind: 'section', date: null },
        { title: 'Summary', line: 9900, kind: 'section', date: null },
        { title: 'Status: attempted', line: 9905, kind: 'summary', date: null },
      ],
      summary: {
        status: 'attempted',
        failStage: 'build',
        buildTime: 60,
        duration: 95,
        package: 'hello',
        version: '1.0',
        distribution: 'sid',
        architecture: 'amd64',
        fields: {},
      },
      errorLines: [5000, 5001],
      errorLineCount: 2,
      error: { line: 5001, text: 'make: *** [all] Error 1' },
    };
    const fake = fakeLog(10_000, undefined, {}, analysis);
    renderViewer(fake);
    await screen.findByText('line 0');
    expect(screen.getByRole('group', { name: 'Build summary' }).textContent).toContain('build');
    fireEvent.click(screen.getByRole('button', { name: 'Jump to the error' }));
    const row = await waitForRow(5001);
    expect(row.className).toContain('marked');
    expect(row.className).toContain('error');
    await waitFor(() => {
      expect(row.textContent).toContain('line 5001');
    });
    expect(document.querySelector('[data-index="9905"]')).toBeNull();
    // The outline goes to its sections too.
    fireEvent.click(screen.getByRole('button', { name: 'Summary' }));
    expect((await waitForRow(9900)).className).toContain('marked');
  });

  it('opens at the line asked for, once it has arrived, and marks it', async () => {
    const fake = fakeLog(50_000);
    renderViewer(fake, 40_000);
    const row = await waitForRow(40_000);
    expect(row.className).toContain('marked');
    await waitFor(() => {
      expect(row.textContent).toContain('line 40000');
    });
  });
});

describe('hostile lines', () => {
  const hostile = [
    '<img src=x onerror="window.__pwned=1">',
    '<script>window.__pwned=1</script>',
    'see javascript:alert(1) and data:text/html,<b>x</b> and file:///etc/passwd',
    'and ftp://files.example/x, javascript://evil.example/%0Aalert(1), file://host/etc',
    'docs at https://example.org/a?b=1, and http://127.0.0.1:8000/x.',
    'quoted "https://evil.example/" onmouseover="window.__pwned=1"',
  ];

  it('shows markup as text: no element comes from a line', async () => {
    const fake = fakeLog(hostile.length, (i) => hostile[i] ?? '');
    const { container } = renderViewer(fake);
    expect(await screen.findByText(hostile[0] ?? '')).toBeTruthy();
    const body = container.querySelector('[data-testid="log-body"]');
    expect(body?.querySelector('img, script, b')).toBeNull();
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
    for (const el of body?.querySelectorAll('*') ?? []) {
      for (const attr of el.getAttributeNames()) expect(attr.startsWith('on')).toBe(false);
    }
  });

  it('makes links of http(s) addresses only, opened through main', async () => {
    const opened: string[] = [];
    const fake = fakeLog(hostile.length, (i) => hostile[i] ?? '', {
      'app.openExternal': ({ url }) => {
        opened.push(url);
        return undefined;
      },
    });
    const { container } = renderViewer(fake);
    await screen.findByText(hostile[0] ?? '');
    const links = [...container.querySelectorAll('[data-testid="log-body"] a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.org/a?b=1',
      'http://127.0.0.1:8000/x',
      'https://evil.example/',
    ]);
    const first = links[0];
    if (!first) throw new Error('no link');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    act(() => {
      first.dispatchEvent(click);
    });
    // The window does not follow the link itself: main opens the system browser.
    expect(click.defaultPrevented).toBe(true);
    await waitFor(() => {
      expect(opened).toEqual(['https://example.org/a?b=1']);
    });
  });

  it('splits a line into text and http(s) links, leaving other schemes as text', () => {
    for (const line of ['a javascript:alert(1) b', 'javascript://h/%0Aalert(1)', 'ftp://h/x']) {
      expect(splitLinks(line)).toEqual([{ kind: 'text', text: line }]);
    }
    expect(splitLinks('x https://h/p). y')).toEqual([
      { kind: 'text', text: 'x ' },
      { kind: 'link', text: 'https://h/p', url: 'https://h/p' },
      { kind: 'text', text: '). y' },
    ]);
    // Nothing that parses as a URL without a host becomes a link.
    expect(splitLinks('http://').every((p) => p.kind === 'text')).toBe(true);
  });
});

/** The row of line `index` once the virtualiser renders it. */
function waitForRow(index: number): Promise<HTMLElement> {
  return waitFor(() => {
    const row = document.querySelector<HTMLElement>(`[data-index="${String(index)}"]`);
    if (row === null) throw new Error(`row ${String(index)} not rendered`);
    return row;
  });
}

vi.setConfig({ testTimeout: 20_000 });

describe('stopping a log that is still arriving', () => {
  it('offers Stop while it loads; Stop asks main to cancel and shows that it stopped', async () => {
    const loading: LogState = { ...logState(10), state: 'loading', size: 10_000, bytes: 100 };
    const fake = fakeLog(10, undefined, {
      'logs.open': () => loading,
      'logs.cancel': () => ({
        ...loading,
        state: 'failed',
        error: { code: 'cancelled', message: 'The download of build.log was cancelled' },
      }),
    });
    renderViewer(fake);
    fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.channel === 'logs.cancel')).toEqual([
        { channel: 'logs.cancel', args: { handle: HANDLE } },
      ]);
    });
    expect(await screen.findByTestId('log-progress')).toHaveProperty(
      'textContent',
      'Stopped after 100 B',
    );
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('offers no Stop once the log is complete', async () => {
    renderViewer(fakeLog(10));
    await screen.findByText('line 0');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });
});

describe('downloading the file', () => {
  it("saves it through downloads.save of the log's server, and says what happened", async () => {
    const fake = fakeLog(10, undefined, {
      'downloads.save': () => ({
        savedBy: 'app',
        destination: 'Downloads',
        jobs: [
          {
            jobId: 'j1',
            artifactId: 7,
            state: 'running',
            receivedBytes: 0,
            totalBytes: null,
            error: null,
          },
        ],
      }),
    });
    renderViewer(fake);
    await screen.findByText('line 0');
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await screen.findByText('Downloading build.log to Downloads…');
    expect(fake.calls.filter((c) => c.channel === 'downloads.save')).toEqual([
      {
        channel: 'downloads.save',
        args: { what: 'file', server: 'p1', artifactId: 7, path: 'build.log' },
      },
    ]);
  });
});
