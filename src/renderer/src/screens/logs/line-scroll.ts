/**
 * The rows of a log, scrolled by a position in lines rather than by the scroll container's
 * scrollTop (scroll-model.ts says why): wheel, arrows, Page Up/Down, Space, Home/End and
 * requests to show a line move the position and set the scroll bar from it; dragging the
 * scroll bar sets the position from the bar. Unwrapped, every row is one height and which
 * rows are on screen is arithmetic. Wrapped, each row drawn is measured after layout and
 * the rows placed again with the heights found (the line at the top stays the same); only
 * the heights of lines near the screen are kept, and none survive a change of width.
 *
 * Rows come from a pool as large as a screen and the overscan: row `i` is drawn by the pool
 * element `i mod size`, so that scrolling by a line moves one element, and a jump anywhere
 * reuses the same elements with new text: the page's DOM stays the same size wherever the
 * view goes.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import {
  advance,
  clampTop,
  maxTop,
  placeRows,
  rowsPerView,
  scrollTopFor,
  sizerHeight,
  topForLine,
  topForScroll,
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

/** Heights kept at most, for the lines nearest the screen. */
const MAX_HEIGHTS = 2000;

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
  /** Rows as tall as their text: measured once drawn. */
  wrap: boolean;
  /** At the end when the log grows: stay at the end (a log that is still being written). */
  follow: boolean;
}): LineScroll {
  const { scrollRef, count, rowHeight, overscan, wrap, follow } = options;
  const [view, setView] = useState({ top: 0, height: 0, measured: 0 });
  /**
   * Wrapped: the heights of the rows drawn, by line. One map for the hook's life, filled
   * after layout and read by the listeners too, whose changes re-render through `measured`.
   */
  const [heights] = useState(() => new Map<number, number>());
  const g: Geometry = { count, rowHeight, viewport: view.height };
  if (wrap) g.heights = heights;
  /** The geometry drawn last, for the listeners (they outlive renders). */
  const geometry = useRef(g);
  useLayoutEffect(() => {
    geometry.current = { count, rowHeight, viewport: view.height };
    if (wrap) geometry.current.heights = heights;
  }, [count, rowHeight, view.height, wrap, heights]);
  /** The position drawn last, for the listeners (they outlive renders). */
  const topRef = useRef(0);
  /** The scrollTop set from the position: the scroll event it causes is not the user's. */
  const setByUs = useRef<number | null>(null);
  const wasAtEnd = useRef(false);
  /**
   * The line asked for by scrollToLine, until the user moves: wrapped, it is placed again
   * once the rows around it are measured (the heights above it move it).
   */
  const shownLine = useRef<number | null>(null);

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
          : { ...before, top: clamped, height: g.viewport },
      );
    },
    [scrollRef],
  );

  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const onScroll = (): void => {
      const g = { ...geometry.current, viewport: element.clientHeight };
      const mine = setByUs.current;
      setByUs.current = null;
      if (mine !== null && Math.abs(element.scrollTop - mine) < 1) return;
      shownLine.current = null;
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
      shownLine.current = null;
      moveTo(advance(topRef.current, dy, { ...geometry.current, viewport }));
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
      shownLine.current = null;
      moveTo(advance(topRef.current, by, { ...geometry.current, viewport }));
    };
    let width = element.clientWidth;
    const onResize = (): void => {
      // Wrapped rows change height with the width: measured again once drawn.
      if (element.clientWidth !== width) heights.clear();
      width = element.clientWidth;
      // A view at the end stays there: a bar that appears above it (a build's summary, at
      // the end of a live log) must not move the last line out of a followed view.
      moveTo(wasAtEnd.current ? Infinity : topRef.current);
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
  }, [scrollRef, rowHeight, moveTo, heights]);

  // The log grew (or shrank to nothing): the scroll bar's mapping changed with it. A view
  // at the end of a followed log stays there; any other stays on its lines.
  useLayoutEffect(() => {
    moveTo(follow && wasAtEnd.current ? Infinity : topRef.current);
  }, [count, follow, moveTo]);

  // Wrap on or off: the same position is the same top line; the heights start afresh.
  useLayoutEffect(() => {
    heights.clear();
    shownLine.current = null;
    moveTo(wasAtEnd.current ? Infinity : topRef.current);
  }, [wrap, moveTo, heights]);

  // Wrapped: the rows just drawn are measured; heights that changed place them again (at
  // the end, the end moves with them; a line asked for is placed again). After every
  // render: a row's height changes with its text, which arrives without a change of this
  // hook's state. State is set only when a height changed, so the renders end once the rows
  // drawn are measured.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!wrap || !element) return;
    let changed = false;
    for (const row of element.querySelectorAll<HTMLElement>('[data-index]')) {
      const line = Number(row.dataset.index);
      const height = row.offsetHeight;
      if (height > 0 && heights.get(line) !== height) {
        heights.set(line, height);
        changed = true;
      }
    }
    if (!changed) return;
    // Only the lines near the screen are kept: the map stays small wherever the view goes.
    if (heights.size > MAX_HEIGHTS) {
      const near = Math.floor(topRef.current / rowHeight);
      for (const line of heights.keys()) {
        if (Math.abs(line - near) > MAX_HEIGHTS / 4) heights.delete(line);
      }
    }
    const line = shownLine.current;
    if (line !== null) {
      moveTo(topForLine(line, { ...geometry.current, viewport: element.clientHeight }));
    } else moveTo(wasAtEnd.current ? Infinity : topRef.current);
    setView((before) => ({ ...before, measured: before.measured + 1 }));
  });

  const scrollToLine = useCallback(
    (line: number) => {
      const element = scrollRef.current;
      if (!element) return;
      moveTo(topForLine(line, { ...geometry.current, viewport: element.clientHeight }));
      shownLine.current = line;
    },
    [scrollRef, moveTo],
  );
  const scrollToEnd = useCallback(() => {
    shownLine.current = null;
    moveTo(Infinity);
  }, [moveTo]);

  const atEnd = view.top >= maxTop(g);
  if (count === 0) {
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
  const pool = rowsPerView(g) + 2 * overscan;
  const placed = placeRows(view.top, g, overscan);
  const { first, last } = placed;
  // A row is at least one row high, so a pool's worth covers the screen and the overscan.
  const rows: Row[] = placed.rows
    .filter((row) => row.index >= first - overscan && row.index < first - overscan + pool)
    .map((row) => ({ ...row, slot: row.index % pool }));
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
