/**
 * Unwrapped rows, one height each, scrolled by a position in the content rather than by
 * the scroll container's scrollTop (scroll-model.ts says why): wheel, arrows, Page Up/Down,
 * Space, Home/End and requests to show a line move the position and set the scroll bar
 * from it; dragging the scroll bar sets the position from the bar. Which rows are on screen
 * is arithmetic, so nothing is kept per line.
 *
 * Rows come from a pool as large as a screen and the overscan: row `i` is drawn by the pool
 * element `i mod size`, so that scrolling by a line moves one element, and a jump anywhere
 * reuses the same elements with new text: the page's DOM stays the same size wherever the
 * view goes.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import {
  clampTop,
  maxTop,
  rowsPerView,
  scrollTopFor,
  sizerHeight,
  topForLine,
  topForScroll,
  visibleLines,
  type Geometry,
} from './scroll-model';

export interface Row {
  index: number;
  /** Pixels from the top of the view (negative for a row partly above it). */
  y: number;
  /** The pool element drawing it: a stable key. */
  slot: number;
}

export interface LineScroll {
  rows: Row[];
  /** The first and last lines on screen, without the rows drawn around them. */
  range: { startIndex: number; endIndex: number };
  /** The bounded sizer's height, and the view's (the rows' layer). */
  sizerHeight: number;
  viewHeight: number;
  /** Shows `line` in the middle of the view, as far as the ends allow. */
  scrollToLine: (line: number) => void;
  /** Shows the last line at the bottom of the view. */
  scrollToEnd: () => void;
  /** The last line's bottom is at the view's bottom (or the whole log fits). */
  atEnd: boolean;
}

/** Wheel deltas come in pixels, lines or pages (WheelEvent.deltaMode 0, 1, 2). */
function wheelPixels(delta: number, mode: number, rowHeight: number, viewport: number): number {
  if (mode === 1) return delta * rowHeight;
  if (mode === 2) return delta * viewport;
  return delta;
}

