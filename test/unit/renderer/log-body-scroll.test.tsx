// @vitest-environment happy-dom
/**
 * The log body scrolled by line position, over a fake main: keys and the wheel move it by
 * lines and pixels of content at ten million lines, End reaches the last line, the rows
 * are a pool that a jump reuses, the gutter fits the largest number, and a followed log
 * that grows keeps its end on screen while one scrolled up stays where it was.
 */
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

/** Wrapped, every fifth line is a long one that takes three rows. */
function wrappedHeight(index: number): number {
  return index % 5 === 0 ? 3 * ROW : ROW;
}

describe('wrapped lines at ten million lines', () => {
  const TOTAL = 10_000_000;
  const saved = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
  beforeEach(() => {
    // happy-dom lays nothing out: a row is as tall as its line would wrap to.
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) {
        const index = this.dataset.index;
        return index === undefined ? 0 : wrappedHeight(Number(index));
      },
    });
  });
  afterEach(() => {
    if (saved) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', saved);
    else Reflect.deleteProperty(HTMLElement.prototype, 'offsetHeight');
  });

  /** The rows in order: each just below the one before, none over another. */
  function placed(rows: HTMLElement[]): { index: number; y: number }[] {
    const out = rows
      .map((row) => ({ index: Number(row.dataset.index), y: yOf(row) }))
      .sort((a, b) => a.index - b.index);
    out.forEach((row, i) => {
      const before = out[i - 1];
      if (before) {
        expect(row.index).toBe(before.index + 1);
        expect(row.y).toBe(before.y + wrappedHeight(before.index));
      }
    });
    return out;
  }

  /** The lines partly on screen. */
  function shown(rows: HTMLElement[]): number[] {
    return placed(rows)
      .filter((row) => row.y + wrappedHeight(row.index) > 0 && row.y < VIEW)
      .map((row) => row.index);
  }

  it('reaches the last line with End, its bottom at the view bottom', () => {
    const { body, rows } = setup(fakeLog(), <Body totalLines={TOTAL} wrap />);
    fireEvent.keyDown(body, { key: 'End', ctrlKey: true });
    const last = placed(rows()).find((row) => row.index === TOTAL - 1);
    expect(last?.y).toBe(VIEW - wrappedHeight(TOTAL - 1));
    expect(body.dataset.atEnd).toBe('true');
    fireEvent.keyDown(body, { key: 'Home', ctrlKey: true });
    expect(shown(rows())[0]).toBe(0);
  });

  it('shows any line asked for, whole and on screen, as many row elements wherever it goes', () => {
    const request = (line: number, seq: number): ScrollRequest => ({ line, seq });
    const { rerender, rows, body } = setup(
      fakeLog(),
      <Body totalLines={TOTAL} wrap scrollRequest={request(5_000_000, 1)} />,
    );
    const before = body.querySelectorAll('*').length;
    for (let seq = 2; seq < 22; seq++) {
      const line = (seq * 2_718_281) % TOTAL;
      rerender(<Body totalLines={TOTAL} wrap scrollRequest={request(line, seq)} />);
      const row = placed(rows()).find((r) => r.index === line);
      expect(row).toBeDefined();
      expect(row?.y).toBeGreaterThanOrEqual(0);
      expect((row?.y ?? 0) + wrappedHeight(line)).toBeLessThanOrEqual(VIEW);
      // No more rows than the unwrapped pool: a screen of the shortest rows and the overscan.
      expect(rows().length).toBeLessThanOrEqual(VIEW / ROW + 1 + 8);
    }
    rerender(<Body totalLines={TOTAL} wrap scrollRequest={request(5_000_000, 30)} />);
    expect(body.querySelectorAll('*').length).toBe(before);
  });

  it('moves by pixels of the rows drawn with the wheel and keys', () => {
    const { body, rows } = setup(
      fakeLog(),
      <Body totalLines={TOTAL} wrap scrollRequest={{ line: 8_000_000, seq: 1 }} />,
    );
    const top = shown(rows())[0] ?? -1;
    const y = placed(rows()).find((row) => row.index === top)?.y ?? NaN;
    // A line of three rows takes three arrow presses to leave the top.
    fireEvent.wheel(body, { deltaY: wrappedHeight(top) + y, deltaMode: 0 });
    expect(shown(rows())[0]).toBe(top + 1);
    expect(placed(rows()).find((row) => row.index === top + 1)?.y).toBe(0);
    fireEvent.keyDown(body, { key: 'ArrowUp' });
    expect(shown(rows())[0]).toBe(top);
  });

  it('maps the scroll bar onto the lines: its end is the last line', () => {
    const { body, rows } = setup(fakeLog(), <Body totalLines={TOTAL} wrap />);
    const sizer = body.querySelector<HTMLElement>('.log-sizer');
    const height = parseFloat(sizer?.style.height ?? '');
    expect(height).toBeLessThan(TOTAL * ROW);
    body.scrollTop = height - VIEW;
    fireEvent.scroll(body);
    expect(shown(rows()).at(-1)).toBe(TOTAL - 1);
    body.scrollTop = (height - VIEW) / 2;
    fireEvent.scroll(body);
    expect(Math.abs((shown(rows())[0] ?? 0) - TOTAL / 2)).toBeLessThan(40);
  });

  it('keeps the same top line when wrap is turned on and off', () => {
    const request = { line: 6_000_000, seq: 1 };
    const { rerender, rows } = setup(
      fakeLog(),
      <Body totalLines={TOTAL} scrollRequest={request} />,
    );
    const unwrapped = rows()
      .map((row) => ({ index: Number(row.dataset.index), y: yOf(row) }))
      .find((row) => row.y <= 0 && row.y + ROW > 0)?.index;
    rerender(<Body totalLines={TOTAL} wrap scrollRequest={request} />);
    expect(shown(rows())[0]).toBe(unwrapped);
    rerender(<Body totalLines={TOTAL} scrollRequest={request} />);
    const back = rows()
      .map((row) => ({ index: Number(row.dataset.index), y: yOf(row) }))
      .find((row) => row.y <= 0 && row.y + ROW > 0)?.index;
    expect(back).toBe(unwrapped);
  });
});

describe('a view that gets shorter', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** Resizes the view to `height`, as the browser's ResizeObserver would tell the body. */
  function resizable(): (height: number) => void {
    const observers: (() => void)[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          observers.push(callback);
        }
        observe = () => undefined;
        disconnect = () => undefined;
      },
    );
    return (height) => {
      Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
        configurable: true,
        get: () => height,
      });
      act(() => {
        for (const callback of observers) callback();
      });
    };
  }

  it('keeps the last line on screen at the end (a bar appeared above a followed log)', () => {
    const resize = resizable();
    const { body, rows } = setup(fakeLog(), <Body totalLines={1000} follow />);
    fireEvent.keyDown(body, { key: 'End' });
    resize(VIEW - 3 * ROW);
    const last = rows().find((row) => row.dataset.index === '999');
    expect(last && yOf(last) + ROW).toBe(VIEW - 3 * ROW);
  });

  it('keeps its top line elsewhere', () => {
    const resize = resizable();
    const { body, rows } = setup(fakeLog(), <Body totalLines={1000} />);
    fireEvent.wheel(body, { deltaY: 100 * ROW });
    resize(VIEW - 3 * ROW);
    const top = rows().find((row) => row.dataset.index === '100');
    expect(top && yOf(top)).toBe(0);
  });
});
