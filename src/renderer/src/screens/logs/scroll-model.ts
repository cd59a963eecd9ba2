/**
 * Where an unwrapped log is scrolled to, kept as a position in the content (the lines, one
 * height each), not as the scroll container's scrollTop. An element cannot be as tall as
 * ten million lines of 18 px: Chromium stops laying out at about 33.5 million pixels (2^25
 * less a little), about 1.86 million such lines, and a sizer that tall would leave the rest
 * of the file out of reach. So the sizer is at most MAX_SIZER pixels tall, and its scroll
 * range is mapped proportionally onto the content's: the scroll bar shows where the view
 * is and can be dragged, while wheel, keys and "go to line" move the position itself, by
 * lines and pixels of content, and set the scroll bar from it. Below MAX_SIZER the mapping
 * is the identity, and scrolling is the browser's own, pixel for pixel.
 *
 * Wrapped, a line is as tall as its text needs, known only once its row was laid out. The
 * position is still in lines: `top / rowHeight` is the line at the top of the view and the
 * fraction of it above the view, whatever its height (anchorAt). So the scroll bar maps
 * onto line numbers as unwrapped, a position means the same top line in both modes, and
 * moving by pixels walks over the heights measured (`heights`; a line not measured counts
 * as one row). Nothing is kept per line but the heights of the lines near the screen.
 *
 * Pure arithmetic, so that both ends can be checked exactly at any number of lines.
 */

/** Far below Chromium's limit, so that zoom and rounding never reach it. */
export const MAX_SIZER = 8_000_000;

export interface Geometry {
  /** Lines in the log (it may grow while open). */
  count: number;
  /** Pixels per line. */
  rowHeight: number;
  /** Height of the view, in pixels. */
  viewport: number;
  /** The tallest sizer allowed (MAX_SIZER but in tests). */
  maxSizer?: number;
  /** Wrapped: the lines whose height was measured, by line. */
  heights?: ReadonlyMap<number, number>;
}

/** The height of a line: measured, else one row. */
export function heightOf(line: number, g: Geometry): number {
  return g.heights?.get(line) ?? g.rowHeight;
}

/** Lines walked over at most per move; past them, lines count as one row each. */
const MAX_WALK = 10_000;

/** The line at the top of the view at `top`, and the pixels of it above the view. */
export function anchorAt(top: number, g: Geometry): { line: number; offset: number } {
  const position = top / g.rowHeight;
  const line = Math.floor(position);
  return { line, offset: (position - line) * heightOf(line, g) };
}

/**
 * The position with `offset` pixels of `line` above the view; an offset past the line, or
 * negative, walks over the lines' heights.
 */
export function topAt(line: number, offset: number, g: Geometry): number {
  if (!Number.isFinite(offset)) return offset;
  if (!g.heights || g.heights.size === 0) return line * g.rowHeight + offset;
  let at = line;
  let rest = offset;
  for (let n = 0; rest < 0 && at > 0 && n < MAX_WALK; n++) {
    at--;
    rest += heightOf(at, g);
  }
  for (let n = 0; rest >= heightOf(at, g) && at < g.count && n < MAX_WALK; n++) {
    rest -= heightOf(at, g);
    at++;
  }
  const h = heightOf(at, g);
  // Before the first line, or past the walk: one row per line.
  if (rest < 0 || rest >= h) return at * g.rowHeight + rest;
  return (at + rest / h) * g.rowHeight;
}

/** The position `dy` pixels of content below `top` (above when negative). */
export function advance(top: number, dy: number, g: Geometry): number {
  const { line, offset } = anchorAt(top, g);
  return topAt(line, offset + dy, g);
}

/**
 * The content's height: every line one row, but the lines measured (wrapped, near the
 * screen), which count as tall as they are. A short log whose lines wrap is taller than its
 * rows, and needs a scroll bar its rows alone would not give it.
 */
export function contentHeight(g: Geometry): number {
  let height = g.count * g.rowHeight;
  if (g.heights) {
    for (const [line, h] of g.heights) if (line < g.count) height += h - g.rowHeight;
  }
  return height;
}

/** The highest position: the last line's bottom at the view's bottom. */
export function maxTop(g: Geometry): number {
  return Math.max(0, topAt(g.count, -g.viewport, g));
}

/** The sizer's height: the content's, up to the bound. */
export function sizerHeight(g: Geometry): number {
  return Math.min(contentHeight(g), g.maxSizer ?? MAX_SIZER);
}

/** The scroll container's scroll range over the sizer. */
export function maxScrollTop(g: Geometry): number {
  return Math.max(0, sizerHeight(g) - g.viewport);
}

/** A position kept within the content. */
export function clampTop(top: number, g: Geometry): number {
  if (!Number.isFinite(top)) return top > 0 ? maxTop(g) : 0;
  return Math.min(maxTop(g), Math.max(0, top));
}

/** The scrollTop that shows `top`: proportional, both ends exact. */
export function scrollTopFor(top: number, g: Geometry): number {
  const range = maxTop(g);
  if (range === 0) return 0;
  const t = clampTop(top, g);
  if (t === range) return maxScrollTop(g);
  return (t / range) * maxScrollTop(g);
}

/**
 * The position a scrollTop (read from the scroll container, the user having dragged the
 * scroll bar) stands for. Within half a pixel of either end it is that end: the browser
 * rounds scrollTop, and the ends must be reachable exactly.
 */
export function topForScroll(scrollTop: number, g: Geometry): number {
  const range = maxScrollTop(g);
  if (range === 0 || scrollTop <= 0.5) return 0;
  if (scrollTop >= range - 0.5) return maxTop(g);
  return clampTop((scrollTop / range) * maxTop(g), g);
}

/** The position that shows `line`: in the middle of the view, as far as the ends allow. */
export function topForLine(line: number, g: Geometry): number {
  return clampTop(topAt(line, -(g.viewport - heightOf(line, g)) / 2, g), g);
}

/** The first and the last line on screen (partly or wholly) at `top`. */
export function visibleLines(top: number, g: Geometry): { first: number; last: number } {
  const { first, last } = placeRows(top, g, 0);
  return { first, last };
}

/** Rows on screen at most, whatever the position: the size of the pool of rows. */
export function rowsPerView(g: Geometry): number {
  return Math.ceil(g.viewport / g.rowHeight) + 1;
}

export interface PlacedRow {
  index: number;
  /** Pixels from the top of the view (negative for a row partly above it). */
  y: number;
}

/**
 * The rows at `top`: the lines on screen (`first` to `last`), each below the one before by
 * its height, and `overscan` more on each side.
 */
export function placeRows(
  top: number,
  g: Geometry,
  overscan: number,
): { rows: PlacedRow[]; first: number; last: number } {
  if (g.count === 0) return { rows: [], first: 0, last: 0 };
  const anchor = anchorAt(top, g);
  const first = Math.min(g.count - 1, Math.max(0, anchor.line));
  const start = first === anchor.line ? 0 - anchor.offset : 0;
  const rows: PlacedRow[] = [];
  let y = start;
  for (let index = first - 1; index >= 0 && index >= first - overscan; index--) {
    y -= heightOf(index, g);
    rows.unshift({ index, y });
  }
  y = start;
  let index = first;
  for (; index < g.count && (index === first || y < g.viewport); index++) {
    rows.push({ index, y });
    y += heightOf(index, g);
  }
  const last = index - 1;
  for (let more = 0; index < g.count && more < overscan; more++, index++) {
    rows.push({ index, y });
    y += heightOf(index, g);
  }
  return { rows, first, last };
}
