/**
 * The lines of a log, virtualised: only the rows on screen (and a few around them) exist,
 * and only their windows of lines are held (queries/logs.ts). Line numbers are buttons
 * that select a line (Shift extends the selection); a line shows as text, with its http(s)
 * addresses as links.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { formatBytes } from '@renderer/components/format';
import { useLogLines } from '@renderer/queries/logs';
import type { LogWindowCache } from '@renderer/queries/log-window-cache';
import { useFixedRows } from './fixed-rows';
import { LineText } from './line-text';

/** The height of an unwrapped row, in pixels (the CSS sets the same line height). */
export const ROW_HEIGHT = 18;

/** Rows rendered above and below the screen, and lines read around them. */
const OVERSCAN = 20;
const READ_AROUND = 100;

export interface LineRange {
  from: number;
  to: number;
}

export interface LogBodyProps {
  handle: string;
  totalLines: number;
  wrap: boolean;
  selection: LineRange | null;
  /** The search match shown now. */
  match: number | null;
  errorLines: ReadonlySet<number>;
  /** Where the build broke, or the line asked for when the log was opened. */
  marked: number | null;
  /** Scrolls to `line` whenever `seq` changes. */
  scrollRequest: { line: number; seq: number } | null;
  onSelect: (line: number, extend: boolean) => void;
  onVisible: (first: number, last: number) => void;
  onOpenUrl: (url: string) => void;
  /** Tests pass theirs, to look at what it holds. */
  cache?: LogWindowCache;
}

export function LogBody(props: LogBodyProps): React.JSX.Element {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { totalLines, wrap, onVisible } = props;
  // Unwrapped rows are one height: placed by arithmetic, with nothing kept per line. Wrapped
  // rows are measured, by TanStack Virtual, which keeps an offset per line (so its count is
  // 0 while unwrapped).
  const fixed = useFixedRows({
    scrollRef,
    count: totalLines,
    rowHeight: ROW_HEIGHT,
    overscan: OVERSCAN,
    enabled: !wrap,
  });
  // TanStack Virtual re-renders on scroll by design; the compiler just skips memoising here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: wrap ? totalLines : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  const items = wrap
    ? virtualizer.getVirtualItems().map((item) => ({ index: item.index, start: item.start }))
    : fixed.rows;
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const lines = useLogLines(
    props.handle,
    totalLines,
    Math.max(0, first - READ_AROUND),
    last + READ_AROUND,
    props.cache,
  );

  // What is on screen, without the rows rendered around it.
  const range = wrap ? virtualizer.range : fixed.range;
  const shownFirst = range?.startIndex ?? first;
  const shownLast = range?.endIndex ?? last;
  useEffect(() => {
    onVisible(shownFirst, shownLast);
  }, [shownFirst, shownLast, onVisible]);

  const request = props.scrollRequest;
  useEffect(() => {
    if (request === null) return;
    const line = Math.min(request.line, Math.max(0, totalLines - 1));
    if (wrap) virtualizer.scrollToIndex(line, { align: 'center' });
    else fixed.scrollToIndex(line);
    // Only a new request scrolls: the file growing must not pull the view back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request?.seq]);

  useEffect(() => {
    virtualizer.measure();
  }, [wrap, virtualizer]);

  const selected = (line: number): boolean =>
    props.selection !== null && line >= props.selection.from && line <= props.selection.to;

  return (
    <div
      ref={scrollRef}
      className={`log-body${wrap ? ' wrap' : ''}`}
      // Scrollable with the keyboard (arrows, Page Up/Down) once focused.
      tabIndex={0}
      role="region"
      aria-label="Log lines"
      data-testid="log-body"
      data-lines-version={lines.version}
    >
      <div
        className="log-sizer"
        style={{ height: wrap ? virtualizer.getTotalSize() : fixed.totalSize }}
      >
        {items.map((item) => {
          const line = lines.line(item.index);
          const classes = ['log-row'];
          if (selected(item.index)) classes.push('selected');
          if (props.errorLines.has(item.index)) classes.push('error');
          if (props.marked === item.index) classes.push('marked');
          if (props.match === item.index) classes.push('match');
          return (
            <div
              key={item.index}
              ref={wrap ? virtualizer.measureElement : undefined}
              data-index={item.index}
              data-testid="log-row"
              className={classes.join(' ')}
              style={{ transform: `translateY(${String(item.start)}px)` }}
            >
              <button
                type="button"
                className="log-number"
                aria-label={`Line ${String(item.index + 1)}`}
                aria-pressed={selected(item.index)}
                onClick={(event) => {
                  props.onSelect(item.index, event.shiftKey);
                }}
              >
                {item.index + 1}
              </button>
              <span className="log-text" data-testid="log-text">
                {line === undefined ? (
                  <span className="log-pending" aria-hidden="true">
                    …
                  </span>
                ) : (
                  <>
                    <LineText text={line.text} onOpenUrl={props.onOpenUrl} />
                    {line.cut !== null ? (
                      <span className="log-cut">
                        {' '}
                        [line cut: {formatBytes(line.cut)} in all; download the file to see it
                        whole]
                      </span>
                    ) : null}
                  </>
                )}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
