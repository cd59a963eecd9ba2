/**
 * Rows of one fixed height, virtualised from the scroll position alone: which rows are on
 * screen is arithmetic, so nothing is kept per row. A general virtualiser keeps an offset
 * and a size for every row (about 20 bytes each), which for a log of a million lines is
 * memory that grows with the file; unwrapped log lines are all one height, so they need
 * none of it. Wrapped lines differ in height and use the general one.
 */
import { useCallback, useEffect, useState, type RefObject } from 'react';

export interface Row {
  index: number;
  /** Pixels from the top of the sizer. */
  start: number;
}

export interface FixedRows {
  rows: Row[];
  /** The first and last rows on screen, without those rendered around them. */
  range: { startIndex: number; endIndex: number };
  totalSize: number;
  scrollToIndex: (index: number) => void;
}

export function useFixedRows(options: {
  scrollRef: RefObject<HTMLElement | null>;
  count: number;
  rowHeight: number;
  overscan: number;
  /** Off: no listener, no rows (the general virtualiser is in use). */
  enabled: boolean;
}): FixedRows {
  const { scrollRef, count, rowHeight, overscan, enabled } = options;
  const [view, setView] = useState({ top: 0, height: 0 });

  useEffect(() => {
    const element = scrollRef.current;
    if (!enabled || !element) return;
    const read = (): void => {
      setView((before) =>
        before.top === element.scrollTop && before.height === element.clientHeight
          ? before
          : { top: element.scrollTop, height: element.clientHeight },
      );
    };
    read();
    element.addEventListener('scroll', read, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    resize?.observe(element);
    return () => {
      element.removeEventListener('scroll', read);
      resize?.disconnect();
    };
  }, [scrollRef, enabled]);

  const scrollToIndex = useCallback(
    (index: number) => {
      const element = scrollRef.current;
      if (!element) return;
      // Centred, as far as the ends of the file allow.
      const top = index * rowHeight - (element.clientHeight - rowHeight) / 2;
      element.scrollTo({ top: Math.max(0, top) });
    },
    [scrollRef, rowHeight],
  );

  if (!enabled || count === 0) {
    return { rows: [], range: { startIndex: 0, endIndex: 0 }, totalSize: 0, scrollToIndex };
  }
  const last = count - 1;
  const startIndex = Math.min(last, Math.max(0, Math.floor(view.top / rowHeight)));
  const endIndex = Math.min(
    last,
    Math.max(startIndex, Math.ceil((view.top + view.height) / rowHeight) - 1),
  );
  const rows: Row[] = [];
  const to = Math.min(last, endIndex + overscan);
  for (let index = Math.max(0, startIndex - overscan); index <= to; index++) {
    rows.push({ index, start: index * rowHeight });
  }
  return { rows, range: { startIndex, endIndex }, totalSize: count * rowHeight, scrollToIndex };
}
