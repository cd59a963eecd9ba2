/**
 * The lines of a log, virtualised: only the rows on screen (and a few around them) exist,
 * and only their windows of lines are held (queries/logs.ts). The rows are a pool scrolled
 * by line position (line-scroll.ts), so that every line of any log can be reached, wrapped
 * or not; wrapped rows are as tall as their text, measured once drawn. Line numbers are
 * buttons that select a line (Shift extends the selection), in a gutter as wide as the
 * largest number needs; a line shows as text, with its http(s) addresses as links.
 */
import { useEffect, useRef, type CSSProperties } from 'react';
import { formatBytes } from '@renderer/components/format';
import { useLogLines } from '@renderer/queries/logs';
import type { LogWindowCache } from '@renderer/queries/log-window-cache';
import { useLineScroll } from './line-scroll';
import { LineText } from './line-text';

/** The height of an unwrapped row, in pixels (the CSS sets the same line height). */
export const ROW_HEIGHT = 18;

/**
 * Rows rendered above and below the screen: the position moves with the wheel and keys and
 * the rows are drawn in the same frame, so a few suffice.
 */
const OVERSCAN = 4;
/** Lines read around those on screen. */
const READ_AROUND = 100;

/** Shows a line (in the middle of the view), or the end of the log, whenever `seq` changes. */
export type ScrollRequest = { line: number; seq: number } | { end: true; seq: number };

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
  scrollRequest: ScrollRequest | null;
  /** At the end when the log grows, the view stays at the end. */
  follow?: boolean;
  /** Whether the view shows the end of the log, as it changes. */
  onAtEnd?: (atEnd: boolean) => void;
  onSelect: (line: number, extend: boolean) => void;
  onVisible: (first: number, last: number) => void;
  onOpenUrl: (url: string) => void;
  /** Tests pass theirs, to look at what it holds. */
  cache?: LogWindowCache;
}

export function LogBody(props: LogBodyProps): React.JSX.Element {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { totalLines, wrap, onVisible, onAtEnd } = props;
  const scroll = useLineScroll({
    scrollRef,
    count: totalLines,
    rowHeight: ROW_HEIGHT,
    overscan: OVERSCAN,
    wrap,
    follow: props.follow ?? false,
  });
  const items = scroll.rows;
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
  const shownFirst = scroll.range.startIndex;
  const shownLast = scroll.range.endIndex;
  useEffect(() => {
    onVisible(shownFirst, shownLast);
  }, [shownFirst, shownLast, onVisible]);

  const atEnd = scroll.atEnd;
  useEffect(() => {
    onAtEnd?.(atEnd);
  }, [atEnd, onAtEnd]);

  const request = props.scrollRequest;
  useEffect(() => {
    if (request === null || totalLines === 0) return;
    const lastLine = totalLines - 1;
    const line = 'end' in request ? lastLine : Math.min(request.line, lastLine);
    if ('end' in request) scroll.scrollToEnd();
    else scroll.scrollToLine(line);
    // Only a new request scrolls: the file growing must not pull the view back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request?.seq]);

  const selected = (line: number): boolean =>
    props.selection !== null && line >= props.selection.from && line <= props.selection.to;

  const row = (item: { index: number; y: number; slot: number }): React.JSX.Element => {
    const line = lines.line(item.index);
    const classes = ['log-row'];
    if (selected(item.index)) classes.push('selected');
    if (props.errorLines.has(item.index)) classes.push('error');
    if (props.marked === item.index) classes.push('marked');
    if (props.match === item.index) classes.push('match');
    return (
      <div
        key={item.slot}
        data-index={item.index}
        data-testid="log-row"
        className={classes.join(' ')}
        style={{ transform: `translateY(${String(item.y)}px)` }}
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
                  [line cut: {formatBytes(line.cut)} in all; download the file to see it whole]
                </span>
              ) : null}
            </>
          )}
        </span>
      </div>
    );
  };

  // The gutter is as wide as the largest line number: 8 digits at ten million lines.
  const gutter = { '--log-digits': String(String(Math.max(1, totalLines)).length) };
  return (
    <div
      ref={scrollRef}
      className={`log-body${wrap ? ' wrap' : ''}`}
      style={gutter as CSSProperties}
      // Scrollable with the keyboard (arrows, Page Up/Down, Home/End) once focused.
      tabIndex={0}
      role="region"
      aria-label="Log lines"
      data-testid="log-body"
      data-lines-version={lines.version}
      data-at-end={atEnd}
    >
      <div className="log-sizer" style={{ height: scroll.sizerHeight }}>
        {/* The rows stay in the view as the sizer scrolls under them. */}
        <div className="log-rows" style={{ height: scroll.viewHeight }}>
          {items.map(row)}
        </div>
      </div>
    </div>
  );
}
