// @vitest-environment happy-dom
/**
 * The log body scrolled by line position, over a fake main: keys and the wheel move it by
 * lines and pixels of content at ten million lines, End reaches the last line, the rows
 * are a pool that a jump reuses, the gutter fits the largest number, and a followed log
 * that grows keeps its end on screen while one scrolled up stays where it was.
 */
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { LogBody, type LogBodyProps, type ScrollRequest } from '@renderer/screens/logs/log-body';
import { fakeBridge, type FakeBridge } from './support/fake-bridge';
import { useFakeLayout } from './support/fake-layout';

const HANDLE = 'h1';
/** The height of the fake layout's screen (support/fake-layout.ts). */
const VIEW = 540;
const ROW = 18;

function fakeLog(): FakeBridge {
  return fakeBridge({
    'logs.lines': ({ from, count }) => {
      const lines = [];
      for (let i = from; i < from + count; i++)
        lines.push({ text: `line ${String(i)}`, cut: null });
      return { handle: HANDLE, from, lines, totalLines: 100_000_000, done: true };
    },
  });
}

function Body(props: Partial<LogBodyProps> & { totalLines: number }): React.JSX.Element {
  return (
    <LogBody
      handle={HANDLE}
      wrap={false}
      selection={null}
      match={null}
      errorLines={new Set()}
      marked={null}
      scrollRequest={null}
      onSelect={() => undefined}
      onVisible={() => undefined}
      onOpenUrl={() => undefined}
      {...props}
    />
  );
}

// happy-dom lays nothing out: the body gets a screen's height, and keeps the scrollTop it
// is given (a browser would keep it within the sizer, as the model does anyway).
useFakeLayout();

afterEach(cleanup);

function setup(fake: FakeBridge, element: React.JSX.Element) {
  const Wrapper = (props: { children: ReactNode }) => (
    <BridgeProvider client={fake.client}>{props.children}</BridgeProvider>
  );
  const view = render(element, { wrapper: Wrapper });
  const body = view.getByTestId('log-body');
  const rows = () => [...body.querySelectorAll<HTMLElement>('[data-testid="log-row"]')];
  const indices = () => rows().map((row) => Number(row.dataset.index));
  /** The row at the top of the view, and at its bottom (wholly on screen). */
  const onScreen = () => {
    const shown = rows()
      .map((row) => ({ index: Number(row.dataset.index), y: yOf(row) }))
      .filter((row) => row.y >= 0 && row.y + ROW <= VIEW)
      .map((row) => row.index);
    return { first: Math.min(...shown), last: Math.max(...shown) };
  };
  return { ...view, body, rows, indices, onScreen };
}

function yOf(row: HTMLElement): number {
  return Number(/translateY\((-?[\d.e+]+)px\)/.exec(row.style.transform)?.[1]);
}