export function useLineScroll(options: {
  scrollRef: RefObject<HTMLElement | null>;
  count: number;
  rowHeight: number;
  overscan: number;
  /** Off: no listener, no rows (wrapped lines use the general virtualiser). */
  enabled: boolean;
  /** At the end when the log grows: stay at the end (a log that is still being written). */
  follow: boolean;
}): LineScroll {
  const { scrollRef, count, rowHeight, overscan, enabled, follow } = options;
  const [view, setView] = useState({ top: 0, height: 0 });
  const g: Geometry = { count, rowHeight, viewport: view.height };
  /** The geometry drawn last, for the listeners (they outlive renders). */
  const geometry = useRef(g);
  useLayoutEffect(() => {
    geometry.current = { count, rowHeight, viewport: view.height };
  }, [count, rowHeight, view.height]);
  /** The position drawn last, for the listeners (they outlive renders). */
  const topRef = useRef(0);
  /** The scrollTop set from the position: the scroll event it causes is not the user's. */
  const setByUs = useRef<number | null>(null);
  const wasAtEnd = useRef(false);

  /** Shows `top` (clamped), and puts the scroll bar where it stands for. */
  const moveTo = useCallback(
    (top: number) => {
      const element = scrollRef.current;
      if (!element) return;
      const g = { ...geometry.current, viewport: element.clientHeight };
      const clamped = clampTop(top, g);
      topRef.current = clamped;
      wasAtEnd.current = clamped >= maxTop(g);
      const scrollTop = scrollTopFor(clamped, g);
      if (Math.abs(element.scrollTop - scrollTop) >= 0.5) {
        element.scrollTop = scrollTop;
        setByUs.current = element.scrollTop;
      }
      setView((before) =>
        before.top === clamped && before.height === g.viewport
          ? before
          : { top: clamped, height: g.viewport },
      );
    },
    [scrollRef],
  );

  useEffect(() => {
    const element = scrollRef.current;
    if (!enabled || !element) return;
    const onScroll = (): void => {
      const g = { ...geometry.current, viewport: element.clientHeight };
      const mine = setByUs.current;
      setByUs.current = null;
      if (mine !== null && Math.abs(element.scrollTop - mine) < 1) return;
      // The user moved the scroll bar (or the browser did, for find-in-page or focus).
      moveTo(topForScroll(element.scrollTop, g));
    };
    const onWheel = (event: WheelEvent): void => {
      // Ctrl+wheel zooms; a wheel that goes sideways scrolls sideways, as the browser does.
      if (event.ctrlKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) return;
      event.preventDefault();
      const viewport = element.clientHeight;
      const dy = wheelPixels(event.deltaY, event.deltaMode, rowHeight, viewport);
      const dx = wheelPixels(event.deltaX, event.deltaMode, rowHeight, viewport);
      if (dx !== 0) element.scrollLeft += dx;
      moveTo(topRef.current + dy);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.altKey || event.metaKey) return;
      // Keys from a line number (a button) too, or the browser would scroll the sizer by
      // its own pixels; but Space presses the button.
      if (event.key === ' ' && event.target !== element) return;
      const viewport = element.clientHeight;
      const page = Math.max(rowHeight, viewport - rowHeight);
      const moves: Record<string, number | undefined> = {
        ArrowDown: rowHeight,
        ArrowUp: -rowHeight,
        PageDown: page,
        PageUp: -page,
        ' ': event.shiftKey ? -page : page,
        Home: -Infinity,
        End: Infinity,
      };
      const by = moves[event.key];
      if (by === undefined || (event.ctrlKey && event.key !== 'Home' && event.key !== 'End')) {
        return;
      }
      event.preventDefault();
      moveTo(topRef.current + by);
    };
    const onResize = (): void => {
      moveTo(topRef.current);
    };
    onResize();
    element.addEventListener('scroll', onScroll, { passive: true });
    element.addEventListener('wheel', onWheel, { passive: false });
    element.addEventListener('keydown', onKey);
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onResize);
    resize?.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      element.removeEventListener('wheel', onWheel);
      element.removeEventListener('keydown', onKey);
      resize?.disconnect();
    };
  }, [scrollRef, enabled, rowHeight, moveTo]);

  // The log grew (or shrank to nothing): the scroll bar's mapping changed with it. A view
  // at the end of a followed log stays there; any other stays on its lines.
  useLayoutEffect(() => {
    if (!enabled) return;
    moveTo(follow && wasAtEnd.current ? Infinity : topRef.current);
  }, [count, enabled, follow, moveTo]);

  const scrollToLine = useCallback(
    (line: number) => {
      const element = scrollRef.current;
      if (!element) return;
      moveTo(topForLine(line, { ...geometry.current, viewport: element.clientHeight }));
    },
    [scrollRef, moveTo],
  );
  const scrollToEnd = useCallback(() => {
    moveTo(Infinity);
  }, [moveTo]);

  const atEnd = view.top >= maxTop(g);
  if (!enabled || count === 0) {
    return {
      rows: [],
      range: { startIndex: 0, endIndex: 0 },
      sizerHeight: 0,
      viewHeight: view.height,
      scrollToLine,
      scrollToEnd,
      atEnd,
    };
  }
  const { first, last } = visibleLines(view.top, g);
  const pool = rowsPerView(g) + 2 * overscan;
  const rows: Row[] = [];
  const from = Math.max(0, first - overscan);
  const to = Math.min(count - 1, last + overscan, from + pool - 1);
  for (let index = from; index <= to; index++) {
    rows.push({ index, y: index * rowHeight - view.top, slot: index % pool });
  }
  return {
    rows,
    range: { startIndex: first, endIndex: last },
    sizerHeight: sizerHeight(g),
    viewHeight: view.height,
    scrollToLine,
    scrollToEnd,
    atEnd,
  };
}