describe('the log body at ten million lines', () => {
  const TOTAL = 10_000_000;

  it('goes to the end and back with End and Home, and moves by lines with the keys', () => {
    const { body, onScreen } = setup(fakeLog(), <Body totalLines={TOTAL} />);
    expect(onScreen()).toEqual({ first: 0, last: VIEW / ROW - 1 });
    fireEvent.keyDown(body, { key: 'End', ctrlKey: true });
    expect(onScreen()).toEqual({ first: TOTAL - VIEW / ROW, last: TOTAL - 1 });
    expect(body.dataset.atEnd).toBe('true');
    fireEvent.keyDown(body, { key: 'ArrowUp' });
    expect(onScreen().last).toBe(TOTAL - 2);
    fireEvent.keyDown(body, { key: 'PageUp' });
    // A page is the view less one line: the line at the top stays in sight.
    expect(onScreen().last).toBe(TOTAL - 2 - (VIEW / ROW - 1));
    fireEvent.keyDown(body, { key: 'Home', ctrlKey: true });
    expect(onScreen().first).toBe(0);
    // The scroll bar followed: at its top, then at its end.
    expect(body.scrollTop).toBe(0);
    fireEvent.keyDown(body, { key: 'End' });
    expect(body.scrollTop).toBeGreaterThan(0);
  });

  it('moves by pixels of content with the wheel, wherever it is', () => {
    const { body, onScreen } = setup(fakeLog(), <Body totalLines={TOTAL} />);
    fireEvent.keyDown(body, { key: 'End' });
    fireEvent.wheel(body, { deltaY: -180, deltaMode: 0 });
    expect(onScreen().last).toBe(TOTAL - 11);
    // Three lines at a time, when the wheel counts in lines.
    fireEvent.wheel(body, { deltaY: 3, deltaMode: 1 });
    expect(onScreen().last).toBe(TOTAL - 8);
  });

  it('maps the scroll bar dragged to its end onto the last line', () => {
    const { body, onScreen } = setup(fakeLog(), <Body totalLines={TOTAL} />);
    const sizer = body.querySelector<HTMLElement>('.log-sizer');
    const height = parseFloat(sizer?.style.height ?? '');
    expect(height).toBeLessThan(TOTAL * ROW);
    body.scrollTop = height - VIEW;
    fireEvent.scroll(body);
    expect(onScreen().last).toBe(TOTAL - 1);
    body.scrollTop = (height - VIEW) / 2;
    fireEvent.scroll(body);
    expect(Math.abs(onScreen().first - (TOTAL - VIEW / ROW) / 2)).toBeLessThan(2);
  });

  it('reuses the same row elements wherever a request sends it', () => {
    const fake = fakeLog();
    const request = (line: number, seq: number): ScrollRequest => ({ line, seq });
    const { rerender, rows, indices } = setup(
      fake,
      <Body totalLines={TOTAL} scrollRequest={request(5_000_000, 1)} />,
    );
    const before = new Set(rows());
    expect(indices()).toContain(5_000_000);
    for (let seq = 2; seq < 22; seq++) {
      const line = (seq * 2_718_281) % TOTAL;
      rerender(<Body totalLines={TOTAL} scrollRequest={request(line, seq)} />);
      expect(indices()).toContain(line);
    }
    rerender(<Body totalLines={TOTAL} scrollRequest={request(5_000_000, 30)} />);
    expect(new Set(rows())).toEqual(before);
  });

  it('makes the gutter as wide as the largest line number', () => {
    const { body } = setup(fakeLog(), <Body totalLines={TOTAL} />);
    expect(body.style.getPropertyValue('--log-digits')).toBe('8');
  });
});

describe('a log that grows', () => {
  it('stays at the end when followed, and where it was when scrolled up', () => {
    const fake = fakeLog();
    const { body, rerender, onScreen } = setup(fake, <Body totalLines={1000} follow />);
    fireEvent.keyDown(body, { key: 'End' });
    expect(onScreen().last).toBe(999);
    rerender(<Body totalLines={3_000_000} follow />);
    expect(onScreen().last).toBe(2_999_999);
    // Scrolled up, it stays on its lines as the log grows.
    fireEvent.wheel(body, { deltaY: -ROW * 100 });
    const where = onScreen();
    rerender(<Body totalLines={3_500_000} follow />);
    expect(onScreen()).toEqual(where);
    // Asked for the end again, it follows again.
    rerender(<Body totalLines={3_500_000} follow scrollRequest={{ end: true, seq: 1 }} />);
    expect(onScreen().last).toBe(3_499_999);
    rerender(<Body totalLines={4_000_000} follow scrollRequest={{ end: true, seq: 1 }} />);
    expect(onScreen().last).toBe(3_999_999);
  });

  it('stays where it was without follow', () => {
    const { body, rerender, onScreen } = setup(fakeLog(), <Body totalLines={1000} />);
    fireEvent.keyDown(body, { key: 'End' });
    rerender(<Body totalLines={5000} />);
    expect(onScreen().last).toBe(999);
  });

  it('says whether the end is on screen', async () => {
    const seen: boolean[] = [];
    const onAtEnd = (atEnd: boolean) => {
      seen.push(atEnd);
    };
    const { body } = setup(fakeLog(), <Body totalLines={100_000} onAtEnd={onAtEnd} />);
    await act(async () => {
      fireEvent.keyDown(body, { key: 'End' });
      await Promise.resolve();
    });
    expect(seen).toEqual([false, true]);
  });
});
